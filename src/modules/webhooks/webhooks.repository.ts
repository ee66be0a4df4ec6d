import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { WebhookAttemptsTable, WebhookDeliveriesTable, WebhookEndpointsTable, WebhookEventsTable } from '../../db/schema.ts';

export type EndpointRow = WebhookEndpointsTable;
export type EventRow = WebhookEventsTable;
export type DeliveryRow = WebhookDeliveriesTable;
export type AttemptRow = WebhookAttemptsTable;

/** A claimed delivery with what sending it needs, read in the same statement batch. */
export type ClaimedDelivery = DeliveryRow & {
  event_type: string;
  payload: string;
  event_created_at: string;
};

/** PostgreSQL channel on which committed outbox writes wake the workers of every instance. */
export const OUTBOX_CHANNEL = 'portico_outbox';

export function createWebhooksRepository(db: Executor, engine: 'sqlite' | 'postgres') {
  return {
    /** NOTIFY is transactional: listeners hear it only if the surrounding transaction commits. */
    async announce(): Promise<void> {
      if (engine === 'postgres') await sql`select pg_notify(${OUTBOX_CHANNEL}, '')`.execute(db);
    },

    insertEndpoint: async (row: EndpointRow) => void (await db.insertInto('webhook_endpoints').values(row).execute()),
    findEndpoint: (companyId: string, id: string) =>
      db.selectFrom('webhook_endpoints').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst(),
    listEndpoints: (companyId: string) =>
      db.selectFrom('webhook_endpoints').selectAll().where('company_id', '=', companyId).orderBy('created_at').orderBy('id').execute(),
    listEnabledEndpoints: (companyId: string) =>
      db.selectFrom('webhook_endpoints').selectAll().where('company_id', '=', companyId).where('enabled', '=', true).execute(),
    updateEndpoint: async (companyId: string, id: string, patch: Partial<Omit<EndpointRow, 'id' | 'company_id' | 'created_at'>>) =>
      void (await db.updateTable('webhook_endpoints').set(patch).where('company_id', '=', companyId).where('id', '=', id).execute()),
    /** Endpoint rows go, their delivery log goes with them. */
    async deleteEndpoint(companyId: string, id: string): Promise<void> {
      await db.deleteFrom('webhook_attempts').where('company_id', '=', companyId).where('endpoint_id', '=', id).execute();
      await db.deleteFrom('webhook_deliveries').where('company_id', '=', companyId).where('endpoint_id', '=', id).execute();
      await db.deleteFrom('webhook_endpoints').where('company_id', '=', companyId).where('id', '=', id).execute();
    },

    insertEvent: async (row: EventRow) => void (await db.insertInto('webhook_events').values(row).execute()),
    insertDeliveries: async (rows: DeliveryRow[]) => void (rows.length > 0 && (await db.insertInto('webhook_deliveries').values(rows).execute())),
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
     * Leases up to `limit` due deliveries to `worker`. On PostgreSQL one UPDATE … FOR UPDATE
     * SKIP LOCKED: any number of workers share the queue and never lease the same row twice.
     * On SQLite the write lock of the surrounding transaction serialises claimers.
     */
    async claimDue(worker: string, now: string, leaseUntil: string, limit: number): Promise<ClaimedDelivery[]> {
      const due = db.selectFrom('webhook_deliveries').select('id')
        .where('status', '=', 'pending').where('next_attempt_at', '<=', now)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
        .orderBy('next_attempt_at').limit(limit);
      const claimed = await db.updateTable('webhook_deliveries')
        .set({ locked_until: leaseUntil, locked_by: worker })
        .where('id', 'in', engine === 'postgres' ? due.forUpdate().skipLocked() : due)
        .returningAll()
        .execute();
      if (claimed.length === 0) return [];
      const events = await db.selectFrom('webhook_events').select(['id', 'type', 'payload', 'created_at'])
        .where('id', 'in', [...new Set(claimed.map((d) => d.event_id))]).execute();
      const byId = new Map(events.map((e) => [e.id, e]));
      return claimed.map((d) => {
        const event = byId.get(d.event_id)!;
        return { ...d, event_type: event.type, payload: event.payload, event_created_at: event.created_at };
      });
    },

    /**
     * Records an attempt's outcome only while this worker still holds the lease; false when it
     * lost it (another worker took the delivery, or the endpoint was deleted): then nothing is
     * written and the caller must not act on the outcome.
     */
    async finishAttempt(worker: string, deliveryId: string, patch: Pick<DeliveryRow, 'status' | 'attempts' | 'next_attempt_at' | 'last_status_code' | 'last_error' | 'delivered_at'>, attempt: AttemptRow): Promise<boolean> {
      const result = await db.updateTable('webhook_deliveries').set({ ...patch, locked_until: null, locked_by: null })
        .where('id', '=', deliveryId).where('locked_by', '=', worker).executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      await db.insertInto('webhook_attempts').values(attempt).execute();
      return true;
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
