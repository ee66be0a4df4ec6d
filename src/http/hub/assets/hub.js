// The hub's only script of its own (htmx does the rest): copy buttons and confirmations.
// Served as a file so the Content-Security-Policy can forbid inline scripts.
document.addEventListener('click', (event) => {
  const button = event.target.closest('[data-copy]');
  if (!button) return;
  const source = document.getElementById(button.dataset.copy);
  if (!source) return;
  navigator.clipboard.writeText(source.textContent.trim()).then(() => {
    button.textContent = button.dataset.copied || 'Copied';
  });
});
document.addEventListener('submit', (event) => {
  const message = event.target.dataset && event.target.dataset.confirm;
  if (message && !window.confirm(message)) event.preventDefault();
});
// A table wider than a narrow screen scrolls inside its own box (hub.css): such a box takes the
// keyboard focus, so it can be scrolled without a mouse; one that fits stays out of the tab order.
function markScrollingTables() {
  for (const table of document.querySelectorAll('main table')) {
    if (table.scrollWidth > table.clientWidth + 1) table.setAttribute('tabindex', '0');
    else if (table.getAttribute('tabindex') === '0') table.removeAttribute('tabindex');
  }
}
document.addEventListener('DOMContentLoaded', markScrollingTables);
window.addEventListener('resize', markScrollingTables);
document.addEventListener('htmx:afterSettle', markScrollingTables);
