import { parseScaled } from '../../lib/money.ts';
import type { Formatter, Translate } from '../i18n/index.ts';

/** What both layouts (A4, receipt) do with the document's values: dates checked, amounts exact, user text made printable. */

export function parseDate(iso: string, field: string): Date {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime()))
    throw new RangeError(`${field} is not a valid ISO 8601 date: ${JSON.stringify(iso)}`);
  return date;
}

export const cents = (value: string): bigint => parseScaled(value, 2);
export const basisPoints = (rate: string): number => Number(parseScaled(rate, 2));

/**
 * "Popust 12,5 %: −33,37": a line's discount and what it took off, every price reduction stated
 * (čl. 79 of the Croatian VAT law); the same figure as the e-invoice's line allowance where prices are net.
 */
export function discountText(
  line: { discount?: string | null; discountAmount?: string | null },
  tr: Translate,
  f: Formatter,
): string {
  const rate = f.percent(basisPoints(line.discount ?? '0'));
  return line.discountAmount
    ? tr('print.discountAmount', { rate, amount: f.money(cents(line.discountAmount)) })
    : tr('print.discount', { rate });
}

// ---------------------------------------------------------------------------
// User text

const CONTROL_CHARS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const LONG_TOKEN_CHARS = 28;
const LONG_TOKEN = new RegExp(`\\S{${LONG_TOKEN_CHARS},}`, 'g');

type TextValue = string | Array<string | { text: string; wordBreak: 'break-all' }>;

/**
 * Prepares user-supplied text for pdfmake: CR/LF normalised, tabs to spaces,
 * other control characters removed; and tokens of 28+ non-space characters
 * (long SKUs, URLs, pasted garbage) may break anywhere, since pdfmake
 * otherwise never breaks inside a word and one such token would stretch the
 * table past the page edge. Characters DejaVu Sans lacks (CJK, emoji) print
 * as empty boxes.
 */
export function t(value: string): TextValue {
  let text = value;
  if (/[\u0000-\u001f\u007f-\u009f]/.test(text)) {
    text = text.replace(/\r\n?/g, '\n').replace(/\t/g, ' ').replace(CONTROL_CHARS, '');
  }
  if (text.length < LONG_TOKEN_CHARS || !LONG_TOKEN.test(text)) return text;
  LONG_TOKEN.lastIndex = 0;
  const parts: Array<string | { text: string; wordBreak: 'break-all' }> = [];
  let last = 0;
  for (const match of text.matchAll(LONG_TOKEN)) {
    if (match.index > last) parts.push(text.slice(last, match.index));
    parts.push({ text: match[0], wordBreak: 'break-all' });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

/** Plain-string variant for metadata (no inline splitting). */
export function plain(value: string): string {
  return value.replace(/\r\n?/g, ' ').replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
}
