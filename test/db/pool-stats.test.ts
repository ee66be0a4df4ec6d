// test-engines: both
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp, onPostgres, type TestApp } from '../support/test-app.ts';

// /metrics reads the pool through database.stats(), not through the pg pool itself.
describe('database.stats()', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test(`counts a connection a transaction holds as in use, and none is waiting (${onPostgres() ? 'PostgreSQL' : 'SQLite: no pool'})`, async () => {
    if (!onPostgres()) {
      assert.equal(t.c.database.stats(), null);
      return;
    }
    const during = await t.c.database.db.transaction().execute(async (tx) => {
      await sql`select 1`.execute(tx);
      return t.c.database.stats()!;
    });
    assert.ok(during.total >= 1, JSON.stringify(during));
    assert.ok(during.total - during.idle >= 1, `the transaction's connection is not idle: ${JSON.stringify(during)}`);
    assert.equal(during.waiting, 0);
    const afterwards = t.c.database.stats()!;
    assert.equal(afterwards.idle, afterwards.total, 'released once the transaction ends');
  });
});
