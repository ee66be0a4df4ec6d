import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { EndpointQueue, OutboxState } from './types.ts';

/**
 * The operator's view: how far the background senders are behind. Across companies by design
 * (one process sends for every tenant); read-only, and each query is a range of the queue's
 * (status, next_attempt_at) index.
 */
export function createOperationsRepository(db: Executor) {
  const seconds = (now: string, oldest: string | null) =>
    oldest ? Math.max(0, (Date.parse(now) - Date.parse(oldest)) / 1000) : 0;
  return {
    async webhookQueue(now: string): Promise<EndpointQueue[]> {
      const rows = await db
        .selectFrom('webhook_deliveries')
        .where('status', 'in', ['pending', 'failed'])
        .groupBy('endpoint_id')
        .select((eb) => [
          'endpoint_id',
          eb.fn.sum<number>(sql`case when status = 'pending' then 1 else 0 end`).as('pending'),
          eb.fn.sum<number>(sql`case when status = 'pending' and attempts > 0 then 1 else 0 end`).as('retrying'),
          eb.fn.sum<number>(sql`case when status = 'failed' then 1 else 0 end`).as('failed'),
          eb.fn
            .min<string | null>(
              sql`case when status = 'pending' and next_attempt_at <= ${now} then next_attempt_at end`,
            )
            .as('oldest_due'),
        ])
        .execute();
      return rows.map((r) => ({
        endpointId: r.endpoint_id,
        pending: Number(r.pending),
        retrying: Number(r.retrying),
        failed: Number(r.failed),
        lagSeconds: seconds(now, r.oldest_due),
      }));
    },

    /** Per lane (`customer`, `staff`); a lane with nothing waiting is reported as 0. */
    async emailOutbox(now: string): Promise<Record<'customer' | 'staff', OutboxState>> {
      const rows = await db
        .selectFrom('email_messages')
        .where('status', '=', 'pending')
        .groupBy('lane')
        .select((eb) => [
          'lane',
          eb.fn.countAll<number>().as('pending'),
          eb.fn.min<string | null>(sql`case when next_attempt_at <= ${now} then next_attempt_at end`).as('oldest_due'),
        ])
        .execute();
      const out = { customer: { pending: 0, ageSeconds: 0 }, staff: { pending: 0, ageSeconds: 0 } };
      for (const r of rows)
        if (r.lane === 'customer' || r.lane === 'staff')
          out[r.lane] = { pending: Number(r.pending), ageSeconds: seconds(now, r.oldest_due) };
      return out;
    },
  };
}
export type OperationsRepository = ReturnType<typeof createOperationsRepository>;
