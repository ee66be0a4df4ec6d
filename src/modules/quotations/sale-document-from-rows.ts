import type { Company, LocationRow } from '../companies/index.ts';
import { createFormatter, resolveLanguage, translate } from '../i18n/index.ts';
import { totalsView, type DocumentLineRow, type SaleRow } from '../sales/index.ts';
import { paymentDetails } from './payment-details.ts';
import type { QuotationDocument } from './pdf/index.ts';
import { addressText, filledTemplate, printedLines } from './quotation-document-from-rows.ts';

/**
 * A sale as the one printer sees it: the quotation's neutral document model, titled as a sale,
 * naming its source document, with no validity date, the company's template filled and its
 * payment code for the sale's total. Taken only from stored rows. It lives beside the
 * quotation's model (the printer's home today) and reaches the sales service from the
 * composition root, so that sales, which quotations price with, does not depend back on them.
 */
export function toSaleDocument(row: SaleRow, lines: readonly DocumentLineRow[], company: Company, location: LocationRow): QuotationDocument {
  const pricesIncludeTax = Boolean(row.prices_include_tax);
  const totals = totalsView(lines);
  const format = createFormatter(company.locale, { currency: row.currency, timeZone: company.timezone });
  const title = translate(resolveLanguage(company.locale), 'document.sale');
  const totalMinor = Number(row.total_minor);
  const values = { number: row.number, total: format.money(totalMinor), dueDate: format.date(row.created_at), customerName: row.customer_name };
  return {
    kind: 'sale',
    source: { kind: row.source_type === 'order' ? 'order' : 'quotation', number: row.source_number },
    number: row.number,
    issuedAt: row.created_at,
    expiresAt: null,
    currency: row.currency,
    locale: company.locale,
    timezone: company.timezone,
    pricesIncludeTax,
    company: { name: company.name, address: addressText(company.address, company.country, company.locale), taxId: company.taxId },
    template: filledTemplate(company, values),
    location: { name: location.name, code: location.code, address: location.address },
    customer: { name: row.customer_name, email: row.customer_email, phone: row.customer_phone },
    note: row.note,
    lines: printedLines(lines, pricesIncludeTax),
    totals,
    payment: paymentDetails(company, { title, number: row.number, totalMinor }),
  };
}
