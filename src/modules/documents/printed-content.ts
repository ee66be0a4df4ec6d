import { formatMoney, formatRate, formatScaledTrimmed, QUANTITY_SCALE } from '../../lib/money.ts';
import { fillPrintTemplate, type Company, type CompanyAddress, type LocationRow } from '../companies/index.ts';
import { createFormatter, resolveLanguage, translate, type MessageArgs, type MessageKey } from '../i18n/index.ts';
import type { DocumentLineRow } from './types.ts';
import { paymentDetails, type PaymentDetails } from './payment-codes/payment-details.ts';
import { priceLine } from './pricing.ts';
import { totalsView, type TotalsView } from './priced-lines.ts';

/** A message without placeholders. */
type PlainMessage = { [K in MessageKey]: MessageArgs<K> extends [] ? K : never }[MessageKey];

/** What the message catalog calls a kind of sales document ("document.quotation", "document.sale", ...). */
export type DocumentTitle = Exclude<Extract<PlainMessage, `document.${string}`>, 'document.titleWithNumber'>;

/** What a stored sales document's row says that its printed content depends on. */
export interface StoredDocument {
  title: DocumentTitle;
  number: string;
  currency: string;
  pricesIncludeTax: boolean;
  totalMinor: number;
  /** The date `{dueDate}` in the print template prints: a quotation's validity end, a sale's date. */
  dueDate: string;
  customerName: string;
  /** An invoice's year of issue: its payment reference is made from its legal number (`number`) and this year. */
  paymentYear?: number | null;
}

/**
 * What every printed sales document shows the same way, whatever its kind: the company's
 * header, its print template filled with this document's values, the location, the stored lines
 * and totals, and how to pay the total. Each kind's module adds its title, number, dates and
 * parties and hands the whole to the printer.
 */
export interface PrintedContent {
  currency: string;
  locale: string;
  timezone: string;
  pricesIncludeTax: boolean;
  company: { name: string; address: string | null; taxId: string | null };
  /** The seller's tax ids under what its country calls them ("OIB" and "PDV ID" in Croatia). */
  sellerIds?: Array<{ label: SellerIdLabel; value: string }>;
  template: { header: string | null; footer: string | null; paymentInstructions: string | null };
  location: { name: string; code: string; address: string | null };
  lines: PrintedLine[];
  totals: TotalsView;
  payment: PaymentDetails | null;
}

/** A stored line as printed: decimal strings, the amount net, or gross when prices include tax. */
export interface PrintedLine {
  /** 1-based. */
  position: number;
  productName: string;
  /** SKU. */
  productCode: string | null;
  /** Printed beneath the product name. */
  note: string | null;
  /** Decimal string, up to 3 places, e.g. "1.5". */
  quantity: string;
  /** e.g. "kom", "L", "m²". */
  unitName: string;
  /** Decimal string in currency units, e.g. "12.40". */
  unitPrice: string;
  /** Percent as decimal string, e.g. "25" or "9.5". */
  taxRate: string;
  /** Line amount (gross if pricesIncludeTax else net), decimal string, after the discount. */
  amount: string;
  /** Percent off the line ("10", "12.5"); null when none. */
  discount?: string | null;
  /**
   * What the discount took off, decimal string, never negative, in the amount's basis: the line
   * priced without its discount minus its amount. Net prices: the e-invoice's line allowance (BT-136).
   */
  discountAmount?: string | null;
}

/** The printed content of a stored document, taken only from stored rows (never from the clock or the live catalog). */
export function printedContent(
  document: StoredDocument,
  lines: readonly DocumentLineRow[],
  company: Company,
  location: LocationRow,
): PrintedContent {
  const format = createFormatter(company.locale, {
    currency: document.currency,
    timeZone: company.timezone,
    dates: 'numeric',
  });
  const title = translate(resolveLanguage(company.locale), document.title);
  const payment = paymentDetails(company, {
    title,
    number: document.number,
    legalYear: document.paymentYear ?? null,
    totalMinor: document.totalMinor,
  });
  // `{reference}` prints the payment reference exactly as the payment codes carry it.
  const reference = payment
    ? [payment.reference.model, payment.reference.value].filter(Boolean).join(' ')
    : document.number;
  const values = {
    number: document.number,
    total: format.money(document.totalMinor),
    dueDate: format.date(document.dueDate),
    customerName: document.customerName,
    reference,
  };
  return {
    currency: document.currency,
    locale: company.locale,
    timezone: company.timezone,
    pricesIncludeTax: document.pricesIncludeTax,
    company: {
      name: company.name,
      address: addressText(company.address, company.country, company.locale),
      taxId: company.taxId,
    },
    sellerIds: sellerIds(company),
    template: {
      header: fillPrintTemplate(company.template.header, values),
      footer: fillPrintTemplate(company.template.footer, values),
      paymentInstructions: fillPrintTemplate(company.template.paymentInstructions, values),
    },
    location: { name: location.name, code: location.code, address: location.address },
    lines: printedLines(lines, document.pricesIncludeTax),
    totals: totalsView(lines),
    payment,
  };
}

type SellerIdLabel = 'print.oib' | 'print.vatId' | 'print.taxNumber' | 'print.taxId';

/**
 * The seller's ids under their legal names, on every printed document (a quotation too). Croatia:
 * the OIB (11 digits, never with "HR") and, when in the VAT system, the VAT id (HR + OIB)
 * separately. Germany: the USt-IdNr. (DE…) or the Steuernummer, whichever the profile holds.
 * Elsewhere a VAT id (two letters first) as a VAT id, anything else as a tax id.
 */
function sellerIds(company: Company): Array<{ label: SellerIdLabel; value: string }> {
  const taxId = company.taxId;
  if (!taxId) return [];
  if (company.country === 'HR') {
    const oib = taxId.replace(/^HR/, '');
    const ids: Array<{ label: SellerIdLabel; value: string }> = [{ label: 'print.oib', value: oib }];
    if (company.fiscal.vatRegistered) ids.push({ label: 'print.vatId', value: `HR${oib}` });
    return ids;
  }
  if (company.country === 'DE')
    return [{ label: /^DE\d{9}$/.test(taxId) ? 'print.vatId' : 'print.taxNumber', value: taxId }];
  return [{ label: /^[A-Z]{2}[0-9A-Z]{2,}$/.test(taxId) ? 'print.vatId' : 'print.taxId', value: taxId }];
}

function printedLines(lines: readonly DocumentLineRow[], pricesIncludeTax: boolean): PrintedLine[] {
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
    discount: l.discount_bp ? formatRate(l.discount_bp) : null,
    discountAmount: l.discount_bp ? formatMoney(Math.abs(listAmount(l, pricesIncludeTax))) : null,
  }));
}

/** The line's list amount (priced without its discount, as pricing.ts priced it) minus its stored amount. */
function listAmount(l: DocumentLineRow, pricesIncludeTax: boolean): number {
  const list = priceLine(
    { unitPriceMinor: l.unit_price_minor, quantityMilli: l.quantity_milli, taxRateBp: l.tax_rate_bp },
    pricesIncludeTax,
  );
  return pricesIncludeTax ? list.total - l.total_minor : list.net - l.net_minor;
}

/** "Ilica 242, 10000 Zagreb, Hrvatska": the company's address on one line of the print's header, the country named in its language. */
function addressText(address: CompanyAddress | null, country: string | null, locale: string): string | null {
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
