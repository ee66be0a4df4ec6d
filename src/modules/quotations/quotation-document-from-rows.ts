import { formatMoney, formatRate, formatScaledTrimmed, QUANTITY_SCALE } from '../../lib/money.ts';
import { fillPrintTemplate, type Company, type CompanyAddress, type LocationRow } from '../companies/index.ts';
import { createFormatter, resolveLanguage, translate } from '../i18n/index.ts';
import { totalsView, type DocumentLineRow } from '../sales/index.ts';
import { paymentDetails } from './payment-details.ts';
import type { QuotationDocument } from './pdf/index.ts';
import type { QuotationRow } from './quotations.repository.ts';

/** What the print shows, taken only from stored rows (never from the clock or the live catalog). */
export function toQuotationDocument(row: QuotationRow, lines: readonly DocumentLineRow[], company: Company, location: LocationRow): QuotationDocument {
  const pricesIncludeTax = Boolean(row.prices_include_tax);
  const totals = totalsView(lines);
  const format = createFormatter(company.locale, { currency: row.currency, timeZone: company.timezone });
  const title = translate(resolveLanguage(company.locale), 'document.quotation');
  const totalMinor = Number(row.total_minor);
  const values = { number: row.number, total: format.money(totalMinor), dueDate: format.date(row.expires_at), customerName: row.customer_name };
  return {
    kind: 'quotation',
    number: row.number,
    issuedAt: row.created_at,
    expiresAt: row.expires_at,
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

/** The company's print template with one document's values in its placeholders. */
export function filledTemplate(company: Company, values: Parameters<typeof fillPrintTemplate>[1]): QuotationDocument['template'] {
  return {
    header: fillPrintTemplate(company.template.header, values),
    footer: fillPrintTemplate(company.template.footer, values),
    paymentInstructions: fillPrintTemplate(company.template.paymentInstructions, values),
  };
}

/** Stored lines as the print shows them: the amount is net, or gross when prices include tax. */
export function printedLines(lines: readonly DocumentLineRow[], pricesIncludeTax: boolean): QuotationDocument['lines'] {
  return lines.map((l) => ({
    position: l.position,
    productName: l.product_name,
    productCode: l.product_code,
    note: l.note,
    quantity: formatScaledTrimmed(l.quantity_milli, QUANTITY_SCALE),
    unitName: l.unit_name,
    unitPrice: formatMoney(l.unit_price_minor),
    taxRate: formatRate(l.tax_rate_bp),
    amount: formatMoney(pricesIncludeTax ? l.total_minor : l.net_minor),
  }));
}

/** "Ilica 242, 10000 Zagreb, Hrvatska": the company's address on one line of the print's header, the country named in its language. */
export function addressText(address: CompanyAddress | null, country: string | null, locale: string): string | null {
  if (!address) return null;
  const place = [address.postalCode, address.city].filter(Boolean).join(' ');
  return [address.street, place, country === null ? null : countryName(country, locale)].filter(Boolean).join(', ');
}

function countryName(country: string, locale: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: 'region' }).of(country) ?? country;
  } catch {
    return country;
  }
}
