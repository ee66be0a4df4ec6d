/**
 * Barcodes of products: GTINs, the numbers under EAN and UPC bars. Accepted are the four GS1
 * lengths, EAN-8 (GTIN-8), UPC-A (GTIN-12), EAN-13 (GTIN-13) and GTIN-14 (cases), as digits; a
 * scanner sends just those, and people who type one add spaces or hyphens, which are dropped.
 * The last digit is a check digit (GS1 General Specifications 7.9.1: weights 3 and 1 from the
 * right, over the digits before it), so a mistyped or misread code is refused here rather than
 * matching nothing at the counter.
 */

export const GTIN_LENGTHS = [8, 12, 13, 14] as const;

export type GtinCheck =
  | { ok: true; value: string }
  | { ok: false; reason: 'form' }
  | { ok: false; reason: 'check'; expected: number };

/** The check digit of a GTIN's digits without it (any length): 3, 1, 3, … from the right. */
export function gtinCheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const digit = Number(body[body.length - 1 - i]);
    sum += digit * (i % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}

/** Separators people type inside a code ("4 006381 333931", "4006-3813-3393-1"). */
export function compactBarcode(text: string): string {
  return text.replace(/[\s\u00a0-]+/g, '');
}

export function checkGtin(text: string): GtinCheck {
  const digits = compactBarcode(text);
  if (!/^\d+$/.test(digits) || !(GTIN_LENGTHS as readonly number[]).includes(digits.length))
    return { ok: false, reason: 'form' };
  const expected = gtinCheckDigit(digits.slice(0, -1));
  if (expected !== Number(digits.at(-1))) return { ok: false, reason: 'check', expected };
  return { ok: true, value: digits };
}

/**
 * Every spelling of the same GTIN in the accepted lengths: GS1 numbers are right-aligned in 14
 * digits, so a UPC-A "012345678905" is the EAN-13 "0012345678905" a European scanner sends,
 * and the same item. Leading zeros are padding; the check digit does not change with them.
 */
export function gtinSpellings(digits: string): string[] {
  const core = digits.replace(/^0+/, '');
  return GTIN_LENGTHS.filter((length) => length >= core.length).map((length) => core.padStart(length, '0'));
}
