// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decimalPoint, formatScaled, formatScaledTrimmed, mulDivRound, numberToScaled, parseScaled } from './money.ts';

test('parses and formats scaled decimals exactly', () => {
  assert.equal(parseScaled('12.4', 2), 1240n);
  assert.equal(parseScaled('0.333', 3), 333n);
  assert.equal(parseScaled('-1.05', 2), -105n);
  assert.throws(() => parseScaled('1.234', 2), RangeError);
  assert.throws(() => parseScaled('1e3', 2), RangeError);
  assert.equal(formatScaled(5n, 2), '0.05');
  assert.equal(formatScaled(-105n, 2), '-1.05');
  assert.equal(formatScaledTrimmed(1500n, 3), '1.5');
  assert.equal(formatScaledTrimmed(2500n, 2), '25');
});

test('JSON numbers become thousandths without float error', () => {
  assert.equal(numberToScaled(1.5, 3), 1500n);
  assert.equal(numberToScaled(0.333, 3), 333n);
  assert.equal(numberToScaled(2, 3), 2000n);
  assert.throws(() => numberToScaled(0.0001, 3), RangeError);
  assert.throws(() => numberToScaled(1e21, 0), RangeError);
  assert.throws(() => numberToScaled(1e-7, 3), RangeError);
});

test('rounds half away from zero', () => {
  assert.equal(mulDivRound(5n, 1n, 2n), 3n); // 2.5 → 3
  assert.equal(mulDivRound(-5n, 1n, 2n), -3n);
  assert.equal(mulDivRound(4n, 1n, 3n), 1n); // 1.33 → 1
  assert.equal(mulDivRound(1999n, 333n, 1000n), 666n); // 665.667 → 666
});

test('a decimal comma is read as the point; other text is left for the validator', () => {
  assert.equal(decimalPoint('12,50'), '12.50');
  assert.equal(decimalPoint('12.50'), '12.50');
  assert.equal(decimalPoint('7'), '7');
  assert.equal(decimalPoint(''), '');
  assert.equal(decimalPoint('1,2,3'), '1.2,3');
});
