import { validateIban } from '../../../lib/iban.ts';
import { checkHub3Reference } from './payment-reference.ts';

/**
 * The Croatian HUB-3 payment barcode (Hrvatska udruga banaka, "HUB 3A obrazac – specifikacija
 * PDF417 barkoda", version 6 for EUR): a PDF417 symbol whose text is 14 fields in a fixed order,
 * each followed by a line feed (the last one too), UTF-8, lengths in characters:
 *
 *   1 header "HRVHUB30" (8)      6 payer postcode and place (27)       11 model, "HR" + 2 digits (4)
 *   2 currency "EUR" (3)         7 recipient name (25)                 12 reference, "poziv na broj" (22)
 *   3 amount, cents, 15 digits   8 recipient street (25)               13 purpose code (4)
 *   4 payer name (30)            9 recipient postcode and place (27)   14 description (35)
 *   5 payer street (27)         10 recipient IBAN (21)
 *
 * Text is limited to digits, the Croatian alphabet with Q W X Y, space and , . : - + ? ' / ( );
 * other letters lose their accents (é → e) and other signs become spaces, and each field is cut
 * to its length, as the specification says text longer than a field is cut. The IBAN field holds
 * a Croatian IBAN (21 characters); other IBANs do not fit.
 *
 * The symbol, per the same recommendation: PDF417, 9 data columns, error correction level 4,
 * row height 3 × module width, module 0.254 mm, at most 58 × 26 mm. Nine columns are 222 modules
 * (56.4 mm) across whatever the text; the height grows with it, and a slip of ordinary text stays
 * under 26 mm, but every Croatian letter takes two bytes, so a slip full of them needs more rows:
 * the printer then fits the image into the 58 × 26 mm box (a smaller module) rather than let it grow.
 * The symbol is drawn by printing (src/modules/printing/payment-codes/render-payment-code.ts).
 */

export interface Hub3Party {
  name: string;
  street?: string | null;
  /** Postcode and place, "10000 Zagreb". */
  place?: string | null;
}

export interface Hub3Input {
  amountCents: number;
  /** Left empty on a quotation for anyone to pay; the customer on a sale. */
  payer?: Hub3Party | null;
  recipient: Hub3Party;
  iban: string;
  model: string;
  reference: string;
  /** ISO 20022 purpose code; OTHR when not given. */
  purposeCode?: string | null;
  description: string;
}

const MAX_AMOUNT_CENTS = 999_999_999_999_999;

/** Builds the payload. Throws RangeError for what no slip can carry (amount, IBAN, model or reference); texts are cleaned and cut. */
export function buildHub3Payload(input: Hub3Input): string {
  if (!Number.isSafeInteger(input.amountCents) || input.amountCents < 0 || input.amountCents > MAX_AMOUNT_CENTS) {
    throw new RangeError(`amountCents: ${input.amountCents} does not fit 15 digits of cents`);
  }
  const iban = validateIban(input.iban);
  if (!iban.ok) throw new RangeError(`iban: ${iban.message}`);
  if (iban.iban.length > 21)
    throw new RangeError(`iban: a HUB-3 slip holds 21 characters, ${iban.iban} has ${iban.iban.length}`);
  const reference = input.reference.trim();
  const checked = checkHub3Reference(input.model, reference);
  if (!checked.ok) throw new RangeError(`reference: ${checked.message}`);
  const purpose = (input.purposeCode?.trim() || 'OTHR').toUpperCase();
  if (!/^[A-Z]{4}$/.test(purpose))
    throw new RangeError(`purposeCode: ${JSON.stringify(input.purposeCode)} is not a purpose code`);
  const recipientName = field(input.recipient.name, 25);
  if (recipientName === '') throw new RangeError('recipient.name: must not be empty');

  const fields = [
    'HRVHUB30',
    'EUR',
    String(input.amountCents).padStart(15, '0'),
    field(input.payer?.name, 30),
    field(input.payer?.street, 27),
    field(input.payer?.place, 27),
    recipientName,
    field(input.recipient.street, 25),
    field(input.recipient.place, 27),
    iban.iban,
    input.model,
    reference,
    purpose,
    field(input.description, 35),
  ];
  return fields.map((f) => `${f}\n`).join('');
}

const CROATIAN_LETTERS = 'čćđšžČĆĐŠŽ';

/** Keeps what a HUB-3 field may hold and cuts it to `max` characters. */
export function field(text: string | null | undefined, max: number): string {
  if (!text) return '';
  let out = '';
  for (const char of text.normalize('NFC')) {
    if (CROATIAN_LETTERS.includes(char) || /[A-Za-z0-9 ,.:\-+?'/()]/.test(char)) out += char;
    else {
      const bare = char.normalize('NFKD').replace(/\p{M}+/gu, '');
      out += /^[A-Za-z]+$/.test(bare) ? bare : char === 'ß' ? 'ss' : ' ';
    }
  }
  return [...out.replace(/\s+/g, ' ').trim()].slice(0, max).join('').trimEnd();
}
