import { CompiledQuery } from 'kysely';
import type pg from 'pg';
import type { Executor } from '../../../db/database.ts';
import { listenPg } from '../../../db/pg-listener.ts';
import {
  OUTBOX_CHANNEL,
  type ApplyEndpointWork,
  type ClaimedDelivery,
  type DeliveryQueue,
  type FinishedAttempt,
} from './delivery-queue.ts';
import { FINISH_COLUMNS, LOG_COLUMNS, PG_CLAIM, PG_CLAIM_SKIPPING, PG_FINISH } from './queue-sql.ts';

// A claim is a round trip and a commit of a few milliseconds, so more deliveries stay on the
// wire meanwhile than on SQLite (bench/README.md, webhook delivery).
const WINDOW = { inFlight: 256, claimAt: 128 } as const;

/**
 * The queue on PostgreSQL. A claim is one statement (FOR UPDATE SKIP LOCKED: any number of
 * workers share the queue and never lease the same row twice; the events joined in), and so is
 * a recording, each atomic on its own. They run side by side on two pooled connections, so a
 * claim never waits for a recording's commit. Commits of the outbox anywhere wake every
 * instance through LISTEN/NOTIFY.
 */
export function createPostgresQueue(deps: {
  db: Executor;
  pool: pg.Pool;
  worker: string;
  applyEndpointWork: ApplyEndpointWork;
  logger: { warn(details: object, message: string): void };
}): DeliveryQueue {
  const { db, worker } = deps;
  return {
    worker,
    window: WINDOW,
    async claim(limit, lease, skip): Promise<ClaimedDelivery[]> {
      // Today's statement unless endpoints are to be passed over: the common claim pays nothing for the rare one.
      const query = skip?.length
        ? CompiledQuery.raw(PG_CLAIM_SKIPPING, [lease.now, limit, lease.until, worker, skip])
        : CompiledQuery.raw(PG_CLAIM, [lease.now, limit, lease.until, worker]);
      return (await db.executeQuery<ClaimedDelivery>(query)).rows;
    },
    async record(attempts, consequences): Promise<ReadonlySet<string>> {
      if (!consequences) return finishAttempts(db, worker, attempts);
      // Rare (failures, recoveries): notifications and endpoint changes commit with the outcomes.
      return db.transaction().execute(async (tx) => {
        const recorded = await finishAttempts(tx, worker, attempts);
        const work = consequences(recorded);
        if (work.length > 0) await deps.applyEndpointWork(tx, work);
        return recorded;
      });
    },
    // One statement for any number of rows: record everything that waits.
    recordBatch: (waiting) => waiting,
    async watch(onWake) {
      // Whenever the listening connection is (re)established, look once, for what was committed
      // while it was down.
      return listenPg(deps.pool, OUTBOX_CHANNEL, { onNotify: onWake, onListening: onWake }, deps.logger);
    },
  };
}

/**
 * One statement for any number of rows (arrays unnested; its own transaction when there is none
 * around it): the deliveries' new state where this worker holds the lease, and their attempt log.
 */
async function finishAttempts(
  db: Executor,
  worker: string,
  outcomes: readonly FinishedAttempt[],
): Promise<Set<string>> {
  const recorded = new Set<string>();
  if (outcomes.length === 0) return recorded;
  const params = [
    ...FINISH_COLUMNS.map((c) => outcomes.map((o) => (c === 'id' ? o.deliveryId : o.patch[c]))),
    worker,
    ...LOG_COLUMNS.map((c) => outcomes.map((o) => o.attempt[c])),
  ];
  const { rows } = await db.executeQuery<{ delivery_id: string }>(CompiledQuery.raw(PG_FINISH, params));
  for (const row of rows) recorded.add(row.delivery_id);
  return recorded;
}
