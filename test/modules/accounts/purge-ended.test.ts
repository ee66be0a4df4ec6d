// test-engines: both
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Clock } from '../../../src/lib/clock.ts';
import { createTestApp, createTenant } from '../../support/test-app.ts';

/** The hourly sweep deletes what can no longer be used, and nothing else: on both databases. */
test('sessions idle or past their end and reset links past their expiry are swept; live ones stay', async () => {
  let now = Date.parse('2026-11-24T08:00:00.000Z');
  const clock: Clock = { now: () => new Date(now) };
  const t = await createTestApp({ HUB_SESSION_IDLE_MINUTES: '30', HUB_SESSION_MAX_HOURS: '12' }, { clock });
  try {
    const demo = await createTenant(t.c, { passwords: true });
    const [admin, support, staff] = ['admin', 'support', 'staff'].map(
      (role) => demo.users.find((u) => u.role === role)!,
    );
    const db = t.c.database.db;
    const count = async () => ({
      sessions: Number(
        (
          await db
            .selectFrom('hub_sessions')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('company_id', '=', demo.companyId)
            .executeTakeFirstOrThrow()
        ).n,
      ),
      resets: Number(
        (
          await db
            .selectFrom('password_resets')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('company_id', '=', demo.companyId)
            .executeTakeFirstOrThrow()
        ).n,
      ),
    });

    const idle = await t.c.accounts.signIn(support!.email, support!.password!);
    await t.c.accounts.createResetLink(demo.companyId, admin!.id, staff!.id);
    now += 20 * 60_000;
    const busy = await t.c.accounts.signIn(admin!.email, admin!.password!);
    assert.deepEqual(await count(), { sessions: 2, resets: 1 });

    now += 15 * 60_000; // support idle 35 minutes, admin 15
    await t.c.accounts.purgeEnded();
    assert.deepEqual(
      await count(),
      { sessions: 1, resets: 1 },
      'the idle session is gone, the busy one and the link stay',
    );
    assert.equal(await t.c.accounts.authenticate(idle.token), null);
    assert.ok(await t.c.accounts.authenticate(busy.token));

    now += 24 * 3_600_000; // past the link's 24 h and the admin's 12 h
    await t.c.accounts.purgeEnded();
    assert.deepEqual(await count(), { sessions: 0, resets: 0 });
  } finally {
    await t.close();
  }
});
