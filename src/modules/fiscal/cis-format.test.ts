// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cisAmount, cisPaymentCode, cisRate, cisTimes, oibOf, verifyUrl } from './cis-format.ts';

test('amounts have two decimals, a dot and a sign', () => {
  assert.equal(cisAmount(124556), '1245.56');
  assert.equal(cisAmount(510), '5.10');
  assert.equal(cisAmount(5), '0.05');
  assert.equal(cisAmount(0), '0.00');
  assert.equal(cisAmount(-10550), '-105.50');
  assert.throws(() => cisAmount(1.5));
});

test('rates are written with two decimals', () => {
  assert.equal(cisRate('25'), '25.00');
  assert.equal(cisRate('13.0'), '13.00');
  assert.equal(cisRate('5.5'), '5.50');
  assert.equal(cisRate('0'), '0.00');
  assert.throws(() => cisRate('25%'));
});

test("times are the company's wall clock, summer and winter, in the three forms", () => {
  assert.deepEqual(cisTimes('2026-07-01T04:30:09Z', 'Europe/Zagreb'), {
    xml: '01.07.2026T06:30:09',
    zki: '01.07.2026 06:30:09',
    qr: '20260701_0630',
  });
  assert.equal(cisTimes('2026-12-31T23:00:00Z', 'Europe/Zagreb').xml, '01.01.2027T00:00:00');
});

test('payment methods map to NacinPlac codes', () => {
  assert.deepEqual((['cash', 'card', 'bank_transfer', 'other'] as const).map(cisPaymentCode), ['G', 'K', 'T', 'O']);
});

test('the verification URL uses the JIR once known, the ZKI before; cents without separator', () => {
  const jir = 'a1b2c3d4-0000-4000-8000-000000000001';
  const zki = 'a1e6b1428f0cc755f0c82aa7a1327e35';
  assert.equal(
    verifyUrl({ jir, zki, qrTime: '20200921_0630', totalMinor: 152599 }),
    `https://porezna.gov.hr/rn?jir=${jir}&datv=20200921_0630&izn=152599`,
  );
  assert.equal(
    verifyUrl({ jir: null, zki, qrTime: '20200921_0630', totalMinor: -10550 }),
    `https://porezna.gov.hr/rn?zki=${zki}&datv=20200921_0630&izn=-10550`,
  );
});

test('an OIB is read from a tax id with or without the HR prefix', () => {
  assert.equal(oibOf('HR12345678903'), '12345678903');
  assert.equal(oibOf('12345678903'), '12345678903');
  assert.equal(oibOf('DE136695976'), null);
  assert.equal(oibOf(null), null);
});
