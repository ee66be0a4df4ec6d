/**
 * Tax identifiers of customers (and of the company itself). Where the number carries a check
 * digit the check is enforced, since a mistyped tax id on a sale is a legal problem later:
 *
 * - Croatia: the OIB, 11 digits, the last a check digit by ISO 7064 MOD 11,10 over the first ten.
 *   The Croatian VAT id is "HR" + the OIB, so both spellings are accepted and name the same key.
 * - Germany: the VAT id (USt-IdNr.), "DE" + 9 digits, the last a check digit by ISO 7064
 *   MOD 11,10 over the first eight (BGBl. 1993 I S. 736, Anlage 3 zu § 9 ZMDV). A German
 *   Steuernummer has no common format and is accepted as text.
 * - Anything else: trimmed text; there is no check to make.
 */

export type TaxIdKind = 'hr_oib' | 'de_vat' | 'other';

export type TaxIdResult = { ok: true; value: string; kind: TaxIdKind } | { ok: false; message: string };

/** ISO 7064 MOD 11,10 (the hybrid system): true when the last digit checks the ones before it. */
export function iso7064Mod11_10(digits: string): boolean {
  if (!/^\d{2,}$/.test(digits)) return false;
  let product = 10;
  for (const char of digits.slice(0, -1)) {
    let sum = (Number(char) + product) % 10;
    if (sum === 0) sum = 10;
    product = (sum * 2) % 11;
  }
  const check = (11 - product) % 10;
  return check === Number(digits.at(-1));
}

/** What people add to a tax id when they type it: spaces, dots, hyphens and slashes. */
function compact(text: string): string {
  return text.replace(/[\s\u00a0.\-/]+/g, '').toUpperCase();
}

/**
 * Validates a tax id. `country` is the ISO 3166 alpha-2 code of the party's address, if known:
 * a bare 11-digit number of a Croatian party is an OIB; a number with a country prefix is
 * checked by its prefix whatever the address says.
 */
export function validateTaxId(text: string, country?: string | null): TaxIdResult {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, message: 'Must not be empty.' };
  const key = compact(trimmed);
  const inCroatia = country?.toUpperCase() === 'HR';
  if (key.startsWith('HR') || (inCroatia && /^\d+$/.test(key))) {
    const oib = key.startsWith('HR') ? key.slice(2) : key;
    if (!/^\d{11}$/.test(oib)) return { ok: false, message: 'A Croatian OIB has 11 digits (optionally after "HR").' };
    if (!iso7064Mod11_10(oib)) return { ok: false, message: 'Is not a valid OIB: the check digit does not match.' };
    return { ok: true, value: key.startsWith('HR') ? key : oib, kind: 'hr_oib' };
  }
  if (/^DE\d/.test(key)) {
    if (!/^DE\d{9}$/.test(key)) return { ok: false, message: 'A German VAT id is "DE" followed by 9 digits.' };
    if (!iso7064Mod11_10(key.slice(2)))
      return { ok: false, message: 'Is not a valid German VAT id: the check digit does not match.' };
    return { ok: true, value: key, kind: 'de_vat' };
  }
  return { ok: true, value: trimmed, kind: 'other' };
}

/**
 * The comparison key of a tax id: separators removed, upper-cased, and a Croatian "HR" prefix
 * dropped so "HR 12345678903" and "12345678903" are one customer. Uniqueness per company and
 * matching both use this key.
 */
export function taxIdKey(text: string): string {
  const key = compact(text);
  return /^HR\d{11}$/.test(key) ? key.slice(2) : key;
}
