import type { Company, LocationRow } from '../companies/index.ts';
import { printedContent, type DocumentLineRow } from '../documents/index.ts';
import type { PrintDocument } from '../printing/index.ts';
import { resolveLanguage, translate } from '../i18n/index.ts';
import type { QuotationRow } from './quotations.repository.ts';

/** What a quotation's print says of it: the kernel's printed content, titled as a quotation, valid until its expiry. */
export interface PrintedQuotation {
  number: string;
  issuedAt: string;
  expiresAt: string;
  currency: string;
  pricesIncludeTax: boolean;
  totalMinor: number;
  customer: PrintDocument['customer'];
  note: string | null;
}

/** What the print shows of a quotation, taken only from stored rows (never from the clock or the live catalog). */
export function toQuotationPrint(
  row: QuotationRow,
  lines: readonly DocumentLineRow[],
  company: Company,
  location: LocationRow,
): PrintDocument {
  return quotationPrint(
    {
      number: row.number,
      // A revision is issued when it is made.
      issuedAt: row.revised_at ?? row.created_at,
      expiresAt: row.expires_at,
      currency: row.currency,
      pricesIncludeTax: Boolean(row.prices_include_tax),
      totalMinor: Number(row.total_minor),
      customer: { name: row.customer_name, email: row.customer_email, phone: row.customer_phone },
      note: row.note,
    },
    lines,
    company,
    location,
  );
}

/** A quotation as the printer sees it: `{dueDate}` in the template prints its validity end. */
export function quotationPrint(
  quotation: PrintedQuotation,
  lines: readonly DocumentLineRow[],
  company: Company,
  location: LocationRow,
): PrintDocument {
  const content = printedContent(
    {
      title: 'document.quotation',
      number: quotation.number,
      currency: quotation.currency,
      pricesIncludeTax: quotation.pricesIncludeTax,
      totalMinor: quotation.totalMinor,
      dueDate: quotation.expiresAt,
      customerName: quotation.customer.name,
    },
    lines,
    company,
    location,
  );
  // Zakon o fiskalizaciji (NN 89/2025) čl. 29: a document issued before the invoice that states
  // payment data (the bank account and payment codes, or the payment instructions) must show
  // »OVO NIJE FISKALIZIRANI RAČUN«, in those words, whatever language the rest is printed in.
  const paymentData = content.payment !== null || Boolean(content.template.paymentInstructions);
  const notices =
    company.country === 'HR' && paymentData ? [translate(resolveLanguage(company.locale), 'print.notFiscalised')] : [];
  return {
    title: 'document.quotation',
    number: quotation.number,
    issuedAt: quotation.issuedAt,
    issuedLabel: 'print.issued',
    dates: [{ label: 'print.validUntil', at: quotation.expiresAt }],
    customer: quotation.customer,
    note: quotation.note,
    ...content,
    notices,
  };
}
