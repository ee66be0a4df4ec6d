// test-engines: both
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, createTenant, onPostgres, type TestApp } from '../../support/test-app.ts';
import { createDatabase, type Database } from '../../../src/db/database.ts';
import { createRepositories } from '../../../src/repositories.ts';
import { EVENTS, enqueueEvent } from '../../../src/modules/webhooks/index.ts';
import { applyEndpointWork } from '../../../src/modules/webhooks/endpoint-work.ts';
import { createSqliteQueue } from '../../../src/modules/webhooks/queue/sqlite-queue.ts';
import { createPostgresQueue } from '../../../src/modules/webhooks/queue/postgres-queue.ts';
import { createMemoryQueues } from '../../../src/modules/webhooks/queue/in-memory-queue.ts';
import type {
  ClaimedDelivery,
  DeliveryQueue,
  EndpointWork,
  FinishedAttempt,
} from '../../../src/modules/webhooks/queue/delivery-queue.ts';
import type { EndpointRow } from '../../../src/modules/webhooks/webhooks.repository.ts';

/**
 * The contract every DeliveryQueue keeps, one set of cases run against the queue of this run's
 * database (SQLite, or PostgreSQL when TEST_DATABASE_URL is set) and against the in-memory queue
 * the dispatcher's tests use, so that those tests stand on the same ground as the real ones.
 */
interface Harness {
  /** A queue for `worker`, as another process would have it. */
  queue(worker: string): DeliveryQueue;
  /** `n` pending deliveries to one endpoint, due at `due`; returns the endpoint. `other`: to a second endpoint (of another company). */
  enqueue(n: number, due: string, other?: 'other'): Promise<EndpointRow>;
  /** A commit of the outbox by another connection (another process, as far as the database can tell). */
  commitElsewhere(due: string): Promise<void>;
  attempts(): Promise<Array<{ delivery_id: string; worker_id: string }>>;
  deliveries(): Promise<Array<{ id: string; status: string; locked_by: string | null }>>;
  failingSince(endpoint: EndpointRow): Promise<string | null>;
  close(): Promise<void>;
}

async function databaseHarness(): Promise<Harness> {
  const app: TestApp = await createTestApp();
  const { database } = app.c;
  const demo = await createTenant(app.c);
  let second: Awaited<ReturnType<typeof createTenant>> | null = null;
  const others: Database[] = [];
  const applyWork = (tx: Parameters<typeof createRepositories>[0], work: readonly EndpointWork[]) =>
    applyEndpointWork(createRepositories(tx, database.engine), work, {
      notifications: app.c.notifications,
      clock: app.c.clock,
      logger: { warn() {} },
    });
  const enqueue = async (db: Database, endpointId: string, n: number, due: string, tenant = demo) => {
    const repos = createRepositories(db.db, db.engine);
    await db.db.transaction().execute(async (tx) => {
      const txRepos = createRepositories(tx, db.engine);
      for (let i = 0; i < n; i++) {
        await enqueueEvent(
          txRepos,
          {
            companyId: tenant.companyId,
            locationId: tenant.locations[0]!.id,
            type: 'quote.created',
            data: { ...EVENTS['quote.created'].example, number: `Q-TEST-${i}` },
          },
          { now: due, newId: app.c.newId },
        );
      }
    });
    return repos.webhooks.findEndpoint(tenant.companyId, endpointId);
  };
  let endpointId = '';
  let otherEndpointId = '';
  return {
    queue: (worker) =>
      database.engine === 'postgres'
        ? createPostgresQueue({
            db: database.db,
            pool: database.pool!,
            worker,
            applyEndpointWork: applyWork,
            logger: { warn() {} },
          })
        : createSqliteQueue({ db: database.db, worker, applyEndpointWork: applyWork }),
    async enqueue(n, due, other) {
      if (other) {
        second ??= await createTenant(app.c);
        otherEndpointId ||= (
          await app.c.endpoints.create(second.companyId, {
            kind: 'http',
            url: 'http://127.0.0.1:9/never-called-either',
          })
        ).id;
        return (await enqueue(database, otherEndpointId, n, due, second))!;
      }
      endpointId ||= (
        await app.c.endpoints.create(demo.companyId, { kind: 'http', url: 'http://127.0.0.1:9/never-called' })
      ).id;
      return (await enqueue(database, endpointId, n, due))!;
    },
    async commitElsewhere(due) {
      const other = createDatabase(database.url, { poolSize: 1 });
      others.push(other);
      await enqueue(other, endpointId, 1, due);
    },
    attempts: () =>
      database.db.selectFrom('webhook_attempts').select(['delivery_id', 'worker_id']).orderBy('delivery_id').execute(),
    deliveries: () =>
      database.db.selectFrom('webhook_deliveries').select(['id', 'status', 'locked_by']).orderBy('id').execute(),
    async failingSince(endpoint) {
      return (await app.c.store.repos.webhooks.findEndpoint(endpoint.company_id, endpoint.id))!.failing_since;
    },
    async close() {
      for (const other of others) await other.close();
      await app.close();
    },
  };
}

async function memoryHarness(): Promise<Harness> {
  const memory = createMemoryQueues();
  let n = 0;
  const endpoint = { id: 'whe_memory', company_id: 'cmp_memory', failing_since: null } as EndpointRow;
  const otherEndpoint = { id: 'whe_memory_other', company_id: 'cmp_memory_other', failing_since: null } as EndpointRow;
  return {
    queue: (worker) => memory.queue(worker),
    async enqueue(count, due, other) {
      const e = other ? otherEndpoint : endpoint;
      for (let i = 0; i < count; i++)
        memory.enqueue({ id: `whd_${String(n++).padStart(6, '0')}`, company_id: e.company_id, endpoint_id: e.id, due });
      return e;
    },
    async commitElsewhere(due) {
      memory.enqueue({
        id: `whd_${String(n++).padStart(6, '0')}`,
        company_id: endpoint.company_id,
        endpoint_id: endpoint.id,
        due,
      });
    },
    attempts: async () =>
      memory.attempts
        .map((a) => ({ delivery_id: a.delivery_id, worker_id: a.worker_id }))
        .sort((a, b) => a.delivery_id.localeCompare(b.delivery_id)),
    deliveries: async () =>
      [...memory.deliveries.values()]
        .map((d) => ({ id: d.id, status: d.status, locked_by: d.locked_by }))
        .sort((a, b) => a.id.localeCompare(b.id)),
    async failingSince() {
      const marked = memory.endpointWork.find((w) => w.kind === 'mark-failing');
      return marked?.kind === 'mark-failing' ? marked.since : null;
    },
    close: async () => {},
  };
}

function delivered(d: ClaimedDelivery, worker: string, at: string): FinishedAttempt {
  return {
    deliveryId: d.id,
    patch: {
      status: 'delivered',
      attempts: d.attempts + 1,
      next_attempt_at: d.next_attempt_at,
      last_status_code: 200,
      last_error: null,
      delivered_at: at,
    },
    attempt: {
      id: `wha_${d.id.slice(4)}_${worker}`,
      company_id: d.company_id,
      delivery_id: d.id,
      endpoint_id: d.endpoint_id,
      attempt: d.attempts + 1,
      worker_id: worker,
      started_at: at,
      duration_ms: 1,
      status_code: 200,
      error: null,
      response_excerpt: 'ok',
      success: true,
    },
  };
}

const now = '2026-03-02T08:00:00.000Z';
const lease = { now, until: '2026-03-02T08:00:40.000Z' };

const harnesses: Array<[string, () => Promise<Harness>]> = [
  [onPostgres() ? 'PostgreSQL queue' : 'SQLite queue', databaseHarness],
  ['in-memory queue', memoryHarness],
];

for (const [name, make] of harnesses) {
  describe(name, () => {
    test('a due delivery is leased to one worker at a time, and only its holder can record it', async (t) => {
      const h = await make();
      t.after(() => h.close());
      await h.enqueue(12, now);
      const [a, b, c] = [h.queue('worker-a'), h.queue('worker-b'), h.queue('worker-c')];

      const claimedA = await a.claim(5, lease);
      const claimedB = await b.claim(100, lease);
      assert.equal(claimedA.length, 5);
      assert.equal(claimedB.length, 7, 'the rest, none of the leased ones');
      assert.equal(new Set([...claimedA, ...claimedB].map((d) => d.id)).size, 12);
      assert.equal(JSON.parse(claimedA[0]!.payload).id, claimedA[0]!.event_id, 'the event body comes with the claim');
      assert.equal(claimedA[0]!.event_type, 'quote.created');
      assert.equal((await c.claim(100, lease)).length, 0, 'nothing left while the leases run');

      // worker-b cannot record worker-a's deliveries; worker-a records its own, with their attempt log
      assert.equal((await b.record(claimedA.map((d) => delivered(d, 'worker-b', now)))).size, 0);
      const recorded = await a.record(claimedA.map((d) => delivered(d, 'worker-a', now)));
      assert.deepEqual([...recorded].sort(), claimedA.map((d) => d.id).sort());
      const attempts = await h.attempts();
      assert.deepEqual(
        attempts.map((r) => r.delivery_id),
        claimedA.map((d) => d.id).sort(),
      );
      assert.ok(attempts.every((r) => r.worker_id === 'worker-a'));
      const states = (await h.deliveries()).filter((d) => recorded.has(d.id));
      assert.ok(states.every((s) => s.status === 'delivered' && s.locked_by === null));

      // a lease that ran out (a crashed worker) returns its deliveries to the queue
      const later = '2026-03-02T08:01:00.000Z';
      const again = await c.claim(100, { now: later, until: '2026-03-02T08:01:40.000Z' });
      assert.deepEqual(again.map((d) => d.id).sort(), claimedB.map((d) => d.id).sort());
      assert.equal(
        (await b.record(claimedB.map((d) => delivered(d, 'worker-b', later)))).size,
        0,
        'worker-b lost them',
      );
    });

    test('earliest due first; a delivery not yet due, or no longer pending, is not claimed', async (t) => {
      const h = await make();
      t.after(() => h.close());
      await h.enqueue(2, '2026-03-02T07:59:59.000Z');
      await h.enqueue(2, '2026-03-02T07:59:58.000Z');
      await h.enqueue(3, '2026-03-02T08:00:01.000Z');
      const q = h.queue('w');
      const first = await q.claim(2, lease);
      assert.deepEqual(
        first.map((d) => d.next_attempt_at),
        ['2026-03-02T07:59:58.000Z', '2026-03-02T07:59:58.000Z'],
      );
      const rest = await q.claim(100, lease);
      assert.deepEqual(
        rest.map((d) => d.next_attempt_at),
        ['2026-03-02T07:59:59.000Z', '2026-03-02T07:59:59.000Z'],
      );
      await q.record(first.map((d) => delivered(d, 'w', now)));
      assert.equal(
        (await q.claim(100, { now: '2026-03-02T08:05:00.000Z', until: '2026-03-02T08:05:40.000Z' })).length,
        5,
        'the later ones, and the expired leases; never a delivered one',
      );
    });

    test('a claim passes over the endpoints it is told to skip, and reaches the deliveries due behind their backlog', async (t) => {
      const h = await make();
      t.after(() => h.close());
      const backlog = await h.enqueue(20, '2026-03-02T07:59:58.000Z');
      const other = await h.enqueue(3, '2026-03-02T07:59:59.000Z', 'other');
      const q = h.queue('w');
      assert.deepEqual(
        (await q.claim(5, lease)).map((d) => d.endpoint_id),
        Array(5).fill(backlog.id),
        'earliest due first: the backlog',
      );
      const past = await q.claim(10, lease, [backlog.id]);
      assert.deepEqual(
        past.map((d) => d.endpoint_id),
        Array(3).fill(other.id),
      );
      assert.equal((await q.claim(10, lease, [backlog.id])).length, 0, 'nothing else due outside the backlog');
      assert.equal((await q.claim(100, lease, [])).length, 15, 'an empty list skips nothing');
    });

    test('batches of any size are recorded', async (t) => {
      const h = await make();
      t.after(() => h.close());
      await h.enqueue(200, now);
      const q = h.queue('w');
      const claimed = await q.claim(200, lease);
      assert.equal(claimed.length, 200);
      assert.equal(q.recordBatch(199) <= 199 && q.recordBatch(199) > 0, true);
      const recorded = await q.record(claimed.slice(0, 199).map((d) => delivered(d, 'w', now)));
      assert.equal(recorded.size, 199);
      assert.equal((await h.attempts()).length, 199);
    });

    test('what outcomes mean for their endpoint commits with them, planned over the recorded ones only, or nothing does', async (t) => {
      const h = await make();
      t.after(() => h.close());
      const endpoint = await h.enqueue(3, now);
      const [mine, theirs] = [h.queue('mine'), h.queue('theirs')];
      const claimed = await mine.claim(2, lease);
      const other = await theirs.claim(1, lease);
      const outcomes = [...claimed, ...other].map((d) => delivered(d, 'mine', now));

      await assert.rejects(
        mine.record(outcomes, () => {
          throw new Error('planning failed');
        }),
        /planning failed/,
      );
      assert.equal((await h.attempts()).length, 0, 'nothing recorded');
      assert.equal(await h.failingSince(endpoint), null);

      let seen: string[] = [];
      const recorded = await mine.record(outcomes, (ids) => {
        seen = [...ids].sort();
        return [{ kind: 'mark-failing', endpoint, since: now }];
      });
      assert.deepEqual(seen, claimed.map((d) => d.id).sort(), 'only the deliveries this worker held');
      assert.deepEqual([...recorded].sort(), seen);
      assert.equal(await h.failingSince(endpoint), now);
      assert.equal((await h.attempts()).length, 2);
    });

    test('a commit elsewhere wakes a watcher', async (t) => {
      const h = await make();
      t.after(() => h.close());
      await h.enqueue(1, now);
      let woken = 0;
      let signal: () => void = () => {};
      const watch = await h.queue('w').watch(() => {
        woken++;
        signal();
      });
      try {
        // PostgreSQL wakes once when its LISTEN connection is up; from then on, a commit elsewhere must wake it.
        await new Promise<void>((resolve) => {
          signal = resolve;
          setTimeout(resolve, 1_000);
        });
        const before = woken;
        const wakened = new Promise<void>((resolve) => {
          signal = resolve;
        });
        await h.commitElsewhere(now);
        await Promise.race([
          wakened,
          new Promise((_, reject) => setTimeout(() => reject(new Error('not woken within 5 s')), 5_000).unref()),
        ]);
        assert.ok(woken > before);
      } finally {
        await watch.stop(); // before the database closes: the listening connection is held
      }
    });
  });
}
