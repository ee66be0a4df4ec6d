import { AppError, addFieldError, fieldErrors } from '../../lib/errors.ts';
import { said } from '../i18n/index.ts';
import type { EInvoice } from './einvoice-model.ts';
import { kpdEntry } from './kpd.ts';

/**
 * What keeps a document from being a valid e-invoice for its profile, each named by the field
 * a person fixes (the company's profile, the customer, a product), checked before any XML is
 * written: a 409 names them all at once, and the hub shows the same list. Each check cites the
 * rule that needs it.
 */
export function missingFields(invoice: EInvoice, buyerKind: string): Record<string, string[]> {
  const details = fieldErrors();
  const hr = invoice.profile === 'hr-cius';
  const xr = invoice.profile === 'xrechnung';
  const seller = invoice.seller;
  // BR-S-02 / BR-E-02 (and BR-CO-26): the seller is identified by a VAT id or tax number.
  if (!seller.vatId && !seller.taxNumber && !seller.legalId)
    addFieldError(details, 'company.taxId', said('error.einvoice.sellerTaxId'));
  // BR-09 (seller country), BR-DE-3/4 (city, post code) for XRechnung.
  if (!seller.address?.country || (xr && (!seller.address.city || !seller.address.postalCode)))
    addFieldError(details, 'company.address', said('error.einvoice.sellerAddress'));
  // BR-DE-2/5/6/7: XRechnung's seller contact with name, phone and e-mail.
  if (xr && !(invoice.sellerContact?.name && invoice.sellerContact.phone && invoice.sellerContact.email))
    addFieldError(details, 'company.contact', said('error.einvoice.sellerContact'));
  // BR-11 (buyer country); BR-DE-8/9 for XRechnung.
  if (!invoice.buyer.address?.country) addFieldError(details, 'customer.address', said('error.einvoice.buyerAddress'));
  else if (xr && (!invoice.buyer.address.city || !invoice.buyer.address.postalCode))
    addFieldError(details, 'customer.address', said('error.einvoice.buyerCityPostcode'));
  // A business buyer is identified by its tax id; HR-BR-S-1 / HR-BR-E-1 ask every Croatian
  // e-invoice for the buyer's VAT id (BT-48), and HR-BR-10 for its electronic address, the OIB.
  if ((buyerKind === 'business' || hr) && !invoice.buyer.vatId && !invoice.buyer.taxNumber)
    addFieldError(details, 'customer.taxId', said('error.einvoice.buyerTaxId'));
  if (hr) {
    // HR-BR-37, HR-BR-8: the operator and the operator's OIB.
    if (!invoice.sellerContact?.name || !invoice.sellerContact.id)
      addFieldError(details, 'operator', said('error.einvoice.operator'));
    // HR-BR-25: every item has a KPD code with list id CG (a credit note, 381, may leave it out).
    if (invoice.typeCode !== '381')
      for (const line of invoice.lines)
        if (!line.classification)
          addFieldError(
            details,
            `lines[${Number(line.id) - 1}].classificationCode`,
            said('error.einvoice.kpd', { position: line.id, product: line.name }),
          );
        // Zakon o fiskalizaciji art. 42: the code is one of the official KPD 2025 list, not merely well formed.
        else if (!kpdEntry(line.classification))
          addFieldError(
            details,
            `lines[${Number(line.id) - 1}].classificationCode`,
            said('error.einvoice.kpdUnknown', { position: line.id, product: line.name, code: line.classification }),
          );
    // HR-BR-4: a positive amount due has a due date (a credit note's amount counts as negative).
    if (invoice.typeCode !== '381' && invoice.totals.payable > 0 && !invoice.dueDate)
      addFieldError(details, 'dueDate', said('error.einvoice.dueDate'));
  }
  // BR-E-10 (and HR-BR-36): an exempt rate states why.
  if (invoice.taxes.some((t) => t.category === 'E' && !t.exemptionReason))
    addFieldError(details, 'taxRates.exemptionReason', said('error.einvoice.exemption'));
  return details;
}

/** The 409 that names every missing field, or nothing. */
export function assertReady(invoice: EInvoice, buyerKind: string): void {
  const details = missingFields(invoice, buyerKind);
  const count = Object.keys(details).length;
  if (count > 0)
    throw new AppError('conflict', said('error.einvoice.missing', { profile: invoice.profile, count }), details);
}
