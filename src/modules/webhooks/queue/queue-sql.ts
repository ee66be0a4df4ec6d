/**
 * The SQL of the delivery queue's hot statements, written out rather than built with Kysely's
 * query builder: they run thousands of times a second, and building and compiling a query cost
 * more per row than SQLite takes to write it. Values are always parameters. Used only by the
 * queue implementations beside it; their exact texts are snapshotted (test/db/written-sql.test.ts).
 * Claims and recordings run across tenants by design (see CROSS_TENANT in written-statements.ts).
 */
import type { AttemptRow } from './delivery-queue.ts';
import { cachedText, valuesList } from '../../../db/written-statements.ts';

/** One statement: lease (FOR UPDATE SKIP LOCKED), and the events joined in; `due` narrows the pending rows. */
const pgClaim = (due: string) => `
  with due as (
    select id from webhook_deliveries
    where status = 'pending' and next_attempt_at <= $1 and (locked_until is null or locked_until < $1)${due}
    order by next_attempt_at limit $2
    for update skip locked
  ), claimed as (
    update webhook_deliveries d set locked_until = $3, locked_by = $4
    from due where d.id = due.id
    returning d.id, d.company_id, d.event_id, d.endpoint_id, d.attempts, d.next_attempt_at
  )
  select claimed.*, e.type as event_type, e.payload
  from claimed join webhook_events e on e.id = claimed.event_id
  order by claimed.next_attempt_at`;

/** $1 now, $2 limit, $3 lease end, $4 worker. */
export const PG_CLAIM = pgClaim('');

/** PG_CLAIM passing over the deliveries of the endpoints in $5 (DeliveryQueue.claim's `skip`), rare. */
export const PG_CLAIM_SKIPPING = pgClaim(`
      and endpoint_id <> all($5::text[])`);

/** The lease alone: the part of a claim that needs SQLite's write lock. Lease end, worker, now, now, limit. */
export const SQLITE_CLAIM = `
  update webhook_deliveries set locked_until = ?, locked_by = ?
  where id in (
    select id from webhook_deliveries
    where status = 'pending' and next_attempt_at <= ? and (locked_until is null or locked_until < ?)
    order by next_attempt_at limit ?
  )
  returning id, company_id, event_id, endpoint_id, attempts, next_attempt_at`;

/**
 * The lease, passing over the deliveries of some endpoints (a JSON array of their ids): a look-past
 * claim (DeliveryQueue.claim's `skip`), rare. Lease end, worker, now, now, endpoints to skip, limit.
 */
export const SQLITE_CLAIM_SKIPPING = `
  update webhook_deliveries set locked_until = ?, locked_by = ?
  where id in (
    select id from webhook_deliveries
    where status = 'pending' and next_attempt_at <= ? and (locked_until is null or locked_until < ?)
      and endpoint_id not in (select value from json_each(?))
    order by next_attempt_at limit ?
  )
  returning id, company_id, event_id, endpoint_id, attempts, next_attempt_at`;

/** The events of leased deliveries: one JSON array of ids, whatever their number. */
export const SQLITE_EVENTS =
  'select id, type, payload from webhook_events where id in (select value from json_each(?))';

export const FINISH_COLUMNS = [
  'id',
  'status',
  'attempts',
  'next_attempt_at',
  'last_status_code',
  'last_error',
  'delivered_at',
] as const;
export const LOG_COLUMNS = [
  'id',
  'company_id',
  'delivery_id',
  'endpoint_id',
  'attempt',
  'worker_id',
  'started_at',
  'duration_ms',
  'status_code',
  'error',
  'response_excerpt',
  'success',
] as const satisfies ReadonlyArray<keyof AttemptRow>;
/**
 * Outcomes in one statement: the deliveries' new state where this worker still holds the lease,
 * and the attempt log of exactly those. One array parameter per column ($1–$7 the deliveries,
 * $8 the worker, $9–$20 the log), so the text is the same whatever the number of rows.
 */
export const PG_FINISH = `
  with v as (
    select * from unnest($1::text[], $2::text[], $3::int[], $4::timestamptz[], $5::int[], $6::text[], $7::timestamptz[])
      as v (${FINISH_COLUMNS.join(', ')})
  ), done as (
    update webhook_deliveries d
    set status = v.status, attempts = v.attempts, next_attempt_at = v.next_attempt_at, last_status_code = v.last_status_code,
        last_error = v.last_error, delivered_at = v.delivered_at, locked_until = null, locked_by = null
    from v
    -- "= any" as well as the join, so the rows are found through the primary key whatever the
    -- planner guesses (a hash join would read the whole table, which only grows)
    where d.id = any($1::text[]) and d.id = v.id and d.locked_by = $8
    returning d.id
  )
  insert into webhook_attempts (${LOG_COLUMNS.join(', ')})
  select a.* from unnest($9::text[], $10::text[], $11::text[], $12::text[], $13::int[], $14::text[], $15::timestamptz[], $16::int[],
                         $17::int[], $18::text[], $19::text[], $20::boolean[])
    as a (${LOG_COLUMNS.join(', ')})
  where a.delivery_id in (select id from done)
  returning delivery_id`;

/** SQLite: outcomes of `rows` deliveries from a VALUES list (7 values each, then the worker), returning the ids updated. */
export function sqliteFinishText(rows: number): string {
  return cachedText(
    `finish:${rows}`,
    () => `
    with v (${FINISH_COLUMNS.join(', ')}) as (values ${valuesList('sqlite', rows, FINISH_COLUMNS.length)})
    update webhook_deliveries
    set status = v.status, attempts = v.attempts, next_attempt_at = v.next_attempt_at, last_status_code = v.last_status_code,
        last_error = v.last_error, delivered_at = v.delivered_at, locked_until = null, locked_by = null
    from v
    where webhook_deliveries.id = v.id and webhook_deliveries.locked_by = ?
    returning webhook_deliveries.id`,
  );
}
