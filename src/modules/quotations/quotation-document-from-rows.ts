import { formatMoney, formatRate, formatScaledTrimmed, QUANTITY_SCALE } from '../../lib/money.ts';
import type { Company } from '../companies/index.ts';
import type { LocationRow } from '../companies/index.ts';
import { totalsView, type DocumentLineRow } from '../sales/index.ts';
import type { QuotationDocument } from './pdf/index.ts';
import type { QuotationRow } from './quotations.repository.ts';

/** What the print shows, taken only from stored rows (never from the clock or the live catalog). */
export function toQuotationDocument(row: QuotationRow, lines: readonly DocumentLineRow[], company: Company, location: LocationRow): QuotationDocument {
  const pricesIncludeTax = Boolean(row.prices_include_tax);
  const totals = totalsView(lines);
  return {
    number: row.number,
    issuedAt: row.created_at,
    expiresAt: row.expires_at,
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
    totals,
  };
}
