import { emailKey, nameKey, phoneSearch, prefixEnd } from './contact-keys.ts';
import type { KeyRange } from './customers.repository.ts';
import { iso7064Mod11_10 } from './tax-id.ts';

/**
 * What `GET /customers?q=` looks for, decided once from the text so that every search is one
 * range of one index (tenant first), read in that index's order:
 *
 * - with an "@": an e-mail, by the start of the lower-cased address;
 * - digits written as a phone number with a "+", "00" or a national trunk "0" ("091 234",
 *   "+385 91", "0049 30"): a phone, by the start of its E.164 key (the company's country
 *   decides what a national number means), unless it is 11 digits that check as an OIB;
 * - two letters and digits ("HR 123", "DE1234") or digits alone ("12345678903"): a tax id, by the
 *   start of its key (separators dropped; a Croatian "HR" prefix dropped as the key does);
 * - anything else: a name, by the start of the folded name (case, diacritics and punctuation
 *   ignored: "kovacevic a" finds "Kovačević, Ana");
 * - nothing: every customer, by name.
 */
export function classifySearch(q: string, country: string | null): KeyRange {
  const text = q.trim();
  if (text.includes('@')) return prefix('email_key', emailKey(text));
  const compact = text.replace(/[\s\u00a0.\-/()]+/g, '').toUpperCase();
  const oib = /^\d{11}$/.test(compact) && iso7064Mod11_10(compact);
  if (!oib && /^[+0]/.test(compact) && /^\+?\d+$/.test(compact)) {
    const phone = phoneSearch(text, country);
    if (phone && 'prefix' in phone) return prefix('phone_key', phone.prefix);
  }
  if (/^([A-Z]{2})?\d+$/.test(compact) && compact.length >= 2) {
    return prefix('tax_id_key', /^HR\d/.test(compact) ? compact.slice(2) : compact);
  }
  return prefix('name_key', nameKey(text));
}

function prefix(key: KeyRange['key'], from: string): KeyRange {
  return { key, from, to: from === '' ? null : prefixEnd(from) };
}
