import fs from 'node:fs';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import type { SqliteSynchronous } from '../config/config.ts';

/**
 * Makes Node's built-in `node:sqlite` look like the better-sqlite3 interface Kysely's
 * SqliteDialect drives, so the embedded database needs no native addon.
 */
export function openSqlite(file: string, options: { synchronous: SqliteSynchronous }): SqliteDatabase {
  if (file !== ':memory:') ownerOnly(file);
  const db = new DatabaseSync(file, { timeout: 10_000 });
  db.exec('PRAGMA journal_mode = WAL');
  // FULL: in WAL mode every COMMIT fsyncs the WAL before it returns, so a 201 sent after the
  // commit survives a power cut; a group-committed batch pays one fsync, not one per request.
  // NORMAL syncs only at checkpoints: a crash of the process loses nothing, a power cut may
  // lose the last commits. Checkpoints (sqlite-checkpointer.ts) fsync the same either way.
  db.exec(`PRAGMA synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
  db.exec('PRAGMA foreign_keys = ON');
  // A multi-row INSERT inside a transaction keeps a statement journal (a copy of every page it
  // changes, to undo just that statement). Past 64 KiB SQLite moves it to a temporary file:
  // under load that was a file created, written and unlinked on the event loop every few dozen
  // batches. In memory it stays a copy; it is freed when the statement ends.
  db.exec('PRAGMA temp_store = MEMORY');
  // SQLite's own lower() folds ASCII only; product search must match "Šišmiš" from "šišmiš"
  // as PostgreSQL does.
  db.function('lower', { deterministic: true }, (value) => (typeof value === 'string' ? value.toLowerCase() : value));
  const statements = new Map<string, SqliteStatement>();

  return {
    close: () => db.close(),
    prepare(sql: string): SqliteStatement {
      const cached = statements.get(sql);
      if (cached) return cached;
      // Kysely opens transactions with a deferred BEGIN. Another process (the worker) may write
      // between our read and our write, which SQLite answers with SQLITE_BUSY at once instead of
      // waiting; IMMEDIATE takes the write lock up front and lets busy_timeout do the waiting.
      const stmt = db.prepare(sql === 'begin' ? 'begin immediate' : sql);
      const adapted = adapt(stmt);
      if (statements.size > 500) statements.clear();
      statements.set(sql, adapted);
      return adapted;
    },
  };
}

/**
 * The database holds customers' personal data: it, its WAL and its shared-memory file are
 * readable by their owner only. The file is created here rather than by SQLite, with mode 0600
 * in the open(2) itself: SQLite would create it 0644 and a chmod after would leave a moment
 * when it is readable; a umask around the open would change the mode of every file the
 * process creates meanwhile on libuv's threads, and worker threads cannot set one. SQLite
 * gives the WAL and shared-memory files the database file's mode, so they follow. A database
 * left readable to others by an earlier version is closed to them at the next start.
 */
function ownerOnly(file: string): void {
  try {
    fs.closeSync(fs.openSync(file, fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY, 0o600));
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  for (const path of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      if ((fs.statSync(path).mode & 0o077) !== 0) fs.chmodSync(path, 0o600);
    } catch (error) {
      // Gone meanwhile, or another user's file this process may use but not change.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'EPERM') throw error;
    }
  }
}

type SqliteValue = null | number | bigint | string | Uint8Array;

function toSqlite(value: unknown): SqliteValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  return value as SqliteValue;
}

function adapt(stmt: StatementSync): SqliteStatement {
  const reader = stmt.columns().length > 0;
  const params = (parameters: ReadonlyArray<unknown>) => parameters.map(toSqlite);
  return {
    reader,
    all: (parameters) => stmt.all(...params(parameters)),
    run: (parameters) => stmt.run(...params(parameters)),
    iterate: (parameters) => stmt.iterate(...params(parameters)) as IterableIterator<unknown>,
  };
}
