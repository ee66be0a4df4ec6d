import { mulDivRound } from '../../lib/money.ts';

/**
 * Line and document totals. Every amount is an integer of minor units; each line is rounded
 * half-up once, and document totals are sums of rounded lines, so the printed lines always add
 * up to the printed totals (the point-of-sale convention).
 *
 * When the company's prices include tax the unit price is gross: the line total is
 * price × quantity and net is backed out of it; otherwise the unit price is net and tax is
 * added on top.
 *
 * A line discount applies to the extended amount before tax, in the same single rounding:
 * amount = round(price × quantity × (100 % − discount)), never the rounded line rounded again.
 */
export interface LineInput {
  unitPriceMinor: number;
  quantityMilli: number;
  taxRateBp: number;
  /** A discount on the line in basis points of a percent (10.5 % = 1050), 0 to 10 000; none by default. */
  discountBp?: number;
}

export interface LineAmounts {
  net: number;
  tax: number;
  total: number;
}

export interface TaxSummary {
  rateBp: number;
  base: number;
  tax: number;
}

export interface DocumentTotals {
  net: number;
  tax: number;
  withTax: number;
  taxes: TaxSummary[];
}

const MILLI = 1000n;
const BP = 10_000n;
export const MAX_DISCOUNT_BP = 10_000;

export function priceLine(line: LineInput, pricesIncludeTax: boolean): LineAmounts {
  const rate = BigInt(line.taxRateBp);
  const discount = BigInt(line.discountBp ?? 0);
  if (discount < 0n || discount > BP) throw new RangeError(`discount out of range: ${discount}`);
  const extended = mulDivRound(BigInt(line.unitPriceMinor) * BigInt(line.quantityMilli), BP - discount, MILLI * BP);
  if (pricesIncludeTax) {
    const net = mulDivRound(extended, BP, BP + rate);
    return { net: Number(net), tax: Number(extended - net), total: Number(extended) };
  }
  const tax = mulDivRound(extended, rate, BP);
  return { net: Number(extended), tax: Number(tax), total: Number(extended + tax) };
}

export function summarize(lines: ReadonlyArray<LineAmounts & { taxRateBp: number }>): DocumentTotals {
  const byRate = new Map<number, TaxSummary>();
  let net = 0;
  let tax = 0;
  for (const line of lines) {
    net += line.net;
    tax += line.tax;
    const entry = byRate.get(line.taxRateBp) ?? { rateBp: line.taxRateBp, base: 0, tax: 0 };
    entry.base += line.net;
    entry.tax += line.tax;
    byRate.set(line.taxRateBp, entry);
  }
  const taxes = [...byRate.values()].sort((a, b) => b.rateBp - a.rateBp);
  return { net, tax, withTax: net + tax, taxes };
}

/** Unit price shown both ways for the public catalog. */
export function unitPriceBothWays(
  priceMinor: number,
  taxRateBp: number,
  pricesIncludeTax: boolean,
): { net: number; gross: number } {
  const one = priceLine({ unitPriceMinor: priceMinor, quantityMilli: 1000, taxRateBp }, pricesIncludeTax);
  return { net: one.net, gross: one.total };
}
