import { mod97 } from '../../../lib/iban.ts';

/**
 * Payment references a banking app copies into the transfer, so the shop can match the money to
 * the document:
 *
 * - ISO 11649 creditor reference ("RF" + 2 check digits + up to 21 letters or digits), the
 *   structured reference of the EPC QR code; its check digits are mod-97, as in an IBAN.
 * - The Croatian "poziv na broj" of the HUB-3 slip: a model (HR00, HR01, HR99, …) and up to
 *   22 characters of digit groups joined by hyphens. HR00 has no check; HR01 ends with a
 *   MOD 11 INI check digit over all its digits; HR99 carries no reference at all.
 */

/** ISO 11649: "RF" + check digits + the reference, for 1 to 21 letters and digits (separators dropped). */
export function creditorReference(reference: string): string {
  const body = reference.replace(/[^A-Za-z0-9]+/g, '').toUpperCase();
  if (body.length < 1 || body.length > 21)
    throw new RangeError(`a creditor reference holds 1 to 21 letters or digits: ${JSON.stringify(reference)}`);
  const check = 98 - mod97(`${body}RF00`);
  return `RF${String(check).padStart(2, '0')}${body}`;
}

export function isCreditorReference(text: string): boolean {
  const compact = text.replace(/\s+/g, '').toUpperCase();
  return /^RF\d{2}[A-Z0-9]{1,21}$/.test(compact) && mod97(compact.slice(4) + compact.slice(0, 4)) === 1;
}

/**
 * MOD 11 INI check digit of the Croatian payment models: weights 2, 3, 4, … from the rightmost
 * digit, remainder of the sum by 11, check = 11 − remainder, and 0 when that is 10 or 11.
 */
export function mod11IniCheckDigit(digits: string): number {
  if (!/^\d+$/.test(digits)) throw new RangeError(`not digits: ${JSON.stringify(digits)}`);
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += Number(digits[digits.length - 1 - i]) * (i + 2);
  const check = 11 - (sum % 11);
  return check >= 10 ? 0 : check;
}

export type ReferenceResult = { ok: true } | { ok: false; message: string };

/** Checks a "poziv na broj" against its model, for the models this product prints. */
export function checkHub3Reference(model: string, reference: string): ReferenceResult {
  if (!/^HR\d{2}$/.test(model)) return { ok: false, message: 'A model is "HR" and two digits, such as HR00 or HR01.' };
  if (model === 'HR99')
    return reference === '' ? { ok: true } : { ok: false, message: 'Model HR99 carries no reference.' };
  if (reference.length > 22) return { ok: false, message: 'A reference has at most 22 characters.' };
  if (!/^\d{1,12}(-\d{1,12}){0,2}$/.test(reference))
    return { ok: false, message: 'A reference is one to three groups of up to 12 digits joined by hyphens.' };
  if (model === 'HR01') {
    const digits = reference.replaceAll('-', '');
    if (digits.length < 2 || mod11IniCheckDigit(digits.slice(0, -1)) !== Number(digits.at(-1))) {
      return { ok: false, message: 'Model HR01 ends with a MOD 11 INI check digit, and this one does not match.' };
    }
  }
  return { ok: true };
}

/** Builds an HR01 reference: the groups as given, the check digit appended to the last group. */
export function hr01Reference(groups: readonly string[]): string {
  const joined = groups.join('-');
  return `${joined}${mod11IniCheckDigit(groups.join(''))}`;
}

/** Letters as digits the way an IBAN turns them (A = 10 … Z = 35). */
function asDigits(text: string): string {
  return [...text.toUpperCase()].map((c) => (c >= 'A' ? String(c.charCodeAt(0) - 55) : c)).join('');
}

/**
 * A "poziv na broj" that names one document of the company: `Q-ZG1-2026-00042` →
 * P1 = the kind and location code with letters turned into digits the way an IBAN does
 * (A = 10 … Z = 35; Q-ZG1 → 26 35 16 1), P2 = the year, P3 = the sequence, so every document
 * has its own reference and it can be read back. A revised quotation (`Q-ZG1-2026-00042-2`)
 * carries its revision after the year in P2 (`2026` + `2`: the year is always four digits), so
 * each revision the customer holds has a reference a bank accepts. A location code too long for
 * the 22 characters is left out (the description still carries the full number). With HR01 a
 * check digit follows.
 */
export function documentReference(documentNumber: string, model: 'HR00' | 'HR01'): string {
  const match = /^([A-Z])-([A-Z0-9]{1,10})-(\d{4})-(\d{1,12})(?:-(\d{1,3}))?$/.exec(documentNumber);
  if (!match) throw new RangeError(`not a document number: ${JSON.stringify(documentNumber)}`);
  const [, kind, location, year, sequence, revision] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
    string?,
  ];
  const period = year + (revision ?? '');
  const withLocation = asDigits(kind + location);
  const room = Math.min(12, 22 - period.length - sequence.length - 2 - (model === 'HR01' ? 1 : 0));
  const first = withLocation.length <= room ? withLocation : asDigits(kind);
  return joined([first, period, sequence], model, documentNumber);
}

/**
 * The "poziv na broj" of an invoice, made from its legal number, the one number that identifies
 * it: Croatia's `{sequence}/{premises}/{device}` of `year` → P1 = the sequence, P2 = the premises
 * label as digits (IBAN-style), P3 = the device label as digits followed by the year (four digits,
 * so the groups read back); elsewhere `{year}-{sequence}` → P1 = the sequence, P2 = the year.
 * A premises label too long for a group of 12 digits has no reference (the print goes without
 * the slip rather than with a reference two invoices could share).
 */
export function legalReference(legalNumber: string, year: number, model: 'HR00' | 'HR01'): string {
  const croatian = /^(\d{1,12})\/([A-Za-z0-9]{1,20})\/([A-Za-z0-9]{1,20})$/.exec(legalNumber);
  if (croatian) {
    const [, sequence, premises, device] = croatian as unknown as [string, string, string, string];
    return joined([sequence, asDigits(premises), asDigits(device) + String(year)], model, legalNumber);
  }
  const companyWide = /^(\d{4})-(\d{1,12})$/.exec(legalNumber);
  if (companyWide) return joined([companyWide[2]!, companyWide[1]!], model, legalNumber);
  throw new RangeError(`not a legal number: ${JSON.stringify(legalNumber)}`);
}

function joined(groups: string[], model: 'HR00' | 'HR01', of: string): string {
  if (groups.some((g) => g.length > 12)) throw new RangeError(`reference group too long for ${of}`);
  const reference = model === 'HR01' ? hr01Reference(groups) : groups.join('-');
  if (reference.length > 22) throw new RangeError(`reference too long for ${of}`);
  return reference;
}
