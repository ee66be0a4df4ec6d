import { formatMoney, formatRate, formatScaledTrimmed, QUANTITY_SCALE } from '../../lib/money.ts';
import { fillPrintTemplate, type Company, type CompanyAddress, type LocationRow } from '../companies/index.ts';
import { createFormatter, resolveLanguage, translate } from '../i18n/index.ts';
import { paymentDetails, totalsView, type DocumentLineRow } from '../documents/index.ts';
import type { QuotationDocument } from './pdf/index.ts';
import type { QuotationRow } from './quotations.repository.ts';

/** What the print shows of a quotation, taken only from stored rows (never from the clock or the live catalog). */
export function toQuotationDocument(
  row: QuotationRow,
  lines: readonly DocumentLineRow[],
  company: Company,
  location: LocationRow,
): QuotationDocument {
  return printedDocument(
    {
      kind: 'quotation',
      source: null,
      number: row.number,
      issuedAt: row.created_at,
      expiresAt: row.expires_at,
      dueDate: row.expires_at,
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

/** What a stored sales document's row says about its print: the parts its kind decides. */
export interface PrintedHead {
  kind: QuotationDocument['kind'];
  source: NonNullable<QuotationDocument['source']> | null;
  number: string;
  issuedAt: string;
  expiresAt: string | null;
  /** The date `{dueDate}` prints: a quotation's validity end, a sale's date. */
  dueDate: string;
  currency: string;
  pricesIncludeTax: boolean;
  totalMinor: number;
  customer: QuotationDocument['customer'];
  note: string | null;
}

/**
 * The one print model of every sales document: the company's header, its template filled with
 * this document's values, the stored lines and totals, and the payment code for the total.
 */
export function printedDocument(
  head: PrintedHead,
  lines: readonly DocumentLineRow[],
  company: Company,
  location: LocationRow,
): QuotationDocument {
  const format = createFormatter(company.locale, { currency: head.currency, timeZone: company.timezone });
  const title = translate(
    resolveLanguage(company.locale),
    head.kind === 'sale' ? 'document.sale' : 'document.quotation',
  );
  const values = {
    number: head.number,
    total: format.money(head.totalMinor),
    dueDate: format.date(head.dueDate),
    customerName: head.customer.name,
  };
  return {
    kind: head.kind,
    ...(head.source ? { source: head.source } : {}),
    number: head.number,
    issuedAt: head.issuedAt,
    expiresAt: head.expiresAt,
    currency: head.currency,
    locale: company.locale,
    timezone: company.timezone,
    pricesIncludeTax: head.pricesIncludeTax,
    company: {
      name: company.name,
      address: addressText(company.address, company.country, company.locale),
      taxId: company.taxId,
    },
    template: filledTemplate(company, values),
    location: { name: location.name, code: location.code, address: location.address },
    customer: head.customer,
    note: head.note,
    lines: printedLines(lines, head.pricesIncludeTax),
    totals: totalsView(lines),
    payment: paymentDetails(company, { title, number: head.number, totalMinor: head.totalMinor }),
  };
}

/** The company's print template with one document's values in its placeholders. */
function filledTemplate(
  company: Company,
  values: Parameters<typeof fillPrintTemplate>[1],
): QuotationDocument['template'] {
  return {
    header: fillPrintTemplate(company.template.header, values),
    footer: fillPrintTemplate(company.template.footer, values),
    paymentInstructions: fillPrintTemplate(company.template.paymentInstructions, values),
  };
}

/** Stored lines as the print shows them: the amount is net, or gross when prices include tax. */
function printedLines(lines: readonly DocumentLineRow[], pricesIncludeTax: boolean): QuotationDocument['lines'] {
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
