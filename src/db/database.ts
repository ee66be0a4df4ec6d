import { channel } from 'node:diagnostics_channel';
import fs from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { DB } from './schema.ts';
import type { SqliteSynchronous } from '../config/config.ts';
import { openSqlite } from './sqlite-adapter.ts';
import { preparedName } from './written-statements.ts';

export type Engine = 'sqlite' | 'postgres';

/**
 * Every statement sent, published as `{ sql }` for whoever listens (a test counting a page's
 * queries); with no subscriber it costs one property read per query.
 */
export const queryChannel = channel('portico:db:query');
const log = (event: { query: { sql: string } }) => {
  if (queryChannel.hasSubscribers) queryChannel.publish({ sql: event.query.sql });
};
export type Db = Kysely<DB>;
/** Either the database or an open transaction: repositories accept both. */
export type Executor = Kysely<DB>;

export interface Database {
  readonly db: Db;
  readonly engine: Engine;
  readonly url: string;
  /** PostgreSQL pool, for LISTEN/NOTIFY; null on SQLite. */
  readonly pool: pg.Pool | null;
  /** Rejects when the database does not answer (readiness). */
  ping(): Promise<void>;
  /** The connection pool's figures for /metrics; null where there is no pool (SQLite). */
  stats(): PoolStats | null;
  close(): Promise<void>;
}

/** Connections open, idle, and requests waiting for one. */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

// int8 counts and minor units stay far below 2^53; timestamps are handled as ISO 8601 strings
// everywhere, the same text SQLite stores.
const PG_INT8 = 20;
const PG_TIMESTAMPTZ = 1184;
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === PG_INT8) return (value: string) => Number(value);
    if (oid === PG_TIMESTAMPTZ) return (value: string) => new Date(value).toISOString();
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

/**
 * Runs the written-out statements (written-statements.ts) as named prepared statements: each
 * connection parses and plans one once, then only binds and executes it. Every other query is
 * sent as before, so ad hoc texts never pile up as prepared statements on the server. Those
 * texts name their result columns or return none: PostgreSQL re-plans a prepared statement
 * after a migration by itself, but refuses one whose result row changed shape (`select *`).
 */
class PreparingClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    // A connection that dies while checked out (between two statements of a transaction, say)
    // is emitted as 'error' on the client, where pg-pool listens only while it is idle: without
    // a listener of its own that error ends the process. The query that meets the dead
    // connection fails by itself (and the request with a 503); on release the pool sees the
    // client is not queryable and drops it.
    this.on('error', () => {});
  }

  // biome-ignore lint/suspicious/noExplicitAny: this stands in for all of pg's query() overloads and passes the others through
  override query(...args: any[]): any {
    const [text, values] = args;
    const name = typeof text === 'string' && Array.isArray(values) ? preparedName(text) : undefined;
    return name ? super.query({ name, text, values }) : (super.query as (...a: unknown[]) => unknown)(...args);
  }
}

async function ping(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}

/** `sqliteSynchronous` (SQLITE_SYNCHRONOUS): `full` unless the operator accepts losing the last commits to a power cut. */
export function createDatabase(
  url: string,
  options: { poolSize?: number; sqliteSynchronous?: SqliteSynchronous } = {},
): Database {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length);
    // Directories made here are the owner's only (an existing one, say /tmp, is left alone).
    if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true, mode: 0o700 });
    const db = new Kysely<DB>({
      dialect: new SqliteDialect({ database: openSqlite(file, { synchronous: options.sqliteSynchronous ?? 'full' }) }),
      log,
    });
    return {
      db,
      engine: 'sqlite',
      url,
      pool: null,
      ping: () => ping(db),
      stats: () => null,
      close: () => db.destroy(),
    };
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    types: pgTypes,
    Client: PreparingClient,
    // A request waits this long for a connection, then fails (a 503) rather than hanging while
    // the database is away.
    connectionTimeoutMillis: 10_000,
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), log });
  return {
    db,
    engine: 'postgres',
    url,
    pool,
    ping: () => ping(db),
    stats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => db.destroy(),
  };
}
