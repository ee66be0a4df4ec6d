import { validateBic, validateIban } from '../../../lib/iban.ts';
import { isCreditorReference } from './payment-reference.ts';

/**
 * The EPC QR code ("GiroCode"), European Payments Council guideline EPC069-12, version 002: a
 * QR code (error correction M) whose text is up to 12 elements separated by line feeds:
 *
 *   1 service tag "BCD"            5 BIC (optional in version 002)   9 purpose code (4, optional)
 *   2 version "002"                6 beneficiary name (≤ 70)         10 structured reference (≤ 35, ISO 11649)
 *   3 character set "1" (UTF-8)    7 IBAN                            11 or unstructured remittance text (≤ 140)
 *   4 identification "SCT"         8 "EUR" + amount, 0.01…999999999.99   12 information for the payer (≤ 70)
 *
 * Elements 10 and 11 exclude each other; nothing follows the last element given; the whole
 * payload is at most 331 bytes, which keeps the symbol at QR version 13 or below.
 */

export interface EpcQrInput {
  iban: string;
  bic?: string | null;
  beneficiaryName: string;
  /** Cents of EUR, 1 … 99 999 999 999. */
  amountCents: number;
  purpose?: string | null;
  /** An ISO 11649 creditor reference (RF…). */
  creditorReference?: string | null;
  /** Free text shown to the payer as the transfer's description. */
  remittanceText?: string | null;
  information?: string | null;
}

export const EPC_QR_MAX_BYTES = 331;
const MAX_AMOUNT_CENTS = 99_999_999_999;

/** Builds the payload. Throws RangeError when the account or amount cannot be paid; free texts are cut to their limits. */
export function buildEpcQrPayload(input: EpcQrInput): string {
  const iban = validateIban(input.iban);
  if (!iban.ok) throw new RangeError(`iban: ${iban.message}`);
  let bic = '';
  if (input.bic) {
    const checked = validateBic(input.bic);
    if (!checked.ok) throw new RangeError(`bic: ${checked.message}`);
    bic = checked.bic;
  }
  if (!Number.isSafeInteger(input.amountCents) || input.amountCents < 1 || input.amountCents > MAX_AMOUNT_CENTS) {
    throw new RangeError(`amountCents: ${input.amountCents} is outside 0.01 … 999999999.99 EUR`);
  }
  const name = clip(input.beneficiaryName, 70);
  if (name === '') throw new RangeError('beneficiaryName: must not be empty');
  const purpose = input.purpose?.trim().toUpperCase() ?? '';
  if (purpose !== '' && !/^[A-Z0-9]{1,4}$/.test(purpose))
    throw new RangeError(`purpose: ${JSON.stringify(input.purpose)} is not a purpose code`);
  const structured = input.creditorReference?.replace(/\s+/g, '').toUpperCase() ?? '';
  if (structured !== '' && !isCreditorReference(structured))
    throw new RangeError(`creditorReference: ${JSON.stringify(input.creditorReference)} is not an ISO 11649 reference`);
  const text = clip(input.remittanceText ?? '', 140);
  if (structured !== '' && text !== '')
    throw new RangeError('a structured reference and remittance text exclude each other');

  const elements = [
    'BCD',
    '002',
    '1',
    'SCT',
    bic,
    name,
    iban.iban,
    `EUR${euros(input.amountCents)}`,
    purpose,
    structured,
    text,
    clip(input.information ?? '', 70),
  ];
  while (elements.at(-1) === '') elements.pop();
  const payload = elements.join('\n');
  if (Buffer.byteLength(payload, 'utf8') > EPC_QR_MAX_BYTES)
    throw new RangeError(`the payload has more than ${EPC_QR_MAX_BYTES} bytes`);
  return payload;
}

/** 1240 → "12.40": the guideline's format, a dot and two decimals. */
function euros(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** One line of text within `max` characters: line breaks would start a new element. */
function clip(text: string, max: number): string {
  const flat = text
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/\s{2,}/g, ' ')
    .trim();
  return [...flat].slice(0, max).join('').trimEnd();
}
