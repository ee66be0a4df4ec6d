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
