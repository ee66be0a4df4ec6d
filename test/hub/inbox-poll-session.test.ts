// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, createTenant } from '../support/test-app.ts';

test("the header's polling reads the session without extending it; a page view extends it", async () => {
  let now = Date.now();
  const t = await createTestApp({}, { clock: { now: () => new Date(now) } });
  try {
    const demo = await createTenant(t.c, { passwords: true });
    const support = demo.users.find((u) => u.role === 'support')!;
    const { token } = await t.c.accounts.signIn(support.email, support.password!);
    const lastSeen = async () =>
      (
        await t.c.database.db
          .selectFrom('hub_sessions')
          .select('last_seen_at')
          .where('user_id', '=', support.id)
          .executeTakeFirstOrThrow()
      ).last_seen_at;
    const signedInAt = await lastSeen();
    const cookie = `portico_session=${token}`;

    now += 5 * 60_000;
    const poll = await t.app.inject({
      method: 'GET',
      url: '/hub/notifications/count',
      headers: { cookie, 'hx-request': 'true' },
    });
    assert.equal(poll.statusCode, 200, poll.body);
    assert.equal(poll.body, '');
    assert.equal(await lastSeen(), signedInAt, 'polling is not activity');

    const view = await t.app.inject({ method: 'GET', url: '/hub/notifications', headers: { cookie } });
    assert.equal(view.statusCode, 200);
    assert.notEqual(await lastSeen(), signedInAt, 'opening a page is');
  } finally {
    await t.close();
  }
});
