/**
 * IBAN (ISO 13616) and BIC (ISO 9362) checks for a company's bank account and the payment codes
 * printed from it. An IBAN is checked three ways: its shape, the length its country registers in
 * the SWIFT IBAN registry, and the mod-97 check digits (ISO 7064 MOD 97-10), which catch every
 * single wrong character and every swap of two neighbours.
 */

/**
 * Total IBAN length per country, for the SEPA countries (SWIFT IBAN registry). Countries not listed
 * get the generic rule: 15 to 34 characters.
 */
const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24,
  AT: 20,
  BE: 16,
  BG: 22,
  CH: 21,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  EE: 20,
  ES: 24,
  FI: 18,
  FR: 27,
  GB: 22,
  GI: 23,
  GR: 27,
  HR: 21,
  HU: 28,
  IE: 22,
  IS: 26,
  IT: 27,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MT: 31,
  NL: 18,
  NO: 15,
  PL: 28,
  PT: 25,
  RO: 24,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  VA: 22,
};

/** Where the registry says the account part (BBAN) is digits only, a letter is a typo worth naming. */
const NUMERIC_BBAN = new Set([
  'AT',
  'DE',
  'HR',
  'SI',
  'BE',
  'CZ',
  'DK',
  'EE',
  'ES',
  'FI',
  'HU',
  'LT',
  'NO',
  'PL',
  'PT',
  'SE',
  'SK',
]);

export type IbanProblem = 'format' | 'length' | 'checksum';

export type IbanResult =
  | { ok: true; iban: string; country: string }
  | { ok: false; problem: IbanProblem; message: string };

/** Removes the spaces people type or copy from a print ("HR12 1001 0051 8630 0016 0") and upper-cases. */
export function normalizeIban(text: string): string {
  return text.replace(/[\s\u00a0-]+/g, '').toUpperCase();
}

/** ISO 7064 MOD 97-10 remainder of an alphanumeric string (letters count as 10..35), digit by digit so no BigInt is needed. */
export function mod97(alphanumeric: string): number {
  let remainder = 0;
  for (const char of alphanumeric) {
    const code = char.charCodeAt(0);
    const value = code >= 65 ? code - 55 : code - 48;
    remainder = value >= 10 ? (remainder * 100 + value) % 97 : (remainder * 10 + value) % 97;
  }
  return remainder;
}

export function validateIban(text: string): IbanResult {
  const iban = normalizeIban(text);
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban)) {
    return {
      ok: false,
      problem: 'format',
      message: 'Must be an IBAN: a country code, two check digits and the account number.',
    };
  }
  const country = iban.slice(0, 2);
  const expected = IBAN_LENGTHS[country];
  if (expected !== undefined ? iban.length !== expected : iban.length < 15 || iban.length > 34) {
    const wanted = expected !== undefined ? `${expected} characters for ${country}` : '15 to 34 characters';
    return { ok: false, problem: 'length', message: `Has ${iban.length} characters; an IBAN has ${wanted}.` };
  }
  if (NUMERIC_BBAN.has(country) && !/^\d+$/.test(iban.slice(4))) {
    return { ok: false, problem: 'format', message: `A ${country} IBAN has only digits after the country code.` };
  }
  if (mod97(iban.slice(4) + iban.slice(0, 4)) !== 1) {
    return { ok: false, problem: 'checksum', message: 'The check digits do not match: a character is mistyped.' };
  }
  return { ok: true, iban, country };
}

/** "HR1210010051863000160" → "HR12 1001 0051 8630 0016 0", the way banks print it. */
export function formatIban(iban: string): string {
  return normalizeIban(iban).replace(/(.{4})(?=.)/g, '$1 ');
}

export type BicResult = { ok: true; bic: string } | { ok: false; message: string };

/**
 * A BIC is 8 or 11 characters: bank (4 letters), country (2 letters), location (2), optional
 * branch (3). It has no check digit, so only the shape can be checked.
 */
export function validateBic(text: string): BicResult {
  const bic = text.trim().toUpperCase();
  if (!/^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(bic)) {
    return { ok: false, message: 'Must be a BIC of 8 or 11 characters, such as ZABAHR2X or ZABAHR2XXXX.' };
  }
  return { ok: true, bic };
}
