// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSignInThrottle, memoryFailureCounts, type FailureCounts } from './sign-in-throttle.ts';

function setup(counts?: FailureCounts) {
  let now = Date.parse('2026-11-25T08:00:00Z');
  const slept: number[] = [];
  const throttle = createSignInThrottle({
    counts: counts ?? memoryFailureCounts({ now: () => new Date(now) }),
    limit: 3,
    windowMs: 15 * 60_000,
    sleep: async (ms) => void slept.push(ms),
  });
  const attempt = (ok: boolean, email = 'ana@example.com', address = '10.0.0.1') =>
    throttle.run(email, address, async () => ({ ok, value: ok }));
  return { throttle, slept, attempt, advance: (ms: number) => (now += ms) };
}

test('successes never count; failures past the limit are held back 1 s, doubling to 8 s; the window ends it', async () => {
  const { slept, attempt, advance, throttle } = setup();
  for (let i = 0; i < 10; i++) assert.equal(await attempt(true), true);
  assert.deepEqual(slept, [], 'successful sign-ins are never slowed');
  for (let i = 0; i < 3; i++) await attempt(false);
  assert.deepEqual(slept, []);
  assert.equal(await attempt(true), true, 'the right password past the limit signs in');
  for (let i = 0; i < 5; i++) await attempt(false);
  assert.deepEqual(slept, [1000, 1000, 2000, 4000, 8000, 8000]);
  assert.deepEqual(
    [...(await throttle.failures(['ana@example.com', 'other@example.com']))],
    [
      ['ana@example.com', 8],
      ['other@example.com', 0],
    ],
  );
  advance(15 * 60_000);
  await attempt(true);
  assert.equal(slept.length, 6, 'a new window starts clean');
});

test('one address guessing many e-mails is slowed at ten times the limit', async () => {
  const { slept, attempt } = setup();
  for (let i = 0; i < 30; i++) await attempt(false, `user${i}@example.com`);
  assert.deepEqual(slept, []);
  await attempt(true, 'someone@example.com');
  assert.deepEqual(slept, [1000]);
});

test('counts that cannot be read or written (Redis away) slow nothing and fail nothing', async () => {
  const broken: FailureCounts = {
    add: async () => Promise.reject(new Error('redis down')),
    get: async () => Promise.reject(new Error('redis down')),
  };
  const { slept, attempt } = setup(broken);
  for (let i = 0; i < 10; i++) assert.equal(await attempt(false), false);
  assert.equal(await attempt(true), true);
  assert.deepEqual(slept, []);
});
