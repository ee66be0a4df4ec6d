import type { Company, LocationRow } from '../companies/index.ts';
import type { DocumentLineRow } from '../documents/index.ts';
import type { SaleRow } from '../sales/index.ts';
import type { QuotationDocument } from './pdf/index.ts';
import { printedDocument } from './quotation-document-from-rows.ts';

/**
 * A sale as the one printer sees it: titled as a sale, naming its source document, with no
 * validity date (`{dueDate}` prints its date). Taken only from stored rows. It lives beside the
 * quotation's model (the printer's home today) and reaches the sales service from the
 * composition root, so that sales, which quotations price with, does not depend back on them.
 */
export function toSaleDocument(
  row: SaleRow,
  lines: readonly DocumentLineRow[],
  company: Company,
  location: LocationRow,
): QuotationDocument {
  return printedDocument(
    {
      kind: 'sale',
      source: { kind: row.source_type === 'order' ? 'order' : 'quotation', number: row.source_number },
      number: row.number,
      issuedAt: row.created_at,
      expiresAt: null,
      dueDate: row.created_at,
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
