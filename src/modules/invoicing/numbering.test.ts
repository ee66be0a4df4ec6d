// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { invoiceSeries } from './numbering.ts';

const zagreb = { id: 'loc_zg', code: 'ZG1', fiscal_premises: null, fiscal_device: null };
const first = { id: 'loc_first', code: 'VZ1', fiscal_premises: null, fiscal_device: null };

test('Croatia: {sequence}/{premises}/{device}, premises and device from the location (code and 1 by default)', () => {
  const series = invoiceSeries({ country: 'HR', sequenceMode: 'premises' }, zagreb, [first, zagreb], 2026);
  assert.equal(series.format(12), '12/ZG1/1');
  assert.equal(series.locationId, 'loc_zg');
  assert.equal(series.kind, 'invoice');
  const labelled = invoiceSeries(
    { country: 'HR', sequenceMode: 'premises' },
    { ...zagreb, fiscal_premises: 'POSL1', fiscal_device: '12' },
    [first, zagreb],
    2026,
  );
  assert.equal(labelled.format(1234567890), '1234567890/POSL1/12');
});

test('Croatia, mode N: one series per device of the premises', () => {
  const one = invoiceSeries(
    { country: 'HR', sequenceMode: 'device' },
    { ...zagreb, fiscal_device: '1' },
    [zagreb],
    2026,
  );
  const two = invoiceSeries(
    { country: 'HR', sequenceMode: 'device' },
    { ...zagreb, fiscal_device: '2' },
    [zagreb],
    2026,
  );
  assert.notEqual(one.kind, two.kind);
  assert.equal(one.locationId, two.locationId);
  assert.equal(two.format(3), '3/ZG1/2');
});

test('elsewhere: {year}-{sequence}, one series per company (kept at its first location)', () => {
  const series = invoiceSeries({ country: 'DE', sequenceMode: 'premises' }, zagreb, [first, zagreb], 2026);
  assert.equal(series.format(7), '2026-7');
  assert.equal(series.locationId, 'loc_first');
  assert.equal(series.premises, null);
});

test('Croatia: a second till is a second location of the same premises, another device; one run per premises (P), per device (N)', () => {
  const till1 = { id: 'loc_till1', code: 'ZG1', fiscal_premises: null, fiscal_device: '1' };
  const till2 = { id: 'loc_till2', code: 'ZG2', fiscal_premises: 'ZG1', fiscal_device: '2' };
  const split = { id: 'loc_st', code: 'ST1', fiscal_premises: null, fiscal_device: null };
  const locations = [till1, split, till2];
  const p1 = invoiceSeries({ country: 'HR', sequenceMode: 'premises' }, till1, locations, 2026);
  const p2 = invoiceSeries({ country: 'HR', sequenceMode: 'premises' }, till2, locations, 2026);
  assert.deepEqual([p1.locationId, p1.kind], [p2.locationId, p2.kind], 'P: one counter for the premises');
  assert.equal(p1.locationId, 'loc_till1');
  assert.deepEqual([p1.format(1), p2.format(2)], ['1/ZG1/1', '2/ZG1/2']);
  const other = invoiceSeries({ country: 'HR', sequenceMode: 'premises' }, split, locations, 2026);
  assert.equal(other.locationId, 'loc_st', 'another premises counts on its own');
  const n1 = invoiceSeries({ country: 'HR', sequenceMode: 'device' }, till1, locations, 2026);
  const n2 = invoiceSeries({ country: 'HR', sequenceMode: 'device' }, till2, locations, 2026);
  assert.notEqual(n1.kind, n2.kind, 'N: a run per device');
  assert.equal(n2.format(1), '1/ZG1/2');
});
