import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/**
 * Makes Node's built-in `node:sqlite` look like the better-sqlite3 interface Kysely's
 * SqliteDialect drives, so the embedded database needs no native addon.
 */
export function openSqlite(file: string): SqliteDatabase {
  const db = new DatabaseSync(file, { timeout: 10_000 });
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = NORMAL');
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
