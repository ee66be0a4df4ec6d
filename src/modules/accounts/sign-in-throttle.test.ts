// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSignInThrottle, memoryFailureCounts, SignInBusy, type FailureCounts } from './sign-in-throttle.ts';

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

test('at most maxHeld attempts of one e-mail wait at once; one more is busy at once, unchecked and uncounted', async () => {
  const now = Date.parse('2026-11-25T08:00:00Z');
  const wakes: Array<() => void> = [];
  const throttle = createSignInThrottle({
    counts: memoryFailureCounts({ now: () => new Date(now) }),
    limit: 3,
    windowMs: 15 * 60_000,
    maxHeld: 2,
    sleep: () => new Promise<void>((r) => wakes.push(r)),
  });
  let checked = 0;
  const attempt = (ok: boolean, email = 'ana@example.com') =>
    throttle.run(email, '10.0.0.1', async () => (checked++, { ok, value: ok }));
  for (let i = 0; i < 3; i++) await attempt(false);
  checked = 0;
  const held = [attempt(false), attempt(false)];
  await new Promise((r) => setImmediate(r));
  assert.equal(wakes.length, 2, 'two held back');
  await assert.rejects(attempt(true), (error: unknown) => error instanceof SignInBusy && error.retryAfterSeconds === 1);
  assert.equal(checked, 0, 'the busy one was not checked');
  // Another e-mail has places of its own.
  const other = attempt(true, 'ivo@example.com');
  assert.equal(await other, true);
  for (const wake of wakes.splice(0)) wake();
  assert.deepEqual(await Promise.all(held), [false, false]);
  assert.equal((await throttle.failures(['ana@example.com'])).get('ana@example.com'), 5, 'the busy one did not count');
  const right = attempt(true);
  await new Promise((r) => setImmediate(r));
  for (const wake of wakes.splice(0)) wake();
  assert.equal(await right, true, 'once a place is free the right password signs in');
});
