/** Pieces of Telegram's HTML parse mode, shared by the event catalog's texts and the channel. */

/** Escapes text for Telegram's HTML parse mode: & < > and ". */
export function escapeTelegramHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}

/**
 * Escapes `s` and limits the ESCAPED result to `max` UTF-16 units, cutting
 * between characters of the source (never inside an entity or a surrogate
 * pair) and ending with "…" when cut.
 */
export function escapeClipped(s: string, max: number): string {
  const full = escapeTelegramHtml(s);
  if (full.length <= max) return full;
  let out = '';
  for (const ch of s) {
    const e = escapeTelegramHtml(ch);
    if (out.length + e.length > max - 1) break;
    out += e;
  }
  return `${out}…`;
}

/** A decimal amount in the company's currency and locale; never throws on a bad locale or currency. */
export function formatTotal(amount: string, currency: string, locale: string): string {
  const a = amount.trim();
  if (!/^-?\d+(\.\d+)?$/.test(a)) return `${a} ${currency}`.trim();
  for (const loc of [locale, 'en']) {
    try {
      // a string argument is formatted as an exact decimal (no float rounding)
      return new Intl.NumberFormat(loc, { style: 'currency', currency }).format(a as `${number}`);
    } catch {
      // invalid locale → retry with 'en'; invalid currency → fall through
    }
  }
  return `${a} ${currency}`.trim();
}

export function formatCount(n: number, locale: string): string {
  try {
    return new Intl.NumberFormat(locale).format(n);
  } catch {
    return String(n);
  }
}
