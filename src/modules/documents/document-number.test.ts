// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatDocumentNumber, yearIn } from './document-number.ts';

test('numbers are zero-padded per location and year', () => {
  assert.equal(formatDocumentNumber('Q', 'ZG1', 2026, 42), 'Q-ZG1-2026-00042');
  assert.equal(formatDocumentNumber('O', 'ST', 2027, 123456), 'O-ST-2027-123456');
});

test('the year is the company’s local one', () => {
  const newYearInZagreb = new Date('2026-12-31T23:30:00.000Z');
  assert.equal(yearIn(newYearInZagreb, 'Europe/Zagreb'), 2027);
  assert.equal(yearIn(newYearInZagreb, 'UTC'), 2026);
});
