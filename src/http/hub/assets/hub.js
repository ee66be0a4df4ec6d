// The hub's only script of its own (htmx does the rest): copy buttons, confirmations, the desk's comboboxes.
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

// ---- Comboboxes (the ARIA 1.2 pattern: a text field, a list box, aria-activedescendant): the
// line picker and the customer picker of the desk's forms. The server renders the options
// (escaped); typing asks it again, arrows move, Enter picks, Escape closes. The first option is
// active as soon as it arrives, so type + Enter (or a barcode scanner's code + Enter) picks it.
function setupCombobox(input) {
  const list = document.getElementById(input.getAttribute('aria-controls'));
  const status = document.getElementById(`${input.id}-status`);
  let active = -1;
  let timer = null;
  let stale = false;
  let asked = 0;
  const options = () => [...list.querySelectorAll('[role="option"]')];
  const query = () => input.value.replace(/^\s*\d+(?:[.,]\d+)?\s*\*\s*/, '').trim();
  function close() {
    list.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
    active = -1;
  }
  function activate(index) {
    const all = options();
    all.forEach((option, i) => {
      option.setAttribute('aria-selected', i === index ? 'true' : 'false');
    });
    active = index;
    if (index >= 0 && all[index]) {
      input.setAttribute('aria-activedescendant', all[index].id);
      all[index].scrollIntoView({ block: 'nearest' });
    } else input.removeAttribute('aria-activedescendant');
  }
  function search() {
    const q = query();
    if (q === '') {
      close();
      return Promise.resolve();
    }
    const mine = ++asked;
    return fetch(`${input.dataset.combobox}?q=${encodeURIComponent(q)}`, { credentials: 'same-origin' })
      .then((response) => (response.ok ? response.text() : ''))
      .then((markup) => {
        if (mine !== asked) return;
        stale = false;
        list.innerHTML = markup;
        const count = list.querySelector('[data-count]');
        if (status && count) status.textContent = count.textContent;
        const found = options().length > 0;
        list.hidden = !found;
        input.setAttribute('aria-expanded', found ? 'true' : 'false');
        activate(found ? 0 : -1);
      })
      .catch(() => {
        // Offline or the server away: the list stays as it was; the next keystroke asks again.
      });
  }
  function pick(option) {
    const quantity = (input.value.match(/^\s*(\d+(?:[.,]\d+)?)\s*\*/) || [])[1];
    const detail = { value: JSON.parse(option.dataset.value), quantity: quantity ? quantity.replace(',', '.') : null };
    input.value = '';
    close();
    input.dispatchEvent(new CustomEvent('combobox-pick', { bubbles: true, detail }));
  }
  input.addEventListener('input', () => {
    stale = true;
    clearTimeout(timer);
    timer = setTimeout(search, 120);
  });
  input.addEventListener('keydown', (event) => {
    const all = options();
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (list.hidden) {
        void search();
        return;
      }
      const step = event.key === 'ArrowDown' ? 1 : -1;
      activate((active + step + all.length) % all.length);
    } else if (event.key === 'Escape') {
      if (!list.hidden) {
        event.preventDefault();
        close();
      } else input.value = '';
    } else if (event.key === 'Enter') {
      // Enter never submits from here: it picks, or (empty) tells the form to move on.
      event.preventDefault();
      if (input.value.trim() === '') {
        input.dispatchEvent(new CustomEvent('combobox-empty-enter', { bubbles: true }));
        return;
      }
      clearTimeout(timer);
      // A scanner types faster than the answer comes: ask now (or wait for the question asked) and pick the first.
      const ready = !stale && !list.hidden && active >= 0 ? Promise.resolve() : search();
      void ready.then(() => {
        const chosen = options()[active >= 0 ? active : 0];
        if (chosen) pick(chosen);
      });
    }
  });
  input.addEventListener('blur', () => setTimeout(close, 150));
  list.addEventListener('mousedown', (event) => event.preventDefault());
  list.addEventListener('click', (event) => {
    const option = event.target.closest('[role="option"]');
    if (option) pick(option);
  });
}

// The line table: a picked product becomes a row (or one more of the same row), a row can go.
function addLine(form, product, quantity) {
  const table = form.querySelector('[data-lines] tbody');
  const unit = product.units[0];
  for (const row of table.querySelectorAll('tr.line')) {
    const same =
      row.querySelector('[name="productId"]').value === product.id &&
      row.querySelector('[name="unitId"]').value === unit.id &&
      row.querySelector('[name="discountPercent"]').value === '' &&
      row.querySelector('[name="lineNote"]').value === '';
    if (same) {
      const field = row.querySelector('[name="quantity"]');
      const now = Number(field.value.replace(',', '.')) || 0;
      field.value = String(Math.round((now + Number(quantity || 1)) * 1000) / 1000);
      return row;
    }
  }
  const template = document.getElementById('line-template');
  const key = `n${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  const markup = template.innerHTML.replaceAll('KEY', key);
  const holder = document.createElement('tbody');
  holder.innerHTML = markup;
  const row = holder.querySelector('tr');
  row.querySelector('[data-name]').textContent = product.name;
  row.querySelector('[data-sku]').textContent = product.sku || '';
  row.querySelector('[name="productId"]').value = product.id;
  row.querySelector('[name="quantity"]').value = quantity || '1';
  const select = row.querySelector('[name="unitId"]');
  for (const u of product.units) {
    const option = document.createElement('option');
    option.value = u.id;
    option.textContent = `${u.name} · ${u.price}`;
    select.append(option);
  }
  const remove = row.querySelector('[data-remove-line]');
  remove.setAttribute('aria-label', remove.dataset.labelTemplate.replace('{name}', product.name));
  table.append(row);
  return row;
}
function linesChanged(form) {
  const empty = form.querySelector('[data-no-lines]');
  if (empty) empty.hidden = form.querySelectorAll('[data-lines] tr.line').length > 0;
  document.body.dispatchEvent(new CustomEvent('lines-changed'));
}
document.addEventListener('combobox-pick', (event) => {
  const form = event.target.closest('form');
  if (!form) return;
  if (event.target.id === 'product-search') {
    addLine(form, event.detail.value, event.detail.quantity);
    linesChanged(form);
    event.target.focus();
  } else if (event.target.id === 'customer-search') {
    const picker = event.target.closest('[data-customer-picker]');
    const customer = event.detail.value;
    picker.querySelector('[name="customerId"]').value = customer.id;
    picker.querySelector('[name="customerLabel"]').value = customer.name;
    const chosen = picker.querySelector('[data-customer-chosen]');
    const clear = chosen.querySelector('[data-customer-clear]');
    chosen.querySelector('[data-customer-name]').textContent = clear.dataset.chosenTemplate.replace(
      '{name}',
      customer.name,
    );
    chosen.hidden = false;
    for (const [field, value] of [
      ['name', customer.name],
      ['email', customer.email],
      ['phone', customer.phone],
    ]) {
      const input = picker.querySelector(`[name="${field}"]`);
      if (input) input.value = value || '';
    }
  }
});
document.addEventListener('combobox-empty-enter', (event) => {
  const form = event.target.closest('form');
  if (!form || event.target.id !== 'product-search') return;
  // At the counter: on to the payment (cash received, or the button for a card).
  const next = form.hasAttribute('data-counter')
    ? form.querySelector('[name="paymentMethod"]:checked')?.value === 'card'
      ? form.querySelector('[data-sell]')
      : form.querySelector('[name="tendered"]')
    : form.querySelector('[data-lines] tr.line:last-child [name="quantity"]');
  if (next) next.focus();
});
document.addEventListener('click', (event) => {
  const remove = event.target.closest('[data-remove-line]');
  if (remove) {
    const form = remove.closest('form');
    remove.closest('tr').remove();
    linesChanged(form);
    form.querySelector('#product-search')?.focus();
    return;
  }
  const clear = event.target.closest('[data-customer-clear]');
  if (clear) {
    const picker = clear.closest('[data-customer-picker]');
    picker.querySelector('[name="customerId"]').value = '';
    picker.querySelector('[name="customerLabel"]').value = '';
    clear.closest('[data-customer-chosen]').hidden = true;
    picker.querySelector('#customer-search').focus();
  }
});
function setupComboboxes() {
  for (const input of document.querySelectorAll('[data-combobox]:not([data-ready])')) {
    input.setAttribute('data-ready', '');
    setupCombobox(input);
  }
}
document.addEventListener('DOMContentLoaded', setupComboboxes);
document.addEventListener('htmx:afterSettle', setupComboboxes);
