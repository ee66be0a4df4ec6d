// test-engines: both
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, createTenant, bearer, type TestApp } from '../../support/test-app.ts';
import { assertProblem, waitFor, type Res } from '../../support/http-helpers.ts';

const CHEAP = '/api/v1/public/categories';
const REDIS_URL = 'redis://127.0.0.1:6379';

const hit = (t: TestApp, key: string): Promise<Res> =>
  t.app.inject({ method: 'GET', url: CHEAP, headers: bearer(key) });

function assertLimited(res: Res, limit: number): void {
  const problem = assertProblem(res, 429, 'rate_limited');
  assert.match(problem.detail, new RegExp(`${limit}`));
  const retryAfter = Number(res.headers['retry-after']);
  assert.ok(
    Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60,
    `retry-after: ${res.headers['retry-after']}`,
  );
  assert.equal(res.headers['ratelimit-remaining'], '0');
}

describe('per-key rate limit', () => {
  test('the 6th request of one key in a minute is a 429; other keys and the admin API are unaffected', async () => {
    const t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '5' });
    try {
      const demo = await createTenant(t.c);
      const [first, second] = demo.locations.map((l) => l.apiKey) as [string, string];
      for (let i = 1; i <= 5; i++) {
        const res = await hit(t, first);
        assert.equal(res.statusCode, 200, `request ${i}: ${res.body}`);
        assert.equal(res.headers['ratelimit-limit'], '5');
        assert.equal(res.headers['ratelimit-remaining'], String(5 - i));
        const reset = Number(res.headers['ratelimit-reset']);
        assert.ok(reset >= 0 && reset <= 60, `ratelimit-reset: ${res.headers['ratelimit-reset']}`);
      }
      assertLimited(await hit(t, first), 5);
      const post = await t.app.inject({
        method: 'POST',
        url: '/api/v1/public/reach-out',
        headers: bearer(first),
        payload: {},
      });
      assertLimited(post, 5);

      const other = await hit(t, second);
      assert.equal(other.statusCode, 200, 'another key of the same company has its own budget');
      assert.equal(other.headers['ratelimit-remaining'], '4');

      // Failed authentication is refused before counting: it never spends a real key's budget.
      for (let i = 0; i < 6; i++)
        assert.equal((await hit(t, `ptc_key_${'a'.repeat(20)}_${'b'.repeat(32)}`)).statusCode, 401);
      assert.equal((await hit(t, second)).headers['ratelimit-remaining'], '3');

      const admin = await t.app.inject({
        method: 'GET',
        url: '/api/v1/admin/inquiries',
        headers: bearer(demo.adminToken),
      });
      assert.equal(admin.statusCode, 200);
      assert.equal(admin.headers['ratelimit-limit'], undefined, 'the admin API is not limited per API key');
      assert.equal((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
    } finally {
      await t.close();
    }
  });

  test('two instances sharing Redis share one limit per key', async () => {
    const env = { RATE_LIMIT_PER_MINUTE: '4', REDIS_URL };
    const one = await createTestApp(env);
    // The second instance must see the same database as the first, or it would not know the keys.
    const two = await createTestApp({ ...env, DATABASE_URL: one.c.config.databaseUrl });
    try {
      const demo = await createTenant(one.c);
      const [key, other] = demo.locations.map((l) => l.apiKey) as [string, string];
      // Wait until both instances really count through Redis (see the start-up test below).
      const warm = (
        await one.c.apiKeys.createApiKey(demo.companyId, { locationId: demo.locations[0]!.id, name: 'warm-up' })
      ).key;
      for (const instance of [one, two]) {
        await waitFor(
          'the Redis connection',
          async () => ((await hit(instance, warm)).headers['ratelimit-remaining'] !== '4' ? true : undefined),
          5_000,
        );
      }

      const answers = [await hit(one, key), await hit(one, key), await hit(two, key), await hit(two, key)];
      assert.deepEqual(
        answers.map((r) => r.statusCode),
        [200, 200, 200, 200],
      );
      assert.deepEqual(
        answers.map((r) => r.headers['ratelimit-remaining']),
        ['3', '2', '1', '0'],
        'one counter across both instances',
      );
      assertLimited(await hit(one, key), 4);
      assertLimited(await hit(two, key), 4);

      const fresh = await hit(two, other);
      assert.equal(fresh.statusCode, 200);
      assert.equal(fresh.headers['ratelimit-remaining'], '3');
    } finally {
      await two.close();
      await one.close();
    }
  });

  // The Redis client has no offline queue and the limiter fails open, so an instance must be
  // connected before it serves, or its first requests would go uncounted.
  test('an instance that has just started with Redis counts its very first requests', async () => {
    const env = { RATE_LIMIT_PER_MINUTE: '4', REDIS_URL };
    const one = await createTestApp(env);
    try {
      const demo = await createTenant(one.c);
      const fresh = await createTestApp({ ...env, DATABASE_URL: one.c.config.databaseUrl });
      try {
        const statuses = [];
        for (let i = 0; i < 5; i++) statuses.push((await hit(fresh, demo.locations[0]!.apiKey)).statusCode);
        assert.deepEqual(statuses, [200, 200, 200, 200, 429]);
      } finally {
        await fresh.close();
      }
    } finally {
      await one.close();
    }
  });
});
