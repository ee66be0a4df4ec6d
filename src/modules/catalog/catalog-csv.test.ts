import { test } from 'node:test';
import assert from 'node:assert/strict';
import { groupBySku, parseCatalogCsv } from './catalog-csv.ts';
import { unitCodeOf } from './unit-codes.ts';

/** Issue 21: the CSV import reads a product's KPD 2025 code and each unit's UN/ECE Rec 20 code. */
test('the classification and unit_code columns: read, checked, grouped per product and unit', () => {
  const csv = [
    'sku,name,tax_rate,unit,price,classification,unit_code',
    'LAK-25,Lak za parket,25 %,kom,34.90,20.30.12,',
    'LAK-25,Lak za parket,25 %,karton (6 kom),199.00,20.30.12,xct',
    'VIJ-4,Vijci,25,pak,6.49,,',
    'BAD-1,Loše,25,kom,1.00,2030,K-G',
  ].join('\n');
  const { rows, errors } = parseCatalogCsv(csv);
  assert.deepEqual(
    errors.map((e) => [e.row, e.field]),
    [
      [5, 'classification'],
      [5, 'unit_code'],
    ],
  );
  const { products, errors: grouping } = groupBySku(rows);
  assert.deepEqual(grouping, []);
  const lak = products.find((p) => p.sku === 'LAK-25')!;
  assert.equal(lak.classification, '20.30.12');
  assert.deepEqual(
    lak.units.map((u) => [u.name, u.unitCode]),
    [
      ['kom', null],
      ['karton (6 kom)', 'XCT'],
    ],
  );
  assert.equal(products.find((p) => p.sku === 'VIJ-4')!.classification, null, 'an empty cell clears it');
});

test('a file without the columns leaves classifications alone (undefined), as every optional column', () => {
  const { rows } = parseCatalogCsv('sku,name,tax_rate,unit,price\nA,A,25,kom,1.00\n');
  assert.equal(rows[0]!.classification, undefined);
  assert.equal(rows[0]!.unitCode, undefined);
});

test('unit names people type map to Rec 20 codes; a set code wins; anything else is C62', () => {
  assert.deepEqual(
    ['kom', 'Kom', 'L', 'm²', 'm2', 'kg', 'pak', 'sat', 'karton (6 kom)'].map((n) => unitCodeOf(n, null)),
    ['H87', 'H87', 'LTR', 'MTK', 'MTK', 'KGM', 'XPK', 'HUR', 'C62'],
  );
  assert.equal(unitCodeOf('karton (6 kom)', 'XCT'), 'XCT');
});
