import { html, raw, type Html } from '../html.ts';

/**
 * Takings per day as a bar chart drawn on the server (SVG: no script, no chart library). It is
 * read without colour: bars are solid shapes in the text colour against a labelled scale, the
 * highest day and the total are said in words above it, and every day's figure is in a table
 * for screen readers (the SVG itself is hidden from them, so nothing is read twice).
 */
export function trendChart(
  days: ReadonlyArray<{ date: string; takings: number }>,
  labels: {
    title: string;
    summary: string;
    day: string;
    amount: string;
    money: (cents: number) => string;
    date: (day: string) => string;
  },
): Html {
  const width = 600;
  const height = 160;
  const left = 4;
  const bottom = 20;
  const max = Math.max(1, ...days.map((d) => d.takings));
  const slot = (width - left) / Math.max(1, days.length);
  const bar = Math.max(2, slot * 0.7);
  const y = (value: number) => (height - bottom) * (1 - Math.max(0, value) / max);
  const bars = days
    .map((d, i) => {
      const top = y(d.takings);
      const x = left + i * slot + (slot - bar) / 2;
      return `<rect x="${x.toFixed(1)}" y="${top.toFixed(1)}" width="${bar.toFixed(1)}" height="${(height - bottom - top).toFixed(1)}"/>`;
    })
    .join('');
  // The first and last day under the axis: enough to read the time span.
  const first = days[0] ? labels.date(days[0].date) : '';
  const last = days.at(-1) ? labels.date(days.at(-1)!.date) : '';
  const escapeText = (s: string) => s.replace(/[&<>"]/g, (ch) => `&#${ch.charCodeAt(0)};`);
  const svg = `<svg class="trend" viewBox="0 0 ${width} ${height}" width="100%" preserveAspectRatio="none" aria-hidden="true" focusable="false">
<line x1="${left}" y1="${height - bottom}" x2="${width}" y2="${height - bottom}" stroke="currentColor"/>
<line x1="${left}" y1="0" x2="${width}" y2="0" stroke="currentColor" stroke-dasharray="4 4"/>
<g fill="currentColor">${bars}</g>
<text x="${left}" y="${height - 4}" font-size="12" fill="currentColor">${escapeText(first)}</text>
<text x="${width}" y="${height - 4}" font-size="12" fill="currentColor" text-anchor="end">${escapeText(last)}</text>
</svg>`;
  return html`<figure class="trend-figure">
  <figcaption>${labels.summary}</figcaption>
  ${raw(svg)}
  <table class="sr-only"><caption>${labels.title}</caption>
    <thead><tr><th scope="col">${labels.day}</th><th scope="col">${labels.amount}</th></tr></thead>
    <tbody>${days.map((d) => html`<tr><th scope="row">${labels.date(d.date)}</th><td>${labels.money(d.takings)}</td></tr>`)}</tbody>
  </table>
</figure>`;
}
