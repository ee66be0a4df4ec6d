// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buckets, localDate, previousPeriod, startOfDay, totalsSpans } from './periods.ts';

test('a day starts at local midnight, across both DST changes in Zagreb', () => {
  assert.equal(startOfDay('2026-11-26', 'Europe/Zagreb'), '2026-11-25T23:00:00.000Z');
  assert.equal(startOfDay('2026-07-01', 'Europe/Zagreb'), '2026-06-30T22:00:00.000Z');
  // 29 March 2026 has 23 hours, 25 October 2026 has 25.
  assert.equal(startOfDay('2026-03-29', 'Europe/Zagreb'), '2026-03-28T23:00:00.000Z');
  assert.equal(startOfDay('2026-03-30', 'Europe/Zagreb'), '2026-03-29T22:00:00.000Z');
  assert.equal(startOfDay('2026-10-25', 'Europe/Zagreb'), '2026-10-24T22:00:00.000Z');
  assert.equal(startOfDay('2026-10-26', 'Europe/Zagreb'), '2026-10-25T23:00:00.000Z');
  assert.equal(localDate('2026-11-30T23:30:00.000Z', 'Europe/Zagreb'), '2026-12-01');
});

test('buckets: ISO weeks, months clipped to the range, contiguous instants', () => {
  const weeks = buckets('2026-12-28', '2027-01-10', 'week', 'Europe/Berlin');
  assert.deepEqual(
    weeks.map((b) => [b.key, b.from, b.to]),
    [
      ['2026-W53', '2026-12-28', '2027-01-03'],
      ['2027-W01', '2027-01-04', '2027-01-10'],
    ],
  );
  const months = buckets('2026-10-15', '2026-12-31', 'month', 'Europe/Zagreb');
  assert.deepEqual(
    months.map((b) => [b.key, b.from, b.to]),
    [
      ['2026-10', '2026-10-15', '2026-10-31'],
      ['2026-11', '2026-11-01', '2026-11-30'],
      ['2026-12', '2026-12-01', '2026-12-31'],
    ],
  );
  for (let i = 1; i < months.length; i++) assert.equal(months[i]!.start, months[i - 1]!.end);
  assert.throws(() => buckets('2020-01-01', '2026-01-01', 'day', 'UTC'), RangeError);
});

test('the previous period: whole months before whole months, else the same number of days', () => {
  assert.deepEqual(previousPeriod('2026-11-01', '2026-11-30'), { from: '2026-10-01', to: '2026-10-31' });
  assert.deepEqual(previousPeriod('2026-01-01', '2026-12-31'), { from: '2025-01-01', to: '2025-12-31' });
  assert.deepEqual(previousPeriod('2026-03-01', '2026-03-31'), { from: '2026-02-01', to: '2026-02-28' });
  assert.deepEqual(previousPeriod('2026-11-10', '2026-11-16'), { from: '2026-11-03', to: '2026-11-09' });
});

test('running totals: whole months from month rows when no bucket starts inside a month, the rest from days', () => {
  // A year by month: the 12 months.
  const year = [
    '2026-01-01',
    ...Array.from({ length: 11 }, (_, m) => `2026-${String(m + 2).padStart(2, '0')}-01`),
    '2027-01-01',
  ];
  assert.deepEqual(totalsSpans(year), [{ grain: 'month', from: '2026-01-01', to: '2027-01-01' }]);
  // 15 October to 10 December by month: days, October's end and December's start by day.
  assert.deepEqual(totalsSpans(['2026-10-15', '2026-11-01', '2026-12-01', '2026-12-11']), [
    { grain: 'day', from: '2026-10-15', to: '2026-11-01' },
    { grain: 'month', from: '2026-11-01', to: '2026-12-01' },
    { grain: 'day', from: '2026-12-01', to: '2026-12-11' },
  ]);
  // One bucket (the previous period): its whole months too.
  assert.deepEqual(totalsSpans(['2025-12-31', '2026-03-01']), [
    { grain: 'day', from: '2025-12-31', to: '2026-01-01' },
    { grain: 'month', from: '2026-01-01', to: '2026-03-01' },
  ]);
  // By week, or within one month: days only.
  assert.deepEqual(totalsSpans(['2026-11-01', '2026-11-02', '2026-11-09', '2026-12-01']), [
    { grain: 'day', from: '2026-11-01', to: '2026-12-01' },
  ]);
  assert.deepEqual(totalsSpans(['2026-11-03', '2026-11-29']), [{ grain: 'day', from: '2026-11-03', to: '2026-11-29' }]);
});
