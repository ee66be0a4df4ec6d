import { formatMoney, formatRate, formatScaledTrimmed, QUANTITY_SCALE } from '../../lib/money.ts';
import type { Company, LocationRow } from '../companies/index.ts';
import type { QuotationDocument } from '../quotations/index.ts';
import type { DocumentLineRow } from './documents.repository.ts';
import { totalsView } from './sales-lines.ts';
import type { SaleRow } from './sales.repository.ts';

/**
 * A sale as the one printer sees it: the quotation's neutral document model, titled as a sale,
 * naming its source document, with no validity date. Taken only from stored rows.
 */
export function toSaleDocument(row: SaleRow, lines: readonly DocumentLineRow[], company: Company, location: LocationRow): QuotationDocument {
  const pricesIncludeTax = Boolean(row.prices_include_tax);
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
    company: { name: company.name, address: company.address, taxId: company.taxId },
    template: company.template,
    location: { name: location.name, code: location.code, address: location.address },
    customer: { name: row.customer_name, email: row.customer_email, phone: row.customer_phone },
    note: row.note,
    lines: lines.map((l) => ({
      position: l.position,
      productName: l.product_name,
      productCode: l.product_code,
      note: l.note,
      quantity: formatScaledTrimmed(l.quantity_milli, QUANTITY_SCALE),
      unitName: l.unit_name,
      unitPrice: formatMoney(l.unit_price_minor),
      taxRate: formatRate(l.tax_rate_bp),
      amount: formatMoney(pricesIncludeTax ? l.total_minor : l.net_minor),
    })),
    totals: totalsView(lines),
  };
}
