import { mulDivRound } from '../../lib/money.ts';

/**
 * The tax summary a sales document prints and its JSON returns: one row per tax rate.
 *
 * The rule (the usual EU invoice practice, Art. 226 of Directive 2006/112/EC: the taxable
 * amount and the tax per rate): lines are priced and rounded half-up once each, as today
 * (pricing.ts); their printed amounts are summed per rate, and the tax is computed ONCE per rate
 * on that sum, rounded half-up to the cent. Rounding each line's tax and summing (the previous
 * rule) lets line roundings pile up: 65 lines at 25 % with a base of 124,20 € printed 31,06 € of
 * tax where 25 % of 124,20 is 31,05.
 *
 * - Net prices (`pricesIncludeTax` false): lines print net amounts. Per rate, base = Σ line nets
 *   and tax = round(base × rate). As printed: base × rate = tax for every rate, and
 *   Σ base + Σ tax = total, exactly.
 * - Gross prices (`pricesIncludeTax` true): lines print gross amounts, and what the customer was
 *   shown (Σ gross per rate) is fixed. Per rate, tax = round(gross × rate / (1 + rate)) and
 *   base = gross − tax: the tax is the one contained in the gross, the print says so ("25 % tax
 *   included in 124,20 €"), and Σ base + Σ tax = Σ gross = total exactly. base × rate then equals
 *   the tax to within one cent, not always exactly, and no rule can make it exact: at 25 % a
 *   gross of 0,02 € has no split (base 0,01 → tax 0,00 → 0,01; base 0,02 → tax 0,01 → 0,03);
 *   the same gaps recur every few cents at any size. Keeping the gross the customer agreed to
 *   wins over the second equation.
 *
 * Lines keep a tax of their own (JSON `lines[].tax`, and a line's net or gross), so that the
 * lines still add up to the document: each rate's tax is shared out over its lines
 * (`apportionLines`, largest remainder), each line getting its exact share rounded down or up.
 * Summing the stored lines then gives exactly the rows above, which is how a stored document is
 * read back: its totals are the sums of its stored lines, whatever rule priced it. Documents
 * priced before this rule (tax rounded per line) keep their stored lines and so their totals.
 */

export interface SummaryLine {
  /** Line net in cents, as priced. */
  net: number;
  /** Line total with tax in cents, as priced (the gross the customer sees when prices include tax). */
  total: number;
  taxRateBp: number;
}

export interface RateRow {
  rateBp: number;
  /** Taxable amount at this rate, cents. */
  base: number;
  tax: number;
  /** base + tax. */
  gross: number;
}

export interface PrintedTotals {
  net: number;
  tax: number;
  withTax: number;
  /** Highest rate first, as the print lists them. */
  taxes: RateRow[];
}

const BP = 10_000n;

export function taxSummary(lines: readonly SummaryLine[], pricesIncludeTax: boolean): PrintedTotals {
  const sums = new Map<number, bigint>();
  for (const line of lines) {
    const amount = BigInt(pricesIncludeTax ? line.total : line.net);
    sums.set(line.taxRateBp, (sums.get(line.taxRateBp) ?? 0n) + amount);
  }
  const taxes: RateRow[] = [];
  let net = 0n;
  let tax = 0n;
  for (const [rateBp, sum] of sums) {
    const rate = BigInt(rateBp);
    const rowTax = pricesIncludeTax ? mulDivRound(sum, rate, BP + rate) : mulDivRound(sum, rate, BP);
    const base = pricesIncludeTax ? sum - rowTax : sum;
    taxes.push(safeRow(rateBp, base, rowTax));
    net += base;
    tax += rowTax;
  }
  taxes.sort((a, b) => b.rateBp - a.rateBp);
  return { net: safe(net), tax: safe(tax), withTax: safe(net + tax), taxes };
}

function safeRow(rateBp: number, base: bigint, tax: bigint): RateRow {
  return { rateBp, base: safe(base), tax: safe(tax), gross: safe(base + tax) };
}

/** Amounts are JSON numbers of cents; past 2^53 they would silently lose cents. */
function safe(value: bigint): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError(`amount out of range: ${value}`);
  return n;
}

export interface ApportionedLine {
  net: number;
  tax: number;
  total: number;
}

/**
 * Each line's share of its rate's tax, so that per rate Σ line tax = the summary's tax, Σ line
 * net = its base and Σ line total = its gross. The printed amount of a line (net, or gross when
 * prices include tax) is kept; the tax is the exact share (amount × rate, or the tax contained
 * in the gross) rounded down, and the cents left over go to the lines with the largest
 * remainders (the earlier line on a tie): no line is more than a cent from its exact tax.
 */
export function apportionLines(lines: readonly SummaryLine[], pricesIncludeTax: boolean): ApportionedLine[] {
  const out: ApportionedLine[] = new Array(lines.length);
  const byRate = new Map<number, number[]>();
  lines.forEach((line, i) => {
    const group = byRate.get(line.taxRateBp);
    if (group) group.push(i);
    else byRate.set(line.taxRateBp, [i]);
  });
  for (const [rateBp, indices] of byRate) {
    const rate = BigInt(rateBp);
    const divisor = pricesIncludeTax ? BP + rate : BP;
    const amounts = indices.map((i) => BigInt(pricesIncludeTax ? lines[i]!.total : lines[i]!.net));
    const sum = amounts.reduce((a, b) => a + b, 0n);
    const rowTax = mulDivRound(sum, rate, divisor);
    const shares = amounts.map((amount, k) => {
      const numerator = amount * rate;
      const floor = floorDiv(numerator, divisor);
      return { k, floor, remainder: numerator - floor * divisor };
    });
    let left = rowTax - shares.reduce((a, s) => a + s.floor, 0n);
    const taxes = shares.map((s) => s.floor);
    const ranked = [...shares].sort((a, b) =>
      a.remainder === b.remainder ? a.k - b.k : a.remainder > b.remainder ? -1 : 1,
    );
    for (const share of ranked) {
      if (left <= 0n) break;
      taxes[share.k]! += 1n;
      left -= 1n;
    }
    indices.forEach((i, k) => {
      const amount = amounts[k]!;
      const tax = taxes[k]!;
      out[i] = pricesIncludeTax
        ? { net: safe(amount - tax), tax: safe(tax), total: safe(amount) }
        : { net: safe(amount), tax: safe(tax), total: safe(amount + tax) };
    });
  }
  return out;
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}
