// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatDocumentNumber } from './document-number.ts';
import { sequenceKind, testPrefix } from './test-numbers.ts';

test('test documents count in their own series and print with T-', () => {
  assert.equal(sequenceKind('quotation', 'live'), 'quotation');
  assert.equal(sequenceKind('quotation', 'test'), 'test:quotation');
  assert.equal(testPrefix('test') + formatDocumentNumber('Q', 'ZG1', 2026, 1), 'T-Q-ZG1-2026-00001');
  assert.equal(testPrefix('live') + formatDocumentNumber('O', 'ZG1', 2026, 7), 'O-ZG1-2026-00007');
});
