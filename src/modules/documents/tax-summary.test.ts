// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { formatMoney, mulDivRound, parseScaled } from '../../lib/money.ts';
import { priceLine, summarize } from './pricing.ts';
import { apportionLines, taxSummary, type PrintedTotals } from './tax-summary.ts';

const RATES_BP = [2500, 1300, 500, 0, 950, 1900, 700, 2000];

const lineArb = fc.record({
  unitPriceMinor: fc.integer({ min: 1, max: 250_000 }),
  quantityMilli: fc.oneof(
    fc.integer({ min: 1, max: 20 }).map((q) => q * 1000),
    fc.integer({ min: 1, max: 50_000 }),
  ),
  taxRateBp: fc.constantFrom(...RATES_BP),
});
const quotationArb = fc.array(lineArb, { minLength: 1, maxLength: 80 });

type Priced = ReturnType<typeof priceLine> & { taxRateBp: number };
const price = (
  lines: Array<{ unitPriceMinor: number; quantityMilli: number; taxRateBp: number }>,
  gross: boolean,
): Priced[] => lines.map((l) => ({ ...priceLine(l, gross), taxRateBp: l.taxRateBp }));

/** What a reader checks on paper: every figure as printed with two decimals, read back, then multiplied. */
function readsBackNet(totals: {
  net: number;
  tax: number;
  withTax: number;
  taxes: Array<{ rateBp: number; base: number; tax: number }>;
}): string[] {
  const cents = (n: number) => parseScaled(formatMoney(n), 2);
  const problems: string[] = [];
  for (const row of totals.taxes) {
    const expected = mulDivRound(cents(row.base), BigInt(row.rateBp), 10_000n);
    if (expected !== cents(row.tax))
      problems.push(
        `${row.rateBp / 100} % on ${formatMoney(row.base)} printed ${formatMoney(row.tax)}, should be ${formatMoney(expected)}`,
      );
  }
  const sum = totals.taxes.reduce((s, r) => s + cents(r.base) + cents(r.tax), 0n);
  if (sum !== cents(totals.withTax))
    problems.push(`Σ base + Σ tax = ${formatMoney(sum)} but total ${formatMoney(totals.withTax)}`);
  return problems;
}

test("the issue's 65-line quotation: per-line rounding printed 31,06 €, the per-rate rule prints 31,05 €", () => {
  // 63 lines of 1,88 € and two of 2,86 € and 2,90 €: base 124,20 € at 25 %.
  const lines = [...Array.from({ length: 63 }, () => 188), 286, 290].map((unitPriceMinor) => ({
    unitPriceMinor,
    quantityMilli: 1000,
    taxRateBp: 2500,
  }));
  const priced = price(lines, false);
  const old = summarize(priced);
  assert.deepEqual(old.taxes, [{ rateBp: 2500, base: 12420, tax: 3106 }]);
  assert.deepEqual(readsBackNet(old), ['25 % on 124.20 printed 31.06, should be 31.05']);
  const now = taxSummary(priced, false);
  assert.deepEqual(now, {
    net: 12420,
    tax: 3105,
    withTax: 15525,
    taxes: [{ rateBp: 2500, base: 12420, tax: 3105, gross: 15525 }],
  });
  assert.deepEqual(readsBackNet(now), []);
});

test('net prices: every rate reconciles as printed and the rows add up to the total (property, 500 quotations)', () => {
  fc.assert(
    fc.property(quotationArb, (lines) => {
      const priced = price(lines, false);
      const totals = taxSummary(priced, false);
      assert.deepEqual(readsBackNet(totals), []);
      // The lines as printed add up to the base: the summary never invents or loses a cent of net.
      assert.equal(
        totals.net,
        priced.reduce((s, l) => s + l.net, 0),
      );
      assert.equal(totals.withTax, totals.net + totals.tax);
      assert.deepEqual(
        totals.taxes.map((r) => r.rateBp),
        [...new Set(lines.map((l) => l.taxRateBp))].sort((a, b) => b - a),
      );
    }),
    { numRuns: 500, seed: 1313 },
  );
});

test('the per-line rule fails the same check on many random quotations; the per-rate rule on none', () => {
  const sample = fc.sample(quotationArb, { numRuns: 300, seed: 2026 });
  let oldFailures = 0;
  let newFailures = 0;
  for (const lines of sample) {
    const priced = price(lines, false);
    if (readsBackNet(summarize(priced)).length > 0) oldFailures++;
    if (readsBackNet(taxSummary(priced, false)).length > 0) newFailures++;
  }
  assert.equal(newFailures, 0);
  // Measured with this seed: 78 of the 300 print a tax row that does not recompute under the old rule.
  assert.ok(oldFailures >= 30, `per-line rule failed on ${oldFailures} of ${sample.length}`);
});

test('gross prices: the gross the customer saw is kept, tax is the one it contains, rows add up (property, 500 quotations)', () => {
  fc.assert(
    fc.property(quotationArb, (lines) => {
      const priced = price(lines, true);
      const totals = taxSummary(priced, true);
      assert.equal(
        totals.withTax,
        priced.reduce((s, l) => s + l.total, 0),
      );
      let base = 0;
      let tax = 0;
      for (const row of totals.taxes) {
        const rate = BigInt(row.rateBp);
        assert.equal(BigInt(row.tax), mulDivRound(BigInt(row.gross), rate, 10_000n + rate));
        assert.equal(row.base + row.tax, row.gross);
        // base × rate is the tax to within a cent (see the module comment for why not always exactly).
        const recomputed = Number(mulDivRound(BigInt(row.base), rate, 10_000n));
        assert.ok(Math.abs(recomputed - row.tax) <= 1, `${row.rateBp}: ${row.base} → ${recomputed} vs ${row.tax}`);
        base += row.base;
        tax += row.tax;
      }
      assert.equal(totals.net, base);
      assert.equal(totals.tax, tax);
      assert.equal(totals.net + totals.tax, totals.withTax);
    }),
    { numRuns: 500, seed: 1414 },
  );
});

test('gross prices: some grosses have no split with base × rate = tax, so none is promised', () => {
  const splits = (gross: number, rateBp: number) =>
    Array.from({ length: gross + 1 }, (_, b) => b).filter(
      (b) => b + Number(mulDivRound(BigInt(b), BigInt(rateBp), 10_000n)) === gross,
    );
  assert.deepEqual(splits(2, 2500), []);
  assert.deepEqual(splits(1002, 2500), []);
  const row = (taxSummary([{ net: 0, total: 1002, taxRateBp: 2500 }], true) satisfies PrintedTotals).taxes[0];
  assert.deepEqual(row, { rateBp: 2500, base: 802, tax: 200, gross: 1002 });
});

test('zero rate, empty document and a line of zero rate next to taxed ones', () => {
  assert.deepEqual(taxSummary([], false), { net: 0, tax: 0, withTax: 0, taxes: [] });
  const totals = taxSummary(
    [
      { net: 1000, total: 1000, taxRateBp: 0 },
      { net: 999, total: 1249, taxRateBp: 2500 },
    ],
    false,
  );
  assert.deepEqual(totals.taxes, [
    { rateBp: 2500, base: 999, tax: 250, gross: 1249 },
    { rateBp: 0, base: 1000, tax: 0, gross: 1000 },
  ]);
  assert.equal(totals.withTax, 2249);
});

test('apportioned lines add up to the per-rate summary, each within a cent of its exact tax', () => {
  fc.assert(
    fc.property(quotationArb, fc.boolean(), (lines, gross) => {
      const priced = price(lines, gross);
      const shared = apportionLines(priced, gross);
      const summary = taxSummary(priced, gross);
      const fromLines = summarize(shared.map((l, i) => ({ ...l, taxRateBp: priced[i]!.taxRateBp })));
      assert.deepEqual(
        fromLines.taxes,
        summary.taxes.map(({ rateBp, base, tax }) => ({ rateBp, base, tax })),
      );
      assert.equal(fromLines.withTax, summary.withTax);
      shared.forEach((line, i) => {
        const p = priced[i]!;
        const rate = BigInt(p.taxRateBp);
        // The printed amount of the line is kept; its tax is its exact share rounded down or up.
        if (gross) assert.equal(line.total, p.total);
        else assert.equal(line.net, p.net);
        assert.equal(line.net + line.tax, line.total);
        const numerator = BigInt(gross ? p.total : p.net) * rate;
        const divisor = gross ? 10_000n + rate : 10_000n;
        const exactFloor = numerator / divisor;
        const t = BigInt(line.tax);
        assert.ok(
          t === exactFloor || (t === exactFloor + 1n && numerator % divisor !== 0n),
          `line ${i}: tax ${t} for ${numerator}/${divisor}`,
        );
      });
    }),
    { numRuns: 300 },
  );
});
