import type { Company, LocationRow } from '../companies/index.ts';
import { printedContent, type DocumentLineRow } from '../documents/index.ts';
import type { PrintDocument } from '../printing/index.ts';
import type { SaleRow } from './sales.repository.ts';

/**
 * A sale as the one printer sees it: titled as a sale, naming its source document, with no
 * validity date (`{dueDate}` in the template prints its date). Taken only from stored rows.
 */
export function toSalePrint(
  row: SaleRow,
  lines: readonly DocumentLineRow[],
  company: Company,
  location: LocationRow,
): PrintDocument {
  const customer = { name: row.customer_name, email: row.customer_email, phone: row.customer_phone };
  return {
    title: 'document.sale',
    number: row.number,
    source: { number: row.source_number },
    issuedAt: row.created_at,
    issuedLabel: 'print.date',
    dates: [],
    customer,
    note: row.note,
    ...printedContent(
      {
        title: 'document.sale',
        number: row.number,
        currency: row.currency,
        pricesIncludeTax: Boolean(row.prices_include_tax),
        totalMinor: Number(row.total_minor),
        dueDate: row.created_at,
        customerName: customer.name,
      },
      lines,
      company,
      location,
    ),
  };
}
