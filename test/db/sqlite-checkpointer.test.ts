// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { createLogger } from '../../src/lib/logger.ts';
import { startSqliteCheckpointer } from '../../src/db/sqlite-checkpointer.ts';

test('the checkpoint thread copies committed pages back into the database file while another connection writes', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-checkpoint-'));
  const file = path.join(dir, 'portico.sqlite');
  // Waits for locks as Portico's connections do: the thread opening its own connection briefly
  // takes the WAL index, and a busy machine made this writer fail at once with SQLITE_BUSY.
  const db = new DatabaseSync(file, { timeout: 10_000 });
  try {
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA wal_autocheckpoint = 0'); // this connection never checkpoints: only the thread can
    db.exec('CREATE TABLE t (x BLOB)');
    const initialSize = fs.statSync(file).size;
    const checkpointer = startSqliteCheckpointer(file, createLogger('silent'));
    try {
      const insert = db.prepare('INSERT INTO t (x) VALUES (?)');
      const pages = 600;
      for (let i = 0; i < pages; i++) insert.run(Buffer.alloc(3000, i % 251)); // a page each, one commit each

      const deadline = Date.now() + 10_000;
      while (fs.statSync(file).size < initialSize + 500 * 4096 && Date.now() < deadline) await sleep(20);
      assert.ok(
        fs.statSync(file).size >= initialSize + 500 * 4096,
        `the database file grew from ${initialSize} to only ${fs.statSync(file).size} bytes`,
      );
      const [row] = db.prepare('SELECT count(*) AS n FROM t').all() as Array<{ n: number }>;
      assert.equal(row!.n, pages, 'every row is still there');
    } finally {
      await checkpointer.stop(); // resolves: the thread is waited for, not left to the event loop
    }
  } finally {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
