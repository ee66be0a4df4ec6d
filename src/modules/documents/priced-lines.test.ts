// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../../lib/errors.ts';
import type { Company } from '../companies/index.ts';
import { priceLines, type ResolvedLine, type ResolveLines } from './priced-lines.ts';

// Pricing takes a function that resolves lines, so its rules are tested with plain data: no
// catalog, no database.
const company = { pricesIncludeTax: false } as Company;
const paint: ResolvedLine = {
  productId: 'p1',
  unitId: 'u1',
  productName: 'Paint',
  productCode: 'P-1',
  unitName: 'L',
  unitPriceMinor: 1240,
  taxRateBp: 2500,
};
const resolveAll: ResolveLines = async (lines) => ({ company, lines: lines.map(() => paint) });

test('lines are priced once each and the tax once per rate, shared out so the lines add up', async () => {
  const priced = await priceLines(resolveAll, [
    { productId: 'p1', unitId: 'u1', quantity: 1.5, note: 'matt' },
    { productId: 'p1', unitId: 'u1', quantity: 0.333 },
  ]);
  assert.deepEqual(
    priced.lines.map((l) => [l.quantityMilli, l.net, l.tax, l.total, l.note]),
    [
      [1500, 1860, 465, 2325, 'matt'],
      [333, 413, 103, 516, null],
    ],
  );
  assert.deepEqual(priced.totals, {
    net: 2273,
    tax: 568,
    withTax: 2841,
    taxes: [{ rateBp: 2500, base: 2273, tax: 568 }],
  });
});

test("every bad field is reported at once: the caller's, the quantities and the resolver's", async () => {
  const refuse: ResolveLines = async () => {
    throw AppError.invalid({ 'lines[1].productId': ['No such product.'] });
  };
  await assert.rejects(
    priceLines(
      refuse,
      [
        { productId: 'p1', unitId: 'u1', quantity: 0 },
        { productId: 'gone', unitId: 'u1', quantity: 1 },
      ],
      {
        expiresAt: ['Must be in the future.'],
      },
    ),
    (error: AppError) => {
      assert.deepEqual(Object.keys(error.details ?? {}).sort(), [
        'expiresAt',
        'lines[0].quantity',
        'lines[1].productId',
      ]);
      return true;
    },
  );
});
