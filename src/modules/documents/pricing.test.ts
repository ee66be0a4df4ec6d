// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { priceLine, summarize, unitPriceBothWays } from './pricing.ts';

test('net prices: tax is added on top and rounded half-up per line', () => {
  // 12.99 × 1.5 = 19.485 → 19.49; 25 % of 19.49 = 4.8725 → 4.87
  assert.deepEqual(priceLine({ unitPriceMinor: 1299, quantityMilli: 1500, taxRateBp: 2500 }, false), {
    net: 1949,
    tax: 487,
    total: 2436,
  });
  // 10.00 × 0.333 = 3.33; 13 % = 0.4329 → 0.43
  assert.deepEqual(priceLine({ unitPriceMinor: 1000, quantityMilli: 333, taxRateBp: 1300 }, false), {
    net: 333,
    tax: 43,
    total: 376,
  });
  // half exactly: 0.05 × 0.5 = 0.025 → 0.03
  assert.deepEqual(priceLine({ unitPriceMinor: 5, quantityMilli: 500, taxRateBp: 0 }, false), {
    net: 3,
    tax: 0,
    total: 3,
  });
});

test('gross prices: the total is price × quantity and net is backed out', () => {
  // 12.50 × 1.5 = 18.75 gross; net = 18.75 / 1.25 = 15.00
  assert.deepEqual(priceLine({ unitPriceMinor: 1250, quantityMilli: 1500, taxRateBp: 2500 }, true), {
    net: 1500,
    tax: 375,
    total: 1875,
  });
  // 9.99 × 0.333 = 3.32667 → 3.33 gross; net = 3.33 / 1.095 = 3.0411 → 3.04
  assert.deepEqual(priceLine({ unitPriceMinor: 999, quantityMilli: 333, taxRateBp: 950 }, true), {
    net: 304,
    tax: 29,
    total: 333,
  });
});

test('two tax rates on one document give a summary per rate that adds up', () => {
  const lines = [
    { ...priceLine({ unitPriceMinor: 1299, quantityMilli: 1500, taxRateBp: 2500 }, false), taxRateBp: 2500 },
    { ...priceLine({ unitPriceMinor: 1000, quantityMilli: 333, taxRateBp: 1300 }, false), taxRateBp: 1300 },
    { ...priceLine({ unitPriceMinor: 200, quantityMilli: 3000, taxRateBp: 2500 }, false), taxRateBp: 2500 },
  ];
  const totals = summarize(lines);
  assert.deepEqual(totals.taxes, [
    { rateBp: 2500, base: 1949 + 600, tax: 487 + 150 },
    { rateBp: 1300, base: 333, tax: 43 },
  ]);
  assert.equal(totals.net, 1949 + 333 + 600);
  assert.equal(totals.tax, 487 + 43 + 150);
  assert.equal(totals.withTax, totals.net + totals.tax);
});

test('catalog shows a unit price both ways', () => {
  assert.deepEqual(unitPriceBothWays(1000, 2500, false), { net: 1000, gross: 1250 });
  assert.deepEqual(unitPriceBothWays(1250, 2500, true), { net: 1000, gross: 1250 });
});

test('a line discount applies before tax, in the one rounding of the line', () => {
  // 12.99 × 1.5 = 19.485; 10 % off = 17.5365 → 17.54
  assert.deepEqual(priceLine({ unitPriceMinor: 1299, quantityMilli: 1500, taxRateBp: 2500, discountBp: 1000 }, false), {
    net: 1754,
    tax: 439,
    total: 2193,
  });
  // One rounding: 0.05 at 50 % = 0.025 → 0.03; rounding the discount first (0.025 → 0.03 off) would give 0.02.
  assert.equal(priceLine({ unitPriceMinor: 5, quantityMilli: 1000, taxRateBp: 0, discountBp: 5000 }, false).net, 3);
  // Gross prices: the discounted gross is the total, net backed out of it.
  assert.deepEqual(priceLine({ unitPriceMinor: 1250, quantityMilli: 2000, taxRateBp: 2500, discountBp: 2000 }, true), {
    net: 1600,
    tax: 400,
    total: 2000,
  });
  assert.equal(
    priceLine({ unitPriceMinor: 999, quantityMilli: 3000, taxRateBp: 2500, discountBp: 10_000 }, false).total,
    0,
  );
  assert.deepEqual(
    priceLine({ unitPriceMinor: 1299, quantityMilli: 1500, taxRateBp: 2500, discountBp: 0 }, false),
    priceLine({ unitPriceMinor: 1299, quantityMilli: 1500, taxRateBp: 2500 }, false),
  );
  assert.throws(
    () => priceLine({ unitPriceMinor: 1, quantityMilli: 1, taxRateBp: 0, discountBp: 10_001 }, false),
    RangeError,
  );
  assert.throws(
    () => priceLine({ unitPriceMinor: 1, quantityMilli: 1, taxRateBp: 0, discountBp: -1 }, false),
    RangeError,
  );
});

test('property: a discounted line is the exact amount rounded half-up once, never more than the undiscounted one, and adds up', () => {
  // A small deterministic generator (xorshift): the same cases every run, thousands of them.
  let seed = 0x9e3779b9;
  const next = (max: number) => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) % max;
  };
  for (let i = 0; i < 5000; i++) {
    const line = {
      unitPriceMinor: next(1_000_000),
      quantityMilli: 1 + next(1_000_000),
      taxRateBp: [0, 500, 1300, 2500][next(4)]!,
      discountBp: next(10_001),
    };
    for (const gross of [false, true]) {
      const priced = priceLine(line, gross);
      const full = priceLine({ ...line, discountBp: 0 }, gross);
      // Exact amount in units of 1/(1000 × 10000) cent; the priced amount is within half a cent of it.
      const exact = BigInt(line.unitPriceMinor) * BigInt(line.quantityMilli) * BigInt(10_000 - line.discountBp);
      const scale = 10_000_000n;
      const amount = BigInt(gross ? priced.total : priced.net);
      const diff = amount * scale - exact;
      assert.ok(diff * 2n <= scale && diff * 2n >= -scale, `rounded once: ${JSON.stringify(line)}`);
      if (diff * 2n === scale || diff * 2n === -scale) assert.ok(diff > 0n, 'a half rounds up');
      assert.ok((gross ? priced.total : priced.net) <= (gross ? full.total : full.net), 'a discount never adds');
      assert.equal(priced.net + priced.tax, priced.total);
      assert.ok(priced.tax >= 0 && priced.net >= 0);
    }
  }
});
