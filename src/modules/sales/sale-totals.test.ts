// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DocumentLineRow } from '../documents/index.ts';
import { documentTotals } from './sale-totals.ts';
import type { SaleRow } from './types.ts';

const line = (rate: number, net: number, tax: number) =>
  ({ tax_rate_bp: rate, net_minor: net, tax_minor: tax, total_minor: net + tax }) as DocumentLineRow;
const sale = (over: Partial<SaleRow>) =>
  ({
    company_id: 'cmp_1',
    mode: 'live',
    location_id: 'loc_1',
    created_by: null,
    kind: 'invoice',
    operator_name: null,
    exemption_reason: null,
    ...over,
  }) as SaleRow;

test('a row per rate, highest first, the document counted once on it, for the day and the month; the exemption keys only the 0 % row', () => {
  const rows = documentTotals(
    sale({ exemption_reason: 'čl. 39.', created_by: 'usr_1', operator_name: 'Ana' }),
    [line(500, 100, 5), line(2500, 1000, 250), line(0, 40, 0), line(2500, 200, 50)],
    '2026-11-26',
  );
  const days = [
    [2500, '', 1, 1200, 300, 1500, 'usr_1'],
    [500, '', 0, 100, 5, 105, 'usr_1'],
    [0, 'čl. 39.', 0, 40, 0, 40, 'usr_1'],
  ];
  assert.deepEqual(
    rows.map((r) => [
      r.grain,
      r.day,
      r.tax_rate_bp,
      r.exemption,
      r.documents,
      r.net_minor,
      r.tax_minor,
      r.total_minor,
      r.operator_id,
    ]),
    [
      ...days.map((r) => ['day', '2026-11-26', ...r]),
      // The same again for the month, keyed by its first day.
      ...days.map((r) => ['month', '2026-11-01', ...r]),
    ],
  );
});

test('no issuing user is the empty operator; a long exemption reason keys by its first 500 characters', () => {
  const [row] = documentTotals(sale({ exemption_reason: 'ž'.repeat(700) }), [line(0, 10, 0)], '2026-11-26');
  assert.equal(row!.operator_id, '');
  assert.equal(row!.exemption, 'ž'.repeat(500));
});
