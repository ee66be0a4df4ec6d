// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createFormatter } from './format.ts';

const zagreb = { currency: 'EUR', timeZone: 'Europe/Zagreb' };

/** Intl separates number and unit with no-break spaces (so a print never splits "25 %"); compared as spaces. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

test("money from integer cents, in each locale's notation", () => {
  assert.equal(plain(createFormatter('hr-HR', zagreb).money(123450)), '1.234,50 €');
  assert.equal(createFormatter('hr-HR', zagreb).money(123450), '1.234,50\u00a0€');
  assert.equal(plain(createFormatter('de-DE', zagreb).money(123450)), '1.234,50 €');
  assert.equal(plain(createFormatter('de-AT', zagreb).money(5)), '€ 0,05');
  assert.equal(plain(createFormatter('en', zagreb).money(123450)), '€1,234.50');
  assert.equal(plain(createFormatter('hr', { currency: 'USD', timeZone: 'UTC' }).money(-250)), '−2,50 USD');
});

test('money is exact beyond the range of a double', () => {
  // 2^53 + 1 cents cannot be held by a float; the decimal string reaches Intl intact.
  assert.equal(plain(createFormatter('en', zagreb).money(9_007_199_254_740_993n)), '€90,071,992,547,409.93');
});

test('quantities up to three decimals, tax rates from basis points', () => {
  const hr = createFormatter('hr-HR', zagreb);
  assert.equal(plain(hr.quantity(1500)), '1,5');
  assert.equal(plain(hr.quantity(333)), '0,333');
  assert.equal(plain(hr.quantity(1_234_000)), '1.234');
  assert.equal(plain(hr.percent(2500)), '25 %');
  assert.equal(plain(hr.percent(950)), '9,5 %');
  assert.equal(plain(createFormatter('en', zagreb).percent(1300)), '13%');
  assert.equal(plain(createFormatter('de-DE', zagreb).percent(1900)), '19 %');
});

test('dates are the calendar day where the company is', () => {
  // 23:30 UTC on New Year's Eve is already 1 January in Zagreb.
  const instant = '2026-12-31T23:30:00.000Z';
  assert.equal(plain(createFormatter('hr-HR', zagreb).date(instant)), '1. sij 2027.');
  assert.equal(plain(createFormatter('de-DE', zagreb).date(instant)), '01.01.2027');
  assert.equal(plain(createFormatter('en', { currency: 'EUR', timeZone: 'UTC' }).date(instant)), 'Dec 31, 2026');
  assert.equal(plain(createFormatter('de-DE', zagreb).dateTime(new Date(instant))), '01.01.2027, 00:30');
  assert.throws(() => createFormatter('hr', zagreb).date('not a date'), RangeError);
});

test('printed documents write dates in figures, as invoices do (English keeps the month named)', () => {
  const printed = (tag: string) => createFormatter(tag, { ...zagreb, dates: 'numeric' });
  const instant = '2026-11-26T02:30:00.000Z';
  assert.equal(plain(printed('hr-HR').date(instant)), '26. 11. 2026.');
  assert.equal(plain(printed('hr-HR').dateTime(instant)), '26. 11. 2026. 03:30');
  assert.equal(plain(printed('de-DE').date(instant)), '26.11.2026');
  assert.equal(plain(printed('de-DE').day('2026-12-11')), '11.12.2026');
  assert.equal(plain(printed('en').date(instant)), 'Nov 26, 2026');
  assert.equal(plain(createFormatter('hr-HR', zagreb).date(instant)), '26. stu 2026.', 'the hub keeps the words');
});

test('a decimal offered in a form is written as the reader types it, and reads back', () => {
  assert.equal(createFormatter('hr-HR', zagreb).editable('1234.50'), '1234,50');
  assert.equal(createFormatter('de-DE', zagreb).editable('-0.5'), '-0,5');
  assert.equal(createFormatter('en', zagreb).editable('1234.50'), '1234.50');
});

test('a calendar day (a due date) is the same day wherever the company is', () => {
  const honolulu = { currency: 'USD', timeZone: 'Pacific/Honolulu' };
  const kiritimati = { currency: 'USD', timeZone: 'Pacific/Kiritimati' };
  assert.equal(plain(createFormatter('de-DE', zagreb).day('2026-12-11')), '11.12.2026');
  assert.equal(plain(createFormatter('en', honolulu).day('2026-12-11')), 'Dec 11, 2026');
  assert.equal(plain(createFormatter('hr-HR', kiritimati).day('2026-12-11')), '11. pro 2026.');
});

test('a tag without a catalog formats as English, so labels and figures agree', () => {
  const f = createFormatter('sl-SI', zagreb);
  assert.equal(f.locale, 'en');
  assert.equal(plain(f.money(100)), '€1.00');
  assert.equal(createFormatter('garbage tag', zagreb).locale, 'en');
  assert.throws(() => createFormatter('hr', { currency: 'EURO', timeZone: 'Europe/Zagreb' }), RangeError);
  assert.throws(() => createFormatter('hr', { currency: 'EUR', timeZone: 'Mars/Base' }), RangeError);
});
