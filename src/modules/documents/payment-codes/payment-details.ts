import type { Company } from '../../companies/index.ts';
import { resolveLanguage, translate } from '../../i18n/index.ts';
import { choosePaymentCodes, type PaymentCodeKind } from './choose-payment-codes.ts';
import { buildEpcQrPayload } from './epc-qr.ts';
import { buildHub3Payload } from './hub3.ts';
import { documentReference, legalReference } from './payment-reference.ts';

/** How to pay a document, as its print shows it. */
export interface PaymentDetails {
  holder: string;
  /** Compact IBAN, "HR1210010051863000160". */
  iban: string;
  bic: string | null;
  /** What the payer writes as reference, e.g. the HUB-3 model and "poziv na broj". */
  reference: { model: string | null; value: string };
  /** Payloads of the codes a banking app scans; the printer draws them. */
  codes: Array<{ kind: PaymentCodeKind; payload: string }>;
}

/**
 * How a sales document is paid, for the print: the company's account, the reference, and the
 * codes a banking app scans to pay exactly the document's total with its number as reference
 * (choose-payment-codes.ts decides which). A Croatian slip carries the number as a "poziv na
 * broj" of model HR00 (payment-reference.ts); the EPC code carries it in its remittance text.
 * Null without a bank account.
 */
export function paymentDetails(
  company: Company,
  document: {
    title: string;
    /** The number the customer holds (an invoice's legal number): the description, and the reference's digits. */
    number: string;
    /** The year of issue of an invoice, whose legal number (`12/ZG1/1`) does not say it; absent for other documents. */
    legalYear?: number | null;
    totalMinor: number;
  },
): PaymentDetails | null {
  const account = company.bankAccount;
  if (!account) return null;
  const language = resolveLanguage(company.locale);
  const description = translate(language, 'print.payment.description', {
    title: document.title,
    number: document.number,
  });
  const codes: PaymentDetails['codes'] = [];
  let reference: PaymentDetails['reference'] = { model: null, value: document.number };
  for (const kind of choosePaymentCodes(
    { currency: company.currency, country: company.country, iban: account.iban },
    document.totalMinor,
  )) {
    if (kind === 'epc_qr') {
      codes.push({
        kind,
        payload: buildEpcQrPayload({
          iban: account.iban,
          bic: account.bic,
          beneficiaryName: account.holder,
          amountCents: document.totalMinor,
          remittanceText: description,
        }),
      });
    } else {
      const hr00 = hub3Reference(document.number, document.legalYear ?? null);
      if (hr00 === null) continue;
      const place = [company.address?.postalCode, company.address?.city].filter(Boolean).join(' ');
      codes.push({
        kind,
        payload: buildHub3Payload({
          amountCents: document.totalMinor,
          payer: null,
          recipient: { name: account.holder, street: company.address?.street ?? null, place },
          iban: account.iban,
          model: 'HR00',
          reference: hr00,
          description,
        }),
      });
      reference = { model: 'HR00', value: hr00 };
    }
  }
  return { holder: account.holder, iban: account.iban, bic: account.bic, reference, codes };
}

/**
 * The number as an HR00 reference (HUB, "Jedinstveni standard platnog naloga", Modeli poziva na
 * broj: HR00, up to three groups of digits, no check digit), or null for a number that has none
 * (it prints without the slip). An invoice's from its legal number, any other document's from its own.
 */
function hub3Reference(number: string, legalYear: number | null): string | null {
  try {
    return legalYear === null ? documentReference(number, 'HR00') : legalReference(number, legalYear, 'HR00');
  } catch {
    return null;
  }
}
