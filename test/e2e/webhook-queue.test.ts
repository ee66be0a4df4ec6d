import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp, createTenant, onPostgres, type TestApp } from '../support/test-app.ts';
import { createDatabase } from '../../src/db/database.ts';
import { EVENTS, enqueueEvent } from '../../src/modules/webhooks/index.ts';
import type { ClaimedDelivery, FinishedAttempt } from '../../src/modules/webhooks/webhooks.repository.ts';

const engine = onPostgres() ? 'PostgreSQL' : 'SQLite';

/** A tenant with one endpoint and `n` pending deliveries, due at `now`. */
async function queue(app: TestApp, n: number, now: string) {
  const demo = await createTenant(app.c);
  await app.c.endpoints.create(demo.companyId, { kind: 'http', url: 'http://127.0.0.1:9/never-called' });
  await app.c.store.transaction(async (repos) => {
    for (let i = 0; i < n; i++) {
      await enqueueEvent(repos, { companyId: demo.companyId, locationId: demo.locations[0]!.id, type: 'quote.created', data: { ...EVENTS['quote.created'].example, number: `Q-${i}` } }, { now, newId: app.c.newId });
    }
  });
  return demo;
}

function delivered(d: ClaimedDelivery, worker: string, at: string): FinishedAttempt {
  return {
    deliveryId: d.id,
    patch: { status: 'delivered', attempts: d.attempts + 1, next_attempt_at: d.next_attempt_at, last_status_code: 200, last_error: null, delivered_at: at },
    attempt: {
      id: `wha_${d.id.slice(4)}_${worker}`, company_id: d.company_id, delivery_id: d.id, endpoint_id: d.endpoint_id, attempt: d.attempts + 1,
      worker_id: worker, started_at: at, duration_ms: 1, status_code: 200, error: null, response_excerpt: 'ok', success: true,
    },
  };
}

test(`${engine}: a due delivery is leased to one worker at a time, and only its holder can record it`, async (t) => {
  const app = await createTestApp();
  t.after(() => app.close());
  const now = '2026-03-02T08:00:00.000Z';
  const lease = '2026-03-02T08:00:40.000Z';
  await queue(app, 12, now);
  const repo = app.c.store.repos.webhooks;

  const a = await repo.claimDue('worker-a', now, lease, 5);
  const b = await repo.claimDue('worker-b', now, lease, 100);
  assert.equal(a.length, 5);
  assert.equal(b.length, 7, 'the rest, none of the leased ones');
  assert.equal(new Set([...a, ...b].map((d) => d.id)).size, 12);
  assert.match(JSON.parse(a[0]!.payload).data.number, /^Q-\d+$/, 'the event body comes with the claim');
  assert.equal(a[0]!.event_type, 'quote.created');
  assert.equal((await repo.claimDue('worker-c', now, lease, 100)).length, 0, 'nothing left while the leases run');

  // worker-b cannot record worker-a's deliveries; worker-a records its own, with their attempt log
  assert.equal((await app.c.store.transaction((repos) => repos.webhooks.finishAttempts('worker-b', a.map((d) => delivered(d, 'worker-b', now))))).size, 0);
  const recorded = await app.c.store.transaction((repos) => repos.webhooks.finishAttempts('worker-a', a.map((d) => delivered(d, 'worker-a', now))));
  assert.deepEqual([...recorded].sort(), a.map((d) => d.id).sort());
  const rows = await app.c.database.db.selectFrom('webhook_attempts').select(['delivery_id', 'worker_id']).where('delivery_id', 'in', a.map((d) => d.id)).execute();
  assert.deepEqual(rows.map((r) => r.worker_id), a.map(() => 'worker-a'));
  const states = await app.c.database.db.selectFrom('webhook_deliveries').select(['status', 'locked_by']).where('id', 'in', a.map((d) => d.id)).execute();
  assert.ok(states.every((s) => s.status === 'delivered' && s.locked_by === null));

  // a lease that ran out (a crashed worker) returns its deliveries to the queue
  const later = '2026-03-02T08:01:00.000Z';
  const again = await repo.claimDue('worker-c', later, '2026-03-02T08:01:40.000Z', 100);
  assert.deepEqual(again.map((d) => d.id).sort(), b.map((d) => d.id).sort());
  assert.equal((await app.c.store.transaction((repos) => repos.webhooks.finishAttempts('worker-b', b.map((d) => delivered(d, 'worker-b', later))))).size, 0, 'worker-b lost them');
});

test(`${engine}: batches of any size are recorded, in statements of a few fixed sizes`, async (t) => {
  const app = await createTestApp();
  t.after(() => app.close());
  const now = '2026-03-02T08:00:00.000Z';
  await queue(app, 200, now);
  const claimed = await app.c.store.repos.webhooks.claimDue('w', now, '2026-03-02T08:00:40.000Z', 200);
  assert.equal(claimed.length, 200);
  const recorded = await app.c.store.transaction((repos) => repos.webhooks.finishAttempts('w', claimed.slice(0, 199).map((d) => delivered(d, 'w', now))));
  assert.equal(recorded.size, 199);
  const count = await app.c.database.db.selectFrom('webhook_attempts').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  assert.equal(Number(count.n), 199);
});

test('SQLite: a worker that finds the write lock taken does not wait for it', { skip: onPostgres() }, async (t) => {
  const app = await createTestApp();
  t.after(() => app.close());
  const now = '2026-03-02T08:00:00.000Z';
  await queue(app, 3, now);
  const other = createDatabase(app.c.config.databaseUrl); // another process, as far as SQLite can tell
  t.after(() => other.close());
  const repo = app.c.store.repos.webhooks;
  const settings = async () => [
    (await sql<{ timeout: number }>`pragma busy_timeout`.execute(app.c.database.db)).rows[0]!.timeout,
    (await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(app.c.database.db)).rows[0]!.wal_autocheckpoint,
  ];
  const before = await settings();

  await sql`begin immediate`.execute(other.db);
  const started = performance.now();
  const result = await repo.tryWriteTransaction((w) => w.leaseDue('w', now, '2026-03-02T08:00:40.000Z', 10));
  assert.equal(result, null, 'busy: told at once');
  assert.ok(performance.now() - started < 100, 'without sleeping in SQLite\'s busy handler');
  assert.deepEqual(await settings(), before, 'the connection\'s settings are back for everyone else');
  await sql`commit`.execute(other.db);

  const leased = await repo.tryWriteTransaction((w) => w.leaseDue('w', now, '2026-03-02T08:00:40.000Z', 10));
  assert.equal(leased?.length, 3);
  assert.equal((await repo.withEvents(leased!)).length, 3);
  assert.deepEqual(await settings(), before);
});
