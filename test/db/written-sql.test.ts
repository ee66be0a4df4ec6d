// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  CompiledQuery,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Driver,
} from 'kysely';
import type pg from 'pg';
import type { Engine } from '../../src/db/database.ts';
import type { DB } from '../../src/db/schema.ts';
import { createRepositories } from '../../src/repositories.ts';
import { locationNamesPart, recipientsPart } from '../../src/modules/companies/index.ts';
import { outboxParts, subscriptionsPart } from '../../src/modules/webhooks/index.ts';
import { cachedText, CROSS_TENANT } from '../../src/db/written-statements.ts';
import { createSqliteQueue } from '../../src/modules/webhooks/queue/sqlite-queue.ts';
import { createPostgresQueue } from '../../src/modules/webhooks/queue/postgres-queue.ts';
import type { DeliveryQueue, FinishedAttempt } from '../../src/modules/webhooks/queue/delivery-queue.ts';

/**
 * The exact text of every written-out statement, per engine, kept in
 * test/db/__snapshots__/written-sql.<engine>.sql, as Immich keeps its generated SQL: a change to
 * one shows up in review as a change to that file. `UPDATE_SNAPSHOTS=1 node --test
 * test/db/written-sql.test.ts` rewrites them. The statements are captured from the code that
 * runs them, over a database that only records what it is sent.
 */
const SNAPSHOTS = path.join(import.meta.dirname, '__snapshots__');

/** A Kysely whose driver records each statement under the current name and answers with `rows`. */
function recordingDb(engine: Engine, rows: (text: string, params: readonly unknown[]) => unknown[]) {
  const recorded: Array<{ name: string; text: string }> = [];
  let name = '';
  const connection: DatabaseConnection = {
    async executeQuery<R>(query: CompiledQuery) {
      recorded.push({ name, text: query.sql });
      return { rows: rows(query.sql, query.parameters) as R[] };
    },
    // biome-ignore lint/correctness/useYield: a driver must have a stream method; this one is never called
    async *streamQuery() {
      throw new Error('not used');
    },
  };
  const driver: Driver = {
    init: async () => {},
    acquireConnection: async () => connection,
    beginTransaction: async () => {},
    commitTransaction: async () => {},
    rollbackTransaction: async () => {},
    releaseConnection: async () => {},
    destroy: async () => {},
  };
  const db = new Kysely<DB>({
    dialect:
      engine === 'postgres'
        ? {
            createAdapter: () => new PostgresAdapter(),
            createDriver: () => driver,
            createIntrospector: (k) => new PostgresIntrospector(k),
            createQueryCompiler: () => new PostgresQueryCompiler(),
          }
        : {
            createAdapter: () => new SqliteAdapter(),
            createDriver: () => driver,
            createIntrospector: (k) => new SqliteIntrospector(k),
            createQueryCompiler: () => new SqliteQueryCompiler(),
          },
  });
  return {
    db,
    recorded,
    async as(statement: string, run: () => Promise<unknown>) {
      name = statement;
      await run();
    },
  };
}

const EVENT = {
  id: 'evt_1',
  company_id: 'cmp_1',
  location_id: 'loc_1',
  type: 'quote.created',
  payload: '{}',
  created_at: 'now',
  mode: 'live',
};
const DELIVERY = {
  id: 'whd_1',
  company_id: 'cmp_1',
  event_id: 'evt_1',
  endpoint_id: 'whe_1',
  status: 'pending',
  attempts: 0,
  next_attempt_at: 'now',
  locked_until: null,
  locked_by: null,
  last_status_code: null,
  last_error: null,
  delivered_at: null,
  created_at: 'now',
};
const ATTEMPT: FinishedAttempt = {
  deliveryId: 'whd_1',
  patch: {
    status: 'delivered',
    attempts: 1,
    next_attempt_at: 'now',
    last_status_code: 200,
    last_error: null,
    delivered_at: 'now',
  },
  attempt: {
    id: 'wha_1',
    company_id: 'cmp_1',
    delivery_id: 'whd_1',
    endpoint_id: 'whe_1',
    attempt: 1,
    worker_id: 'w',
    started_at: 'now',
    duration_ms: 1,
    status_code: 200,
    error: null,
    response_excerpt: null,
    success: true,
  },
};

/** Every written-out statement of `engine`, by name, in the order the code sends them. */
async function capture(engine: Engine): Promise<Array<{ name: string; text: string }>> {
  const r = recordingDb(engine, (text, params) => {
    // Just enough answers for the code to go on to its next statement.
    if (text === 'pragma busy_timeout') return [{ timeout: 5000 }];
    if (text === 'pragma wal_autocheckpoint') return [{ wal_autocheckpoint: 1000 }];
    if (text.includes('returning id, company_id, event_id')) return [{ ...DELIVERY }];
    if (text.includes('from webhook_events where id in'))
      return [{ id: 'evt_1', type: 'quote.created', payload: '{}' }];
    if (text.includes('returning webhook_deliveries.id')) return [{ id: params[0] }];
    return [];
  });
  const repos = createRepositories(r.db, engine);
  const inquiry = {} as Parameters<typeof repos.inquiries.insertWithNotifications>[0][number];
  const notification = {} as Parameters<typeof repos.notifications.insertNotifications>[0][number];
  const email = {} as Parameters<typeof repos.inquiries.insertWithNotifications>[2][number];
  await r.as('outbox.insertEvent', () => repos.webhooks.insertEvent(EVENT));
  await r.as('outbox.listSubscriptions', () => repos.webhooks.listSubscriptions('cmp_1'));
  await r.as('outbox.insertDeliveries (3 rows: 2 + 1)', () =>
    repos.webhooks.insertDeliveries([DELIVERY, DELIVERY, DELIVERY]),
  );
  await r.as('outbox.announce', () => repos.webhooks.announce());
  await r.as('webhooks.findEndpoint', () => repos.webhooks.findEndpoint('cmp_1', 'whe_1'));
  await r.as('inquiries.insertWithNotifications (2 inquiries, 1 notification, 1 e-mail)', () =>
    repos.inquiries.insertWithNotifications([inquiry, inquiry], [notification], [email]),
  );
  await r.as('inquiries.insertWithNotifications (1 inquiry)', () =>
    repos.inquiries.insertWithNotifications([inquiry], [], []),
  );
  await r.as('inquiries.insertWithNotifications (1 inquiry, 1 notification, its event, 1 delivery)', () =>
    repos.inquiries.insertWithNotifications([inquiry], [notification], [], outboxParts([EVENT], [DELIVERY])),
  );
  await r.as('inquiries.readBatchContext (2 companies, 2 locations)', () =>
    repos.inquiries.readBatchContext([
      recipientsPart(['cmp_1', 'cmp_2'], ['admin', 'support']),
      locationNamesPart([
        { companyId: 'cmp_1', locationId: 'loc_1' },
        { companyId: 'cmp_2', locationId: 'loc_2' },
      ]),
      subscriptionsPart(['cmp_1', 'cmp_2']),
    ]),
  );
  await r.as('notifications.insertNotifications (2 rows)', () =>
    repos.notifications.insertNotifications([notification, notification]),
  );
  await r.as('companies.listRecipients (2 companies, 2 roles)', () =>
    repos.companies.listRecipients(['cmp_1', 'cmp_2'], ['admin', 'support']),
  );

  const applyEndpointWork = async () => {};
  const queue: DeliveryQueue =
    engine === 'postgres'
      ? createPostgresQueue({ db: r.db, pool: {} as pg.Pool, worker: 'w', applyEndpointWork, logger: { warn() {} } })
      : createSqliteQueue({ db: r.db, worker: 'w', applyEndpointWork });
  const lease = { now: 'now', until: 'later' };
  await r.as('queue.claim', () => queue.claim(64, lease));
  await r.as('queue.claim (passing over 2 endpoints)', () => queue.claim(64, lease, ['whe_1', 'whe_2']));
  await r.as('queue.record (1 outcome)', () => queue.record([ATTEMPT]));
  await r.as('queue.record (3 outcomes: 2 + 1)', () =>
    queue.record([ATTEMPT, ATTEMPT, ATTEMPT].map((a, i) => ({ ...a, deliveryId: `whd_${i}` }))),
  );
  return r.recorded;
}

function render(statements: Array<{ name: string; text: string }>): string {
  return statements.map((s) => `-- ${s.name}\n${s.text.replace(/^\n+/, '')};\n`).join('\n');
}

/** Reads or changes rows already in a table (new rows carry their company), as opposed to settings and transaction control. */
const touchesRows = (text: string) => /\b(from|update)\s+(?!json_populate_recordset\b)\w+/i.test(text);
const namesOneCompany = (text: string) => /\bcompany_id\s*=\s*(\$\d+|\?)/.test(text);

for (const engine of ['sqlite', 'postgres'] as const) {
  test(`${engine}: every written-out statement matches its snapshot`, async () => {
    const file = path.join(SNAPSHOTS, `written-sql.${engine}.sql`);
    const actual = render(await capture(engine));
    if (process.env.UPDATE_SNAPSHOTS === '1') {
      fs.mkdirSync(SNAPSHOTS, { recursive: true });
      fs.writeFileSync(file, actual);
    }
    assert.equal(
      actual,
      fs.readFileSync(file, 'utf8'),
      `${path.relative(process.cwd(), file)} is out of date: review the change, then UPDATE_SNAPSHOTS=1`,
    );
  });

  test(`${engine}: a statement that does not name one company is one of the few that run across tenants by design`, async () => {
    const statements = await capture(engine);
    const crossing = new Set(
      statements.filter((s) => touchesRows(s.text) && !namesOneCompany(s.text)).map((s) => s.name.split(' (')[0]!),
    );
    assert.deepEqual([...crossing].sort(), Object.keys(CROSS_TENANT).sort());
  });
}

test('a cached text refuses a `*` column list: a prepared `select *` fails once a migration adds a column', () => {
  for (const text of [
    'select * from users',
    'select u.* from users u',
    'select id, * from users',
    'update users set name = ? returning *',
  ]) {
    assert.throws(() => cachedText(`star:${text}`, () => text), /column list/, text);
  }
  assert.equal(
    cachedText('count', () => 'select count(*) as n from users where company_id = ?'),
    'select count(*) as n from users where company_id = ?',
  );
});
