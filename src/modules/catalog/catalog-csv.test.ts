// test-engines: sqlite
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

test('the barcode column: a GTIN checked per row, the same on every row of a product, one product per code', () => {
  const csv = [
    'sku,name,tax_rate,unit,price,barcode',
    'BOS-1,Bušilica,25,kom,129.00,4 006381 333931',
    'BOS-1,Bušilica,25,kofer,149.00,4006381333931',
    'KIST-1,Kist,25,kom,4.20,036000291452',
    'KIST-2,Kist veliki,25,kom,5.20,0036000291452',
    'BAD-1,Loše,25,kom,1.00,4006381333932',
    'NONE-1,Bez koda,25,kom,1.00,',
  ].join('\n');
  const { rows, errors } = parseCatalogCsv(csv);
  assert.deepEqual(
    errors.map((e) => [e.row, e.field, e.message]),
    [[6, 'barcode', 'Is not a valid barcode: the check digit does not match (should be 1).']],
  );
  assert.equal(rows[0]!.barcode, '4006381333931', 'separators dropped');
  assert.equal(rows.at(-1)!.barcode, null, 'an empty cell clears it');
  const { products, errors: grouping } = groupBySku(rows);
  assert.deepEqual(
    grouping.map((e) => [e.row, e.field]),
    [[5, 'barcode']],
    'a UPC-A and its EAN-13 spelling are one code',
  );
  assert.equal(products.find((p) => p.sku === 'BOS-1')!.units.length, 2);
});
