// test-engines: both
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { createDatabase, type Db } from '../../src/db/database.ts';
import { createTestApp } from '../support/test-app.ts';

// These run on SQLite whatever TEST_DATABASE_URL says: they are about SQLite's own files.
const mode = (file: string) => (fs.statSync(file).mode & 0o777).toString(8);
const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'portico-sqlite-files-'));

async function synchronous(db: Db): Promise<number> {
  const { rows } = await sql<{ synchronous: number }>`pragma synchronous`.execute(db);
  return rows[0]!.synchronous;
}

test("the database, its WAL, its shared memory and the directories made for them are the owner's only", async () => {
  const dir = tempDir();
  const file = path.join(dir, 'nested', 'data', 'portico.sqlite');
  const database = createDatabase(`sqlite:${file}`);
  try {
    await sql`create table t (x text)`.execute(database.db);
    await sql`insert into t values ('Ana Kovač, ana@example.com')`.execute(database.db);
    assert.equal(mode(path.join(dir, 'nested')), '700');
    assert.equal(mode(path.dirname(file)), '700');
    assert.equal(mode(file), '600');
    assert.equal(mode(`${file}-wal`), '600', 'the WAL holds the latest rows');
    assert.equal(mode(`${file}-shm`), '600');
  } finally {
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a database an earlier version left readable to others is closed to them at the next open', async () => {
  const dir = tempDir();
  const file = path.join(dir, 'portico.sqlite');
  const first = createDatabase(`sqlite:${file}`);
  await sql`create table t (x text)`.execute(first.db);
  await first.close();
  fs.chmodSync(file, 0o644);
  fs.chmodSync(dir, 0o755);
  const again = createDatabase(`sqlite:${file}`);
  try {
    assert.equal(mode(file), '600');
    assert.equal(mode(dir), '755', "a directory that already existed is not Portico's to change");
  } finally {
    await again.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('every commit is synced to disk (synchronous=FULL) unless SQLITE_SYNCHRONOUS=normal', async () => {
  const FULL = 2;
  const NORMAL = 1;
  const dir = tempDir();
  try {
    const direct = createDatabase(`sqlite:${path.join(dir, 'direct.sqlite')}`);
    assert.equal(await synchronous(direct.db), FULL, 'the database layer defaults to durable');
    await direct.close();

    // Through the configuration, as `serve` builds it.
    for (const [setting, expected] of [
      [undefined, FULL],
      ['normal', NORMAL],
      ['full', FULL],
    ] as const) {
      const t = await createTestApp({
        DATABASE_URL: `sqlite:${path.join(dir, `app-${setting ?? 'default'}.sqlite`)}`,
        ...(setting ? { SQLITE_SYNCHRONOUS: setting } : {}),
      });
      try {
        assert.equal(await synchronous(t.c.database.db), expected, `SQLITE_SYNCHRONOUS=${setting ?? '(unset)'}`);
      } finally {
        await t.close();
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
