// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_RETRY_DELAYS_MS, nextRetryDelay, parseRetryAfter } from './retry-schedule.ts';

const H = 3_600_000;
const mid = (): number => 0.5; // no jitter

test('default schedule', () => {
  assert.deepEqual(
    [...DEFAULT_RETRY_DELAYS_MS],
    [5_000, 300_000, 1_800_000, 2 * H, 5 * H, 10 * H, 10 * H, 14 * H, 20 * H, 24 * H],
  );
});

test('attempt n failed → delays[n-1]; exhausted → null', () => {
  const d = DEFAULT_RETRY_DELAYS_MS;
  assert.equal(nextRetryDelay(1, d, mid, null), 5_000);
  assert.equal(nextRetryDelay(2, d, mid, null), 300_000);
  assert.equal(nextRetryDelay(10, d, mid, null), 24 * H);
  assert.equal(nextRetryDelay(11, d, mid, null), null);
  assert.equal(nextRetryDelay(50, d, mid, null), null);
  assert.equal(nextRetryDelay(1, [], mid, null), null);
  assert.equal(nextRetryDelay(0, d, mid, null), 5_000);
});

test('jitter stays within ±20% and never below 0', () => {
  const d = [10_000];
  assert.equal(
    nextRetryDelay(1, d, () => 0, null),
    8_000,
  );
  assert.equal(
    nextRetryDelay(1, d, () => 0.999999, null),
    12_000,
  );
  for (let i = 0; i < 1000; i++) {
    const v = nextRetryDelay(1, d, Math.random, null)!;
    assert.ok(v >= 8_000 && v <= 12_000, String(v));
  }
  assert.equal(
    nextRetryDelay(1, [0], () => 0, null),
    0,
  );
  assert.equal(
    nextRetryDelay(1, [10_000], () => -5, null),
    8_000,
  );
});

test('Retry-After: max(retryAfter, jittered), capped at 24h', () => {
  const d = [5_000, 300_000];
  assert.equal(nextRetryDelay(1, d, mid, 60_000), 60_000);
  assert.equal(nextRetryDelay(2, d, mid, 60_000), 300_000);
  assert.equal(nextRetryDelay(1, d, mid, 0), 5_000);
  assert.equal(nextRetryDelay(1, d, mid, 7 * 24 * H), 24 * H);
  assert.equal(
    nextRetryDelay(1, [30 * H], () => 0.99, 1_000),
    24 * H,
  );
  assert.equal(nextRetryDelay(3, d, mid, 60_000), null);
});

test('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  assert.equal(parseRetryAfter('120', now), 120_000);
  assert.equal(parseRetryAfter(' 0 ', now), 0);
  assert.equal(parseRetryAfter('Wed, 01 Jan 2025 00:01:30 GMT', now), 90_000);
  assert.equal(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now), 0);
  assert.equal(parseRetryAfter('Wednesday, 01-Jan-25 00:00:10 GMT', now), 10_000);
  assert.equal(parseRetryAfter(undefined, now), null);
  assert.equal(parseRetryAfter(null, now), null);
  assert.equal(parseRetryAfter('', now), null);
  assert.equal(parseRetryAfter('-5', now), null);
  assert.equal(parseRetryAfter('1.5', now), null);
  assert.equal(parseRetryAfter('soon', now), null);
  assert.equal(parseRetryAfter('Mon, garbage', now), null);
});
