import { AppError, addFieldError, addFieldErrors, type FieldErrors } from '../../lib/errors.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import {
  formatMoney,
  formatRate,
  formatScaledTrimmed,
  numberToScaled,
  parseScaled,
  QUANTITY_SCALE,
  RATE_SCALE,
} from '../../lib/money.ts';
import type { Company } from '../companies/index.ts';
import { said } from '../i18n/index.ts';
import type { DocumentLineRow } from './types.ts';
import { MAX_DISCOUNT_BP, priceLine, summarize, type DocumentTotals } from './pricing.ts';
import { apportionLines } from './tax-summary.ts';

/** One requested line of a quotation or an order, after the HTTP layer has normalised aliases. */
export interface LineRequest {
  productId: string;
  unitId: string;
  /** A JSON number as sent, or decimal text (the API takes both; text is parsed exactly). */
  quantity: number | string;
  note?: string | null;
  /** Percent off the line, 0 to 100 with at most two decimals (the hub and admin API only). */
  discountPercent?: number;
}

/** A requested line resolved against the catalog: the product, unit and prices pricing needs. */
export interface ResolvedLine {
  productId: string;
  unitId: string;
  productName: string;
  productCode: string | null;
  unitName: string;
  unitPriceMinor: number;
  taxRateBp: number;
}

/**
 * Resolves requested lines (for one company, against its catalog and scope): the company, which
 * decides how prices are read, and each line's product and prices, in order. A bad line is an
 * AppError whose details name it (`lines[i].productId`, ...).
 */
export type ResolveLines = (
  lines: readonly LineRequest[],
) => Promise<{ company: Company; lines: readonly ResolvedLine[] }>;

export interface PricedLine extends ResolvedLine {
  quantityMilli: number;
  discountBp: number;
  net: number;
  tax: number;
  total: number;
  note: string | null;
}

const MAX_QUANTITY_MILLI = 1_000_000_000_000n; // one billion units: beyond any real order

/** Quantities must be positive with at most three decimals; every offending line is named in `details`. */
export function parseQuantities(lines: readonly LineRequest[], details: FieldErrors): number[] {
  return lines.map((line, i) => {
    try {
      const milli =
        typeof line.quantity === 'string'
          ? parseScaled(line.quantity, QUANTITY_SCALE)
          : numberToScaled(line.quantity, QUANTITY_SCALE);
      if (milli <= 0n) addFieldError(details, `lines[${i}].quantity`, said('error.greaterThanZero'));
      else if (milli > MAX_QUANTITY_MILLI) addFieldError(details, `lines[${i}].quantity`, said('error.tooLarge'));
      return Number(milli);
    } catch {
      addFieldError(details, `lines[${i}].quantity`, said('error.quantity.form'));
      return 0;
    }
  });
}

/** Discounts are percents from 0 to 100 with at most two decimals, as basis points. */
export function parseDiscounts(lines: readonly LineRequest[], details: FieldErrors): number[] {
  return lines.map((line, i) => {
    if (line.discountPercent === undefined) return 0;
    try {
      const bp = numberToScaled(line.discountPercent, RATE_SCALE);
      if (bp < 0n || bp > BigInt(MAX_DISCOUNT_BP))
        addFieldError(details, `lines[${i}].discountPercent`, said('error.discount.range'));
      return Number(bp);
    } catch {
      addFieldError(details, `lines[${i}].discountPercent`, said('error.discount.form'));
      return 0;
    }
  });
}

/**
 * Validates, resolves (through `resolve`: the catalog and its scope) and prices every line: each line rounded
 * once, then the tax computed once per rate on the summed lines and shared out over them
 * (tax-summary.ts), so the stored lines add up to the printed summary. `details` may carry
 * the caller's own findings (a past expiry, say): the client hears about every bad field at once.
 */
export async function priceLines(
  resolve: ResolveLines,
  lines: readonly LineRequest[],
  details: FieldErrors = {},
): Promise<{ company: Company; lines: PricedLine[]; totals: DocumentTotals }> {
  const quantities = parseQuantities(lines, details);
  const discounts = parseDiscounts(lines, details);
  let resolved: Awaited<ReturnType<ResolveLines>>;
  try {
    resolved = await resolve(lines);
  } catch (error) {
    if (error instanceof AppError && error.details) {
      addFieldErrors(details, error);
      throw AppError.invalid(details, error.said());
    }
    throw error;
  }
  if (Object.keys(details).length > 0) throw AppError.invalid(details);
  const priced = resolved.lines.map((line, i): PricedLine => {
    const quantityMilli = quantities[i]!;
    const discountBp = discounts[i]!;
    const amounts = priceLine(
      { unitPriceMinor: line.unitPriceMinor, quantityMilli, taxRateBp: line.taxRateBp, discountBp },
      resolved.company.pricesIncludeTax,
    );
    if (!Number.isSafeInteger(amounts.total))
      addFieldError(details, `lines[${i}].quantity`, said('error.line.amountTooLarge'));
    return { ...line, quantityMilli, discountBp, ...amounts, note: lines[i]!.note ?? null };
  });
  if (Object.keys(details).length > 0) throw AppError.invalid(details);
  let apportioned: ReturnType<typeof apportionLines>;
  try {
    apportioned = apportionLines(priced, resolved.company.pricesIncludeTax);
  } catch (error) {
    // Amounts are integers of cents; past 2^53 they would silently lose cents.
    if (error instanceof RangeError) {
      addFieldError(details, 'lines', said('error.total.tooLarge'));
      throw AppError.invalid(details);
    }
    throw error;
  }
  const shared = priced.map((line, i) => ({ ...line, ...apportioned[i]! }));
  const totals = summarize(shared);
  if (!Number.isSafeInteger(totals.withTax)) throw AppError.invalid({ lines: [said('error.total.tooLarge')] });
  return { company: resolved.company, lines: shared, totals };
}

export function lineRows(
  lines: readonly PricedLine[],
  companyId: string,
  documentId: string,
  newId: IdGenerator,
  kind: 'quotationLine' | 'orderLine',
): DocumentLineRow[] {
  return lines.map((l, i) => ({
    id: newId(kind),
    company_id: companyId,
    document_id: documentId,
    position: i + 1,
    product_id: l.productId,
    unit_id: l.unitId,
    product_name: l.productName,
    product_code: l.productCode,
    unit_name: l.unitName,
    quantity_milli: l.quantityMilli,
    unit_price_minor: l.unitPriceMinor,
    tax_rate_bp: l.taxRateBp,
    net_minor: l.net,
    tax_minor: l.tax,
    total_minor: l.total,
    note: l.note,
    discount_bp: l.discountBp,
  }));
}

export interface LineView {
  productId: string;
  unitId: string;
  productName: string;
  productCode: string | null;
  unitName: string;
  quantity: string;
  unitPrice: string;
  taxRate: string;
  net: string;
  tax: string;
  total: string;
  note: string | null;
  /** Percent off the line ("0", "10", "12.5"); the amounts are after it. */
  discountPercent: string;
}

export interface TotalsView {
  net: string;
  tax: string;
  withTax: string;
  taxes: Array<{ rate: string; base: string; tax: string }>;
}

export function toLineView(row: DocumentLineRow): LineView {
  return {
    productId: row.product_id,
    unitId: row.unit_id,
    productName: row.product_name,
    productCode: row.product_code,
    unitName: row.unit_name,
    quantity: formatScaledTrimmed(row.quantity_milli, QUANTITY_SCALE),
    unitPrice: formatMoney(row.unit_price_minor),
    taxRate: formatRate(row.tax_rate_bp),
    net: formatMoney(row.net_minor),
    tax: formatMoney(row.tax_minor),
    total: formatMoney(row.total_minor),
    note: row.note,
    discountPercent: formatRate(row.discount_bp ?? 0),
  };
}

/**
 * Totals read back from stored lines: the same sums the creating request computed. A document
 * keeps the totals it was priced with: those priced before the per-rate rule sum their per-line
 * taxes, as they were printed then.
 */
export function totalsView(rows: readonly DocumentLineRow[]): TotalsView {
  const totals = summarize(
    rows.map((r) => ({ net: r.net_minor, tax: r.tax_minor, total: r.total_minor, taxRateBp: r.tax_rate_bp })),
  );
  return {
    net: formatMoney(totals.net),
    tax: formatMoney(totals.tax),
    withTax: formatMoney(totals.withTax),
    taxes: totals.taxes.map((t) => ({
      rate: formatRate(t.rateBp),
      base: formatMoney(t.base),
      tax: formatMoney(t.tax),
    })),
  };
}
