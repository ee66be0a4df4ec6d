/**
 * The second reference of the reach-out bench: what committing before answering costs on this
 * machine, with nothing of Portico's around it. A bare Fastify app (default options, logger
 * off) whose `POST /durable-echo` answers 201 only once the body is committed the way
 * reach-out commits an inquiry: a row shaped like the inquiry and two like its notifications
 * (time-ordered text ids, one secondary index per table), group-committed per turn of the event
 * loop. No authentication, rate limit, schema validation, foreign keys, idempotency or logging:
 * its req/s is about the most any contact-form endpoint that commits first can reach here.
 *
 *   node bench/support/durable-echo-server.ts sqlite:/path/file.sqlite   # WAL, Portico's SQLITE_SYNCHRONOUS (default FULL), its checkpoint thread
 *   node bench/support/durable-echo-server.ts postgres://…/database      # one statement (one round trip) per batch
 *
 * Prints `READY <port>`.
 */
import { DatabaseSync } from 'node:sqlite';
import Fastify from 'fastify';
import pg from 'pg';
import pino from 'pino';
import { loadConfig, type SqliteSynchronous } from '../../src/config/config.ts';
import { valuesList } from '../../src/db/written-statements.ts';
import { startSqliteCheckpointer } from '../../src/db/sqlite-checkpointer.ts';
import { createGroupCommit } from '../../src/lib/group-commit.ts';
import { newId } from '../../src/lib/ids.ts';

interface Row {
  id: string;
  body: Record<string, unknown>;
  at: string;
}
type Commit = (rows: Row[]) => Promise<void> | void;

const RECIPIENTS = ['admin', 'support'];
const SCHEMA = [
  'CREATE TABLE messages (id TEXT PRIMARY KEY, owner TEXT NOT NULL, body TEXT NOT NULL, created_at TEXT NOT NULL)',
  'CREATE INDEX messages_owner_idx ON messages (owner, created_at, id)',
  'CREATE TABLE alerts (id TEXT PRIMARY KEY, owner TEXT NOT NULL, recipient TEXT NOT NULL, message_id TEXT NOT NULL, title TEXT NOT NULL, body TEXT NOT NULL, created_at TEXT NOT NULL)',
  'CREATE INDEX alerts_recipient_idx ON alerts (owner, recipient, created_at)',
];

/** The two notification-like rows of a message: the same texts Portico writes. */
function alerts(row: Row): string[][] {
  const b = row.body;
  const title = `New inquiry: ${String(b.subject)}`;
  const text = `${String(b.name)} <${String(b.email)}> wrote about "${String(b.topic)}".`;
  return RECIPIENTS.map((recipient) => [newId('notification'), 'tenant', recipient, row.id, title, text, row.at]);
}

function sqliteCommit(file: string, synchronous: SqliteSynchronous): { commit: Commit; close(): Promise<void> } {
  const db = new DatabaseSync(file);
  // Durable as Portico is with the same environment: FULL fsyncs the WAL in every COMMIT.
  db.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = ${synchronous === 'full' ? 'FULL' : 'NORMAL'};`);
  for (const statement of SCHEMA) db.exec(statement);
  const checkpointer = startSqliteCheckpointer(file, pino({ level: 'warn' }));
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  const insertMessage = db.prepare('INSERT INTO messages VALUES (?, ?, ?, ?)');
  const insertAlert = db.prepare('INSERT INTO alerts VALUES (?, ?, ?, ?, ?, ?, ?)');
  return {
    commit(rows) {
      begin.run();
      for (const row of rows) {
        insertMessage.run(row.id, 'tenant', JSON.stringify(row.body), row.at);
        for (const alert of alerts(row)) insertAlert.run(...alert);
      }
      commit.run();
    },
    async close() {
      await checkpointer.stop();
      db.close();
    },
  };
}

async function postgresCommit(url: string): Promise<{ commit: Commit; close(): Promise<void> }> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  for (const statement of SCHEMA) await pool.query(statement);
  return {
    // One statement per batch: atomic without BEGIN/COMMIT, one round trip.
    async commit(rows) {
      const messages = rows.flatMap((row) => [row.id, 'tenant', JSON.stringify(row.body), row.at]);
      const alertValues = rows.flatMap((row) => alerts(row).flat());
      await pool.query(
        `WITH m AS (INSERT INTO messages VALUES ${valuesList('postgres', rows.length, 4)}) INSERT INTO alerts VALUES ${valuesList('postgres', rows.length * RECIPIENTS.length, 7, messages.length + 1)}`,
        [...messages, ...alertValues],
      );
    },
    close: () => pool.end(),
  };
}

const target = process.argv[2] ?? '';
const store = target.startsWith('sqlite:')
  ? sqliteCommit(target.slice('sqlite:'.length), loadConfig().sqliteSynchronous)
  : target.startsWith('postgres')
    ? await postgresCommit(target)
    : (() => {
        throw new Error('usage: durable-echo-server.ts sqlite:<file> | postgres://…');
      })();
// Portico's group commit: what arrived in one turn of the event loop shares a commit. One batch
// at a time on both engines: on PostgreSQL, 1, 2, 4, 8 and 16 batches in flight gave 8839, 8580,
// 7627, 7790 and 7621 req/s (2026-11-21): fewer, larger batches win on 2 cores.
const writes = createGroupCommit<Row, void>(
  async (rows) => {
    await store.commit(rows);
    return rows.map(() => undefined);
  },
  { maxBatch: 64, maxInFlight: 1 },
);

const app = Fastify({ logger: false });
app.post('/durable-echo', async (request, reply) => {
  const row: Row = {
    id: newId('inquiry'),
    body: request.body as Record<string, unknown>,
    at: new Date().toISOString(),
  };
  await writes.submit(row);
  return reply.status(201).send({ data: { id: row.id, createdAt: row.at } });
});
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
process.stdout.write(`READY ${typeof address === 'object' && address ? address.port : 0}\n`);
const close = () => {
  void app
    .close()
    .then(() => store.close())
    .then(() => process.exit(0));
};
process.on('SIGTERM', close);
process.on('SIGINT', close);
