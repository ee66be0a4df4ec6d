import { validateIban } from '../../../lib/iban.ts';

export type PaymentCodeKind = 'epc_qr' | 'hub3_pdf417';

/**
 * Which codes a document of this company carries: the EPC QR code for an account in EUR (it
 * starts a SEPA credit transfer, which is in euro only), and for a Croatian company also the
 * HUB-3 barcode Croatian banking apps read, when its IBAN fits the slip (a Croatian one).
 * A document with nothing to pay carries none.
 */
export function choosePaymentCodes(
  company: { currency: string; country: string | null; iban: string | null },
  amountCents: number,
): PaymentCodeKind[] {
  if (!company.iban || amountCents <= 0 || company.currency !== 'EUR') return [];
  const iban = validateIban(company.iban);
  if (!iban.ok) return [];
  const codes: PaymentCodeKind[] = ['epc_qr'];
  if (company.country?.toUpperCase() === 'HR' && iban.country === 'HR') codes.push('hub3_pdf417');
  return codes;
}
