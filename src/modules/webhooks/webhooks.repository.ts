import { CompiledQuery, sql } from 'kysely';
import type { Engine, Executor } from '../../db/database.ts';
import type {
  WebhookAttemptsTable,
  WebhookDeliveriesTable,
  WebhookEndpointsTable,
  WebhookEventsTable,
} from '../../db/schema.ts';
import { insertText, powerOfTwoChunks } from '../../db/written-statements.ts';
import { OUTBOX_CHANNEL } from './queue/delivery-queue.ts';

export type EndpointRow = WebhookEndpointsTable;
export type EventRow = WebhookEventsTable;
export type DeliveryRow = WebhookDeliveriesTable;
export type AttemptRow = WebhookAttemptsTable;

// The outbox's statements run inside every quotation's and order's transaction: SQL written out
// rather than built, so the write lock is held for less. Their texts are snapshotted
// (test/db/written-sql.test.ts).
export const EVENT_COLUMNS = [
  'id',
  'company_id',
  'location_id',
  'type',
  'payload',
  'created_at',
  'mode',
] as const satisfies ReadonlyArray<keyof EventRow>;
export const DELIVERY_COLUMNS = [
  'id',
  'company_id',
  'event_id',
  'endpoint_id',
  'status',
  'attempts',
  'next_attempt_at',
  'locked_until',
  'locked_by',
  'last_status_code',
  'last_error',
  'delivered_at',
  'created_at',
] as const satisfies ReadonlyArray<keyof DeliveryRow>;

/** A company's enabled endpoints, as the outbox needs them: company, enabled (true). */
function subscriptionsText(engine: Engine): string {
  return engine === 'postgres'
    ? 'select id, events from webhook_endpoints where company_id = $1 and enabled = $2'
    : 'select id, events from webhook_endpoints where company_id = ? and enabled = ?';
}

/** One endpoint of one company: company, id. */
function findEndpointText(engine: Engine): string {
  return engine === 'postgres'
    ? 'select * from webhook_endpoints where company_id = $1 and id = $2'
    : 'select * from webhook_endpoints where company_id = ? and id = ?';
}

export function createWebhooksRepository(db: Executor, engine: Engine) {
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
      db
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('company_id', '=', companyId)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
    /** What the outbox needs of a company's enabled endpoints, in every transaction that announces an event. */
    listSubscriptions: async (companyId: string) =>
      (
        await db.executeQuery<Pick<EndpointRow, 'id' | 'events'>>(
          CompiledQuery.raw(subscriptionsText(engine), [companyId, true]),
        )
      ).rows,
    updateEndpoint: async (
      companyId: string,
      id: string,
      patch: Partial<Omit<EndpointRow, 'id' | 'company_id' | 'created_at'>>,
    ) =>
      void (await db
        .updateTable('webhook_endpoints')
        .set(patch)
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .execute()),
    /** Endpoint rows go, their delivery log goes with them. */
    async deleteEndpoint(companyId: string, id: string): Promise<void> {
      await db
        .deleteFrom('webhook_attempts')
        .where('company_id', '=', companyId)
        .where('endpoint_id', '=', id)
        .execute();
      await db
        .deleteFrom('webhook_deliveries')
        .where('company_id', '=', companyId)
        .where('endpoint_id', '=', id)
        .execute();
      await db.deleteFrom('webhook_endpoints').where('company_id', '=', companyId).where('id', '=', id).execute();
    },

    /** Test events with their deliveries and attempts: the developer settings' "delete test data". */
    async deleteTestEvents(companyId: string): Promise<number> {
      const test = db
        .selectFrom('webhook_events')
        .select('id')
        .where('company_id', '=', companyId)
        .where('mode', '=', 'test');
      const deliveries = db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('company_id', '=', companyId)
        .where('event_id', 'in', test);
      await db
        .deleteFrom('webhook_attempts')
        .where('company_id', '=', companyId)
        .where('delivery_id', 'in', deliveries)
        .execute();
      await db
        .deleteFrom('webhook_deliveries')
        .where('company_id', '=', companyId)
        .where('event_id', 'in', test)
        .execute();
      const result = await db
        .deleteFrom('webhook_events')
        .where('company_id', '=', companyId)
        .where('mode', '=', 'test')
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async insertEvent(row: EventRow): Promise<void> {
      await db.executeQuery(
        CompiledQuery.raw(
          insertText(engine, 'webhook_events', EVENT_COLUMNS, 1),
          EVENT_COLUMNS.map((c) => row[c]),
        ),
      );
    },
    async insertDeliveries(rows: readonly DeliveryRow[]): Promise<void> {
      for (const chunk of powerOfTwoChunks(rows)) {
        await db.executeQuery(
          CompiledQuery.raw(
            insertText(engine, 'webhook_deliveries', DELIVERY_COLUMNS, chunk.length),
            chunk.flatMap((row) => DELIVERY_COLUMNS.map((c) => row[c])),
          ),
        );
      }
    },
    findDelivery: (companyId: string, id: string) =>
      db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .executeTakeFirst(),
    /** An endpoint's deliveries of live or of test events (never both), with each event's type. */
    listDeliveries: (companyId: string, endpointId: string, limit: number, mode: 'live' | 'test') =>
      db
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhook_events as e', (j) =>
          j.onRef('e.id', '=', 'd.event_id').onRef('e.company_id', '=', 'd.company_id'),
        )
        .selectAll('d')
        .select(['e.type as event_type', 'e.mode as event_mode'])
        .where('d.company_id', '=', companyId)
        .where('d.endpoint_id', '=', endpointId)
        .where('e.mode', '=', mode)
        .orderBy('d.created_at', 'desc')
        .orderBy('d.id', 'desc')
        .limit(limit)
        .execute(),
    listAttempts: (companyId: string, deliveryIds: readonly string[]) =>
      deliveryIds.length === 0
        ? Promise.resolve([] as AttemptRow[])
        : db
            .selectFrom('webhook_attempts')
            .selectAll()
            .where('company_id', '=', companyId)
            .where('delivery_id', 'in', deliveryIds)
            .orderBy('started_at')
            .orderBy('attempt')
            .execute(),

    /** Marks the start of an endpoint's failing streak, unless one is already running. */
    async markFailing(companyId: string, id: string, since: string): Promise<void> {
      await db
        .updateTable('webhook_endpoints')
        .set({ failing_since: since })
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .where('failing_since', 'is', null)
        .execute();
    },

    /** Switches an endpoint off; false when it already was, so admins are told once. */
    async disableEndpoint(companyId: string, id: string, reason: string, at: string): Promise<boolean> {
      const result = await db
        .updateTable('webhook_endpoints')
        .set({ enabled: false, disabled_reason: reason, updated_at: at })
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .where('enabled', '=', true)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Due now again, unless a worker is sending it at this moment (false then). */
    async requeueDelivery(companyId: string, id: string, at: string): Promise<boolean> {
      const result = await db
        .updateTable('webhook_deliveries')
        .set({ status: 'pending', next_attempt_at: at, locked_until: null, locked_by: null })
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', at)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Pending deliveries of a disabled endpoint stop; they stay in the log as cancelled. */
    async cancelPending(companyId: string, endpointId: string): Promise<void> {
      await db
        .updateTable('webhook_deliveries')
        .set({ status: 'cancelled', locked_until: null, locked_by: null })
        .where('company_id', '=', companyId)
        .where('endpoint_id', '=', endpointId)
        .where('status', '=', 'pending')
        .execute();
    },
  };
}
export type WebhooksRepository = ReturnType<typeof createWebhooksRepository>;
