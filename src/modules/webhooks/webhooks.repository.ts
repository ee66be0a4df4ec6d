import { CompiledQuery, sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { WebhookAttemptsTable, WebhookDeliveriesTable, WebhookEndpointsTable, WebhookEventsTable } from '../../db/schema.ts';
import {
  DELIVERY_COLUMNS, EVENT_COLUMNS, FINISH_COLUMNS, LOG_COLUMNS, PG_CLAIM, PG_FINISH, SQLITE_CLAIM, SQLITE_EVENTS,
  findEndpointText, sqliteFinishText, subscriptionsText,
} from './queue-sql.ts';
import { insertText, powerOfTwoChunks } from '../../db/written-statements.ts';

export type EndpointRow = WebhookEndpointsTable;
export type EventRow = WebhookEventsTable;
export type DeliveryRow = WebhookDeliveriesTable;
export type AttemptRow = WebhookAttemptsTable;

/** A leased delivery, as the lease statement returns it. */
export type LeasedDelivery = Pick<DeliveryRow, 'id' | 'company_id' | 'event_id' | 'endpoint_id' | 'attempts' | 'next_attempt_at'>;

/** A claimed delivery with what sending it needs, read with the claim. */
export type ClaimedDelivery = LeasedDelivery & {
  event_type: string;
  payload: string;
};

/** One attempt's outcome: the delivery's new state and its line in the attempt log. */
export interface FinishedAttempt {
  deliveryId: string;
  patch: Pick<DeliveryRow, 'status' | 'attempts' | 'next_attempt_at' | 'last_status_code' | 'last_error' | 'delivered_at'>;
  attempt: AttemptRow;
}

/** PostgreSQL channel on which committed outbox writes wake the workers of every instance. */
export const OUTBOX_CHANNEL = 'portico_outbox';

/** What the dispatcher's fast path writes on SQLite, bound to the connection that holds the write lock. */
export interface WebhooksWriter {
  finishAttempts(worker: string, outcomes: readonly FinishedAttempt[]): Promise<Set<string>>;
  leaseDue(worker: string, now: string, leaseUntil: string, limit: number): Promise<LeasedDelivery[]>;
}

export function createWebhooksRepository(db: Executor, engine: 'sqlite' | 'postgres') {
  let busyTimeout: number | null = null; // this connection's own, read once
  let autocheckpoint: number | null = null;

  /** SQLite: the lease half of `claimDue`, the only part that needs the write lock. */
  async function leaseDue(worker: string, now: string, leaseUntil: string, limit: number): Promise<LeasedDelivery[]> {
    return (await db.executeQuery<LeasedDelivery>(CompiledQuery.raw(SQLITE_CLAIM, [leaseUntil, worker, now, now, limit]))).rows;
  }

  /** SQLite: the read half of `claimDue`, the events the leased deliveries send. */
  async function withEvents(leased: readonly LeasedDelivery[]): Promise<ClaimedDelivery[]> {
    if (leased.length === 0) return [];
    const events = (await db.executeQuery<{ id: string; type: string; payload: string }>(
      CompiledQuery.raw(SQLITE_EVENTS, [JSON.stringify(leased.map((d) => d.event_id))]),
    )).rows;
    const byId = new Map(events.map((e) => [e.id, e]));
    return leased.map((d) => {
      const event = byId.get(d.event_id)!;
      // The rows are ours: completed in place rather than copied.
      return Object.assign(d, { event_type: event.type, payload: event.payload });
    });
  }

  return {
    /** NOTIFY is transactional: listeners hear it only if the surrounding transaction commits. */
    async announce(): Promise<void> {
      if (engine === 'postgres') await sql`select pg_notify(${OUTBOX_CHANNEL}, '')`.execute(db);
    },

    insertEndpoint: async (row: EndpointRow) => void (await db.insertInto('webhook_endpoints').values(row).execute()),
    /** Also read once per claim by the dispatcher, hence written out. */
    findEndpoint: async (companyId: string, id: string): Promise<EndpointRow | undefined> =>
      (await db.executeQuery<EndpointRow>(CompiledQuery.raw(findEndpointText(engine), [companyId, id]))).rows[0],
    listEndpoints: (companyId: string) =>
      db.selectFrom('webhook_endpoints').selectAll().where('company_id', '=', companyId).orderBy('created_at').orderBy('id').execute(),
    /** What the outbox needs of a company's enabled endpoints, in every transaction that announces an event. */
    listSubscriptions: async (companyId: string) =>
      (await db.executeQuery<Pick<EndpointRow, 'id' | 'events'>>(CompiledQuery.raw(subscriptionsText(engine), [companyId, true]))).rows,
    updateEndpoint: async (companyId: string, id: string, patch: Partial<Omit<EndpointRow, 'id' | 'company_id' | 'created_at'>>) =>
      void (await db.updateTable('webhook_endpoints').set(patch).where('company_id', '=', companyId).where('id', '=', id).execute()),
    /** Endpoint rows go, their delivery log goes with them. */
    async deleteEndpoint(companyId: string, id: string): Promise<void> {
      await db.deleteFrom('webhook_attempts').where('company_id', '=', companyId).where('endpoint_id', '=', id).execute();
      await db.deleteFrom('webhook_deliveries').where('company_id', '=', companyId).where('endpoint_id', '=', id).execute();
      await db.deleteFrom('webhook_endpoints').where('company_id', '=', companyId).where('id', '=', id).execute();
    },

    // The outbox's inserts run inside every quotation's and order's transaction: SQL written out
    // (queue-sql.ts) rather than built, so the write lock is held for less.
    async insertEvent(row: EventRow): Promise<void> {
      await db.executeQuery(CompiledQuery.raw(insertText(engine, 'webhook_events', EVENT_COLUMNS, 1), EVENT_COLUMNS.map((c) => row[c])));
    },
    async insertDeliveries(rows: readonly DeliveryRow[]): Promise<void> {
      for (const chunk of powerOfTwoChunks(rows)) {
        await db.executeQuery(CompiledQuery.raw(insertText(engine, 'webhook_deliveries', DELIVERY_COLUMNS, chunk.length), chunk.flatMap((row) => DELIVERY_COLUMNS.map((c) => row[c]))));
      }
    },
    findDelivery: (companyId: string, id: string) =>
      db.selectFrom('webhook_deliveries').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst(),
    listDeliveries: (companyId: string, endpointId: string, limit: number) =>
      db.selectFrom('webhook_deliveries').selectAll().where('company_id', '=', companyId).where('endpoint_id', '=', endpointId)
        .orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute(),
    listAttempts: (companyId: string, deliveryIds: readonly string[]) =>
      deliveryIds.length === 0
        ? Promise.resolve([] as AttemptRow[])
        : db.selectFrom('webhook_attempts').selectAll().where('company_id', '=', companyId).where('delivery_id', 'in', deliveryIds)
          .orderBy('started_at').orderBy('attempt').execute(),

    /**
     * Leases up to `limit` due deliveries to `worker`, with what sending them needs. On
     * PostgreSQL one statement (FOR UPDATE SKIP LOCKED: any number of workers share the queue
     * and never lease the same row twice; the event joined in, one round trip). On SQLite one
     * UPDATE takes the write lock, which serialises claimers, then the events are read.
     */
    async claimDue(worker: string, now: string, leaseUntil: string, limit: number): Promise<ClaimedDelivery[]> {
      if (engine === 'postgres') {
        return (await db.executeQuery<ClaimedDelivery>(CompiledQuery.raw(PG_CLAIM, [now, limit, leaseUntil, worker]))).rows;
      }
      return withEvents(await leaseDue(worker, now, leaseUntil, limit));
    },

    leaseDue,
    withEvents,

    /**
     * SQLite only: a number that changes whenever another connection (another process) has
     * committed since the last call. Reading it touches no table, so a worker in its own
     * process can look every few milliseconds for events committed by the API.
     */
    async dataVersion(): Promise<number> {
      const { rows } = await db.executeQuery<{ data_version: number }>(CompiledQuery.raw('pragma data_version', []));
      return Number(rows[0]?.data_version ?? 0);
    },

    /**
     * Records the outcomes of many attempts: the deliveries' new state, guarded by the lease, and
     * the attempt log of those that were updated. Returns the ids recorded: a delivery whose
     * lease this worker lost (another worker took it, or its endpoint was disabled or deleted)
     * is left alone, and the caller must not act on that outcome.
     *
     * PostgreSQL: one statement for any number of rows (arrays unnested; its own transaction
     * when there is none around it). SQLite: UPDATE … FROM a VALUES list, then multi-row
     * INSERTs, in chunks of a few fixed sizes; run it inside a transaction.
     */
    async finishAttempts(worker: string, outcomes: readonly FinishedAttempt[]): Promise<Set<string>> {
      const recorded = new Set<string>();
      if (outcomes.length === 0) return recorded;
      if (engine === 'postgres') {
        const params = [
          ...FINISH_COLUMNS.map((c) => outcomes.map((o) => (c === 'id' ? o.deliveryId : o.patch[c]))),
          worker,
          ...LOG_COLUMNS.map((c) => outcomes.map((o) => o.attempt[c])),
        ];
        const { rows } = await db.executeQuery<{ delivery_id: string }>(CompiledQuery.raw(PG_FINISH, params));
        for (const row of rows) recorded.add(row.delivery_id);
        return recorded;
      }
      for (const chunk of powerOfTwoChunks(outcomes)) {
        const params: unknown[] = [];
        for (const { deliveryId, patch } of chunk) for (const c of FINISH_COLUMNS) params.push(c === 'id' ? deliveryId : patch[c]);
        params.push(worker);
        const { rows } = await db.executeQuery<{ id: string }>(CompiledQuery.raw(sqliteFinishText(chunk.length), params));
        for (const row of rows) recorded.add(row.id);
      }
      for (const chunk of powerOfTwoChunks(outcomes.filter((o) => recorded.has(o.deliveryId)))) {
        const params: unknown[] = [];
        for (const { attempt } of chunk) for (const c of LOG_COLUMNS) params.push(attempt[c]);
        await db.executeQuery(CompiledQuery.raw(insertText(engine, 'webhook_attempts', LOG_COLUMNS, chunk.length), params));
      }
      return recorded;
    },

    /**
     * SQLite only: runs `work` in a write transaction if no other connection (another process)
     * holds the write lock right now, and returns null at once if one does. Left to its busy
     * timeout, SQLite would wait by sleeping on the event loop, 1, 2, 5, 10… ms between tries,
     * so that a worker competing with the API's commits stalled for tens of milliseconds at a
     * time; the caller retries after a fraction of a millisecond instead.
     *
     * Its commit also leaves the WAL checkpoint to other writers unless the WAL has grown past
     * WORKER_AUTOCHECKPOINT_PAGES: a checkpoint (page copies and two fsyncs) runs on the event
     * loop of whichever commit crosses the threshold, and in the worker it holds up every
     * delivery on the wire. The API's commits, far more frequent, keep checkpointing at the
     * usual 1000 pages; a worker writing alone still checkpoints, less often.
     *
     * The connection is held for the whole call, so nothing else runs while these connection
     * settings are changed; they are restored before it is released.
     */
    async tryWriteTransaction<T>(work: (writer: WebhooksWriter) => Promise<T>): Promise<T | null> {
      return db.connection().execute(async (conn) => {
        const run = (text: string) => conn.executeQuery(CompiledQuery.raw(text, []));
        busyTimeout ??= Number((await conn.executeQuery<{ timeout: number }>(CompiledQuery.raw('pragma busy_timeout', []))).rows[0]?.timeout ?? 0);
        autocheckpoint ??= Number((await conn.executeQuery<{ wal_autocheckpoint: number }>(CompiledQuery.raw('pragma wal_autocheckpoint', []))).rows[0]?.wal_autocheckpoint ?? 1000);
        await run('pragma busy_timeout = 0');
        try {
          await run('begin immediate');
        } catch (error) {
          await run(`pragma busy_timeout = ${busyTimeout}`);
          if ((error as { errcode?: number }).errcode === SQLITE_BUSY) return null;
          throw error;
        }
        await run(`pragma wal_autocheckpoint = ${WORKER_AUTOCHECKPOINT_PAGES}`);
        try {
          const result = await work(createWebhooksRepository(conn, engine));
          await run('commit');
          return result;
        } catch (error) {
          await run('rollback').catch(() => {});
          throw error;
        } finally {
          await run(`pragma busy_timeout = ${busyTimeout}`);
          await run(`pragma wal_autocheckpoint = ${autocheckpoint}`);
        }
      });
    },

    /** Marks the start of an endpoint's failing streak, unless one is already running. */
    async markFailing(companyId: string, id: string, since: string): Promise<void> {
      await db.updateTable('webhook_endpoints').set({ failing_since: since })
        .where('company_id', '=', companyId).where('id', '=', id).where('failing_since', 'is', null).execute();
    },

    /** Switches an endpoint off; false when it already was, so admins are told once. */
    async disableEndpoint(companyId: string, id: string, reason: string, at: string): Promise<boolean> {
      const result = await db.updateTable('webhook_endpoints').set({ enabled: false, disabled_reason: reason, updated_at: at })
        .where('company_id', '=', companyId).where('id', '=', id).where('enabled', '=', true).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },


    /** Due now again, unless a worker is sending it at this moment (false then). */
    async requeueDelivery(companyId: string, id: string, at: string): Promise<boolean> {
      const result = await db.updateTable('webhook_deliveries').set({ status: 'pending', next_attempt_at: at, locked_until: null, locked_by: null })
        .where('company_id', '=', companyId).where('id', '=', id)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', at)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Pending deliveries of a disabled endpoint stop; they stay in the log as cancelled. */
    async cancelPending(companyId: string, endpointId: string): Promise<void> {
      await db.updateTable('webhook_deliveries').set({ status: 'cancelled', locked_until: null, locked_by: null })
        .where('company_id', '=', companyId).where('endpoint_id', '=', endpointId).where('status', '=', 'pending').execute();
    },


  };
}
export type WebhooksRepository = ReturnType<typeof createWebhooksRepository>;

const SQLITE_BUSY = 5;
/** 40 MB of WAL at 4 KiB pages: see tryWriteTransaction. */
const WORKER_AUTOCHECKPOINT_PAGES = 10_000;
