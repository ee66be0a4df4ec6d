// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { priceLine, summarize, type LineInput } from './pricing.ts';

/**
 * Gross or net (issue 34, item 8): a retail shop prices including VAT, a trade counter excluding
 * it; the same basket must give documents exact to the cent either way. The rule is pricing.ts's:
 * each line rounded half-up once (after its discount), document totals the sums of rounded lines,
 * so the print reconciles as EN 16931-1:2017 requires: BR-CO-10 (Σ line net = total net), BR-CO-14
 * (VAT total = Σ VAT breakdown), BR-CO-15 (total with VAT = net + VAT), BR-S-08 (a rate's base =
 * Σ its lines' net).
 */

/** VAT rates of Croatia (Zakon o PDV-u čl. 38: 25, 13, 5 %) and Germany (UStG § 12: 19, 7 %), and 0. */
const RATES = [2500, 1300, 500, 1900, 700, 0];

/**
 * A net unit price whose gross is exact to the cent at the rate: a shelf price a shop would set
 * both ways (12,40 € net is 15,50 € gross at 25 %). For 13 % the net is a whole euro amount.
 */
const STEP: Record<number, number> = { 2500: 4, 1300: 100, 500: 20, 1900: 100, 700: 100, 0: 1 };

const basket = fc.array(
  fc.record({
    taxRateBp: fc.constantFrom(...RATES),
    steps: fc.integer({ min: 1, max: 5_000 }),
    quantityMilli: fc.oneof(
      fc.integer({ min: 1, max: 50 }).map((q) => q * 1000),
      fc.integer({ min: 1, max: 100_000 }),
    ),
    discountBp: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 10_000 })),
  }),
  { minLength: 1, maxLength: 40 },
);

function both(lines: ReadonlyArray<{ taxRateBp: number; steps: number; quantityMilli: number; discountBp: number }>) {
  const net: LineInput[] = lines.map((l) => ({
    unitPriceMinor: l.steps * STEP[l.taxRateBp]!,
    quantityMilli: l.quantityMilli,
    taxRateBp: l.taxRateBp,
    discountBp: l.discountBp,
  }));
  const gross: LineInput[] = net.map((l) => ({
    ...l,
    unitPriceMinor: (l.unitPriceMinor * (10_000 + l.taxRateBp)) / 10_000,
  }));
  for (const g of gross) assert.ok(Number.isInteger(g.unitPriceMinor), 'the gross shelf price is whole cents');
  return { net, gross };
}

function document(lines: readonly LineInput[], pricesIncludeTax: boolean) {
  const priced = lines.map((l) => ({ ...priceLine(l, pricesIncludeTax), taxRateBp: l.taxRateBp }));
  return { priced, totals: summarize(priced) };
}

test('either way, every document reconciles to the cent: lines, the VAT breakdown and the totals', () => {
  fc.assert(
    fc.property(basket, fc.boolean(), (lines, gross) => {
      const { net, gross: grossLines } = both(lines);
      const { priced, totals } = document(gross ? grossLines : net, gross);
      for (const line of priced) {
        assert.equal(line.net + line.tax, line.total, 'a line: net + VAT = total');
        assert.ok(Number.isInteger(line.net) && Number.isInteger(line.tax));
      }
      assert.equal(
        totals.net,
        priced.reduce((s, l) => s + l.net, 0),
        'BR-CO-10',
      );
      assert.equal(
        totals.tax,
        totals.taxes.reduce((s, r) => s + r.tax, 0),
        'BR-CO-14',
      );
      assert.equal(totals.withTax, totals.net + totals.tax, 'BR-CO-15');
      assert.equal(
        totals.withTax,
        priced.reduce((s, l) => s + l.total, 0),
        'the printed lines add up to the total',
      );
      for (const rate of totals.taxes) {
        const mine = priced.filter((l) => l.taxRateBp === rate.rateBp);
        assert.equal(
          rate.base,
          mine.reduce((s, l) => s + l.net, 0),
          'BR-S-08: a rate’s base',
        );
      }
    }),
    { numRuns: 500 },
  );
});

test('the same basket priced gross and net: identical documents for whole quantities without discount', () => {
  fc.assert(
    fc.property(
      basket.map((lines) =>
        lines.map((l) => ({
          ...l,
          quantityMilli: Math.max(1, Math.round(l.quantityMilli / 1000)) * 1000,
          discountBp: 0,
        })),
      ),
      (lines) => {
        const { net, gross } = both(lines);
        const a = document(net, false);
        const b = document(gross, true);
        assert.deepEqual(b.priced, a.priced, 'line by line: the same net, VAT and total');
        assert.deepEqual(b.totals, a.totals, 'the same totals and VAT breakdown');
      },
    ),
    { numRuns: 500 },
  );
});

test('with parts of a unit and discounts: each line within one cent, and gross pays the shelf price exactly', () => {
  fc.assert(
    fc.property(basket, (lines) => {
      const { net, gross } = both(lines);
      const a = document(net, false);
      const b = document(gross, true);
      for (let i = 0; i < lines.length; i++) {
        const diff = Math.abs(b.priced[i]!.total - a.priced[i]!.total);
        assert.ok(diff <= 1, `line ${i}: ${a.priced[i]!.total} net-priced against ${b.priced[i]!.total} gross-priced`);
        // A retail shop's customer pays price × quantity (after the discount), rounded once: no VAT drift.
        const shelf = Math.round(
          (gross[i]!.unitPriceMinor * gross[i]!.quantityMilli * (10_000 - (gross[i]!.discountBp ?? 0))) / 10_000_000,
        );
        assert.equal(b.priced[i]!.total, shelf, `line ${i}: the shelf price`);
      }
      assert.ok(Math.abs(b.totals.withTax - a.totals.withTax) <= lines.length);
    }),
    { numRuns: 500 },
  );
});
