// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { afterWorkingDays, croatianHolidays, easterSunday, isWorkingDay } from './working-days.ts';
import { lateDeliveryDeadline } from './late-delivery.ts';

test('Easter Sunday of known years', () => {
  // Published dates of (Western) Easter.
  const known: Record<number, string> = {
    2024: '2024-03-31',
    2025: '2025-04-20',
    2026: '2026-04-05',
    2027: '2027-03-28',
    2028: '2028-04-16',
    2038: '2038-04-25',
    2285: '2285-03-22',
  };
  for (const [year, day] of Object.entries(known)) assert.equal(easterSunday(Number(year)), day, year);
});

test('the holidays of 2026 include the movable ones', () => {
  const days = croatianHolidays(2026);
  for (const day of ['2026-04-05', '2026-04-06', '2026-06-04', '2026-05-30', '2026-11-18', '2026-08-05'])
    assert.ok(days.has(day), day);
  assert.equal(days.size, 14);
  assert.equal(isWorkingDay('2026-04-06'), false, 'Easter Monday');
  assert.equal(isWorkingDay('2026-06-04'), false, 'Corpus Christi');
  assert.equal(isWorkingDay('2026-06-05'), true);
  assert.equal(isWorkingDay('2026-11-28'), false, 'a Saturday');
});

test('two working days skip the weekend and the holidays', () => {
  assert.equal(afterWorkingDays('2026-03-02', 2), '2026-03-04', 'Monday: Tuesday, Wednesday');
  assert.equal(afterWorkingDays('2026-03-05', 2), '2026-03-09', 'Thursday: Friday, Monday');
  assert.equal(afterWorkingDays('2026-04-02', 2), '2026-04-07', 'before Easter: Friday, (Easter Monday) Tuesday');
  assert.equal(afterWorkingDays('2026-12-24', 2), '2026-12-29', 'Christmas Eve: 25, 26 and the weekend skipped');
  assert.equal(afterWorkingDays('2026-06-03', 2), '2026-06-08', 'before Corpus Christi: Friday, Monday');
  assert.equal(afterWorkingDays('2025-12-31', 2), '2026-01-05', 'New Year: Friday 2nd, Monday 5th');
});

test('the late-delivery deadline is the end of the second working day where the company is', () => {
  // Issued on Maundy Thursday 2026 at 23:30 in Zagreb (21:30 UTC): Friday, then Tuesday after Easter.
  assert.equal(lateDeliveryDeadline('2026-04-02T21:30:00.000Z', 'Europe/Zagreb'), '2026-04-07T22:00:00.000Z');
  // 00:30 on Friday in Zagreb is still Thursday in UTC: the company's day counts.
  assert.equal(lateDeliveryDeadline('2026-04-02T22:30:00.000Z', 'Europe/Zagreb'), '2026-04-08T22:00:00.000Z');
  // Winter time: midnight in Zagreb is 23:00 UTC.
  assert.equal(lateDeliveryDeadline('2026-12-24T10:00:00.000Z', 'Europe/Zagreb'), '2026-12-29T23:00:00.000Z');
});
