// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp, createTenant } from '../../support/test-app.ts';
import { createDatabase } from '../../../src/db/database.ts';
import { EVENTS, enqueueEvent } from '../../../src/modules/webhooks/index.ts';
import { createSqliteQueue } from '../../../src/modules/webhooks/queue/sqlite-queue.ts';

test("SQLite queue: a claim that finds the write lock taken does not sleep in SQLite's busy handler, and leaves the connection as it was", async (t) => {
  const app = await createTestApp();
  t.after(() => app.close());
  const now = '2026-03-02T08:00:00.000Z';
  const demo = await createTenant(app.c);
  await app.c.endpoints.create(demo.companyId, { kind: 'http', url: 'http://127.0.0.1:9/never-called' });
  await app.c.store.transaction(async (repos) => {
    for (let i = 0; i < 3; i++) {
      await enqueueEvent(
        repos,
        {
          companyId: demo.companyId,
          locationId: demo.locations[0]!.id,
          type: 'quote.created',
          data: { ...EVENTS['quote.created'].example, number: `Q-TEST-${i}` },
        },
        { now, newId: app.c.newId },
      );
    }
  });
  const db = app.c.database.db;
  const queue = createSqliteQueue({ db, worker: 'w', applyEndpointWork: async () => {} });
  const other = createDatabase(app.c.config.databaseUrl); // another process, as far as SQLite can tell
  t.after(() => other.close());
  const settings = async () => [
    (await sql<{ timeout: number }>`pragma busy_timeout`.execute(db)).rows[0]!.timeout,
    (await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db)).rows[0]!.wal_autocheckpoint,
    (await sql<{ synchronous: number }>`pragma synchronous`.execute(db)).rows[0]!.synchronous,
  ];
  const before = await settings();
  assert.equal(
    before[2],
    2,
    "the API's commits are FULL (on disk before a 201); the queue's own are NORMAL only inside its transaction",
  );

  await sql`begin immediate`.execute(other.db);
  let claimed: number | null = null;
  const claim = queue.claim(10, { now, until: '2026-03-02T08:00:40.000Z' }).then((rows) => (claimed = rows.length));
  // While the claim waits for the lock, the one connection stays free for everything else
  // between its tries (SQLite's busy handler would hold it, asleep), with its own settings.
  for (let i = 0; i < 20; i++) {
    assert.deepEqual(await settings(), before, "the connection's settings are back for everyone else");
    await new Promise((resolve) => setImmediate(resolve));
  }
  assert.equal(claimed, null, 'no lease without the lock');
  await sql`commit`.execute(other.db);
  await claim;
  assert.equal(claimed, 3, 'claimed once the lock was free, with the events');
  assert.deepEqual(await settings(), before);
});
