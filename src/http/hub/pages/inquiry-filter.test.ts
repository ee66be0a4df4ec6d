// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dayStart, filterParams, readInquiryFilter } from './inquiry-filter.ts';
import { hubTranslator } from '../texts/index.ts';

test('a day starts at midnight in the company zone, in winter and in summer time', () => {
  assert.equal(dayStart('2026-01-15', 'Europe/Zagreb'), '2026-01-14T23:00:00.000Z');
  assert.equal(dayStart('2026-07-15', 'Europe/Zagreb'), '2026-07-14T22:00:00.000Z');
  assert.equal(
    dayStart('2026-12-31', 'Europe/Zagreb', 1),
    '2026-12-31T23:00:00.000Z',
    '"until" the last day of the year: the next one starts',
  );
  assert.equal(dayStart('2026-03-01', 'UTC'), '2026-03-01T00:00:00.000Z');
  for (const bad of ['2026-02-30', '2026-13-01', '15.01.2026', '2026-1-5', ''])
    assert.equal(dayStart(bad, 'UTC'), null, bad);
});

test('the filter form: known states only, trimmed text, bad dates as field errors', () => {
  const t = hubTranslator('en');
  const { form, filter, errors } = readInquiryFilter(
    { state: 'open', q: '  lak ', topic: ['a', 'b'], from: '2026-02-30', to: '2026-01-15' },
    'Europe/Zagreb',
    t,
  );
  assert.deepEqual(form, { topic: '', state: 'open', q: 'lak', from: '2026-02-30', to: '2026-01-15' });
  assert.deepEqual(filter, { state: 'open', q: 'lak', to: '2026-01-15T23:00:00.000Z' });
  assert.deepEqual(errors, { from: 'Enter a date as YYYY-MM-DD.' });
  assert.equal(readInquiryFilter({ state: 'everything' }, 'UTC', t).form.state, '');
  assert.equal(filterParams(form).toString(), 'state=open&q=lak&from=2026-02-30&to=2026-01-15');
});
