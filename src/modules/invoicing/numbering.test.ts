// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { invoiceSeries } from './numbering.ts';

const zagreb = { id: 'loc_zg', code: 'ZG1', fiscal_premises: null, fiscal_device: null };

test('Croatia: {sequence}/{premises}/{device}, premises and device from the location (code and 1 by default)', () => {
  const series = invoiceSeries({ country: 'HR', sequenceMode: 'premises' }, zagreb, 'loc_first', 2026);
  assert.equal(series.format(12), '12/ZG1/1');
  assert.equal(series.locationId, 'loc_zg');
  assert.equal(series.kind, 'invoice');
  const labelled = invoiceSeries(
    { country: 'HR', sequenceMode: 'premises' },
    { ...zagreb, fiscal_premises: 'POSL1', fiscal_device: '12' },
    'loc_first',
    2026,
  );
  assert.equal(labelled.format(1234567890), '1234567890/POSL1/12');
});

test('Croatia, mode N: one series per device of the premises', () => {
  const one = invoiceSeries({ country: 'HR', sequenceMode: 'device' }, { ...zagreb, fiscal_device: '1' }, 'x', 2026);
  const two = invoiceSeries({ country: 'HR', sequenceMode: 'device' }, { ...zagreb, fiscal_device: '2' }, 'x', 2026);
  assert.notEqual(one.kind, two.kind);
  assert.equal(one.locationId, two.locationId);
  assert.equal(two.format(3), '3/ZG1/2');
});

test('elsewhere: {year}-{sequence}, one series per company (kept at its first location)', () => {
  const series = invoiceSeries({ country: 'DE', sequenceMode: 'premises' }, zagreb, 'loc_first', 2026);
  assert.equal(series.format(7), '2026-7');
  assert.equal(series.locationId, 'loc_first');
  assert.equal(series.premises, null);
});
