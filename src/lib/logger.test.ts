// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loggableUrl } from './logger.ts';

test('a password-reset token never reaches a log line; other paths are kept', () => {
  assert.equal(loggableUrl('/hub/reset/Xy_z-123abc'), '/hub/reset/[redacted]');
  assert.equal(loggableUrl('/hub/reset/Xy_z-123abc?next=1'), '/hub/reset/[redacted]?next=1');
  assert.equal(loggableUrl('/hub/reset-done'), '/hub/reset-done');
  assert.equal(loggableUrl('/api/v1/public/quotes?format=pdf'), '/api/v1/public/quotes?format=pdf');
});

test("a customer's quotation link token never reaches a log line", () => {
  const token = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde';
  assert.equal(loggableUrl(`/q/${token}`), '/q/[redacted]');
  assert.equal(loggableUrl(`/q/${token}/accept`), '/q/[redacted]/accept');
  assert.equal(loggableUrl(`/q/${token}?lang=de`), '/q/[redacted]?lang=de');
  assert.equal(loggableUrl('/quotes/qt_1'), '/quotes/qt_1');
});
