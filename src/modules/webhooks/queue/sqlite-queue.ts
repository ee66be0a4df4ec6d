import { CompiledQuery } from 'kysely';
import type { Executor } from '../../../db/database.ts';
import { insertText, powerOfTwoChunks } from '../../../db/written-statements.ts';
import type {
  ApplyEndpointWork,
  ClaimedDelivery,
  DeliveryQueue,
  EndpointWork,
  FinishedAttempt,
  Lease,
  LeasedDelivery,
  QueueWatch,
} from './delivery-queue.ts';
import {
  FINISH_COLUMNS,
  LOG_COLUMNS,
  SQLITE_CLAIM,
  SQLITE_CLAIM_SKIPPING,
  SQLITE_EVENTS,
  sqliteFinishText,
} from './queue-sql.ts';

// One process keeps up to 128 deliveries claimed and claims again once 64 slots are free: a
// claim costs a few hundred microseconds whatever its size (bench/README.md, webhook delivery).
const WINDOW = { inFlight: 128, claimAt: 64 } as const;
/** Tries on the next turns of the event loop when the write lock is taken, before waiting 1, 2… 5 ms. */
const BUSY_SPINS = 16;
const SQLITE_BUSY = 5;
/** 40 MB of WAL at 4 KiB pages: see tryWriteTransaction. */
const WORKER_AUTOCHECKPOINT_PAGES = 10_000;
/** `pragma synchronous` NORMAL: see tryWriteTransaction. */
const SYNCHRONOUS_NORMAL = 1;
// SQLite has no NOTIFY: a worker in its own process learns of the API's commits by looking.
// `pragma data_version` costs microseconds, so look every 2 ms while commits keep coming; after
// 5 s without one every 25 ms, so an idle worker does not spin.
const POLL_MS = 2;
const IDLE_POLL_MS = 25;
const BUSY_WINDOW_MS = 5_000;

interface Pending {
  claim: {
    limit: number;
    lease: Lease;
    skip: readonly string[] | undefined;
    resolve(rows: ClaimedDelivery[]): void;
    reject(error: unknown): void;
  } | null;
  records: Array<{
    attempts: readonly FinishedAttempt[];
    consequences: ((recorded: ReadonlySet<string>) => readonly EndpointWork[]) | undefined;
    resolve(recorded: ReadonlySet<string>): void;
    reject(error: unknown): void;
  }>;
}

/**
 * The queue on SQLite: one connection, one writer. A claim and the recordings asked for in the
 * same turn of the event loop share one write transaction (one commit, one turn of the write
 * lock): the lease and the outcomes are written under the lock, the events read after it.
 */
export function createSqliteQueue(deps: {
  db: Executor;
  worker: string;
  applyEndpointWork: ApplyEndpointWork;
}): DeliveryQueue {
  const { db, worker } = deps;
  let busyTimeout: number | null = null; // the connection's own, read once
  let autocheckpoint: number | null = null;
  let synchronous: number | null = null;
  let pending: Pending = { claim: null, records: [] };
  let scheduled = false;
  let writing = false;

  function request(): void {
    if (scheduled || writing) return;
    scheduled = true;
    queueMicrotask(() => void flush());
  }

  async function flush(): Promise<void> {
    scheduled = false;
    writing = true;
    let work = pending;
    pending = { claim: null, records: [] };
    let streak = 0;
    try {
      for (;;) {
        const written = await tryWriteTransaction(async (conn) => {
          const recorded: Array<ReadonlySet<string>> = [];
          for (const r of work.records) {
            const ids = await finishAttempts(conn, worker, r.attempts);
            const consequences = r.consequences?.(ids) ?? [];
            if (consequences.length > 0) await deps.applyEndpointWork(conn, consequences);
            recorded.push(ids);
          }
          const leased = work.claim ? await leaseDue(conn, worker, work.claim) : [];
          return { recorded, leased };
        });
        if (written) {
          work.records.forEach((r, i) => {
            r.resolve(written.recorded[i]!);
          });
          if (work.claim) withEvents(db, written.leased).then(work.claim.resolve, work.claim.reject);
          break;
        }
        // Another process is writing: nothing was done. Try again on the next turns of the event
        // loop (a commit holds the lock for a fraction of a millisecond; a 1 ms timer can fall in
        // step with a writer that commits every millisecond), then back off; whatever was asked
        // for meanwhile joins this transaction.
        streak++;
        await new Promise((resolve) =>
          streak <= BUSY_SPINS ? setImmediate(resolve) : setTimeout(resolve, Math.min(streak - BUSY_SPINS, 5)),
        );
        work = { claim: work.claim ?? pending.claim, records: work.records.concat(pending.records) };
        pending = { claim: work.claim === pending.claim ? null : pending.claim, records: [] };
      }
    } catch (error) {
      for (const r of work.records) r.reject(error);
      work.claim?.reject(error);
    } finally {
      writing = false;
      if (pending.claim || pending.records.length > 0) request();
    }
  }

  /**
   * Runs `work` in a write transaction if no other connection (another process) holds the write
   * lock right now, and returns null at once if one does. Left to its busy timeout, SQLite would
   * wait by sleeping on the event loop, 1, 2, 5, 10… ms between tries, so that a worker competing
   * with the API's commits stalled for tens of milliseconds at a time; the caller retries after
   * a fraction of a millisecond instead.
   *
   * Its commit also leaves the WAL checkpoint to other writers unless the WAL has grown past
   * WORKER_AUTOCHECKPOINT_PAGES: a checkpoint (page copies and two fsyncs) runs on the event
   * loop of whichever commit crosses the threshold, and in the worker it holds up every
   * delivery on the wire. The API's commits, far more frequent, keep checkpointing at the usual
   * 1000 pages; a worker writing alone still checkpoints, less often.
   *
   * Its commit does not wait for the disk either (synchronous NORMAL, whatever the connection's
   * own setting): it acknowledges nothing to a client. A lease or an outcome lost to a power cut
   * means a delivery is sent again, which at-least-once delivery allows; an fsync in every claim
   * would add milliseconds to every delivery's latency. The next FULL commit of the API syncs
   * these frames with its own.
   *
   * The connection is held for the whole call, so nothing else runs while these connection
   * settings are changed; they are restored before it is released.
   */
  async function tryWriteTransaction<T>(work: (conn: Executor) => Promise<T>): Promise<T | null> {
    return db.connection().execute(async (conn) => {
      const run = (text: string) => conn.executeQuery(CompiledQuery.raw(text, []));
      busyTimeout ??= Number(
        (await conn.executeQuery<{ timeout: number }>(CompiledQuery.raw('pragma busy_timeout', []))).rows[0]?.timeout ??
          0,
      );
      autocheckpoint ??= Number(
        (await conn.executeQuery<{ wal_autocheckpoint: number }>(CompiledQuery.raw('pragma wal_autocheckpoint', [])))
          .rows[0]?.wal_autocheckpoint ?? 1000,
      );
      synchronous ??= Number(
        (await conn.executeQuery<{ synchronous: number }>(CompiledQuery.raw('pragma synchronous', []))).rows[0]
          ?.synchronous ?? 2,
      );
      await run('pragma busy_timeout = 0');
      await run(`pragma synchronous = ${SYNCHRONOUS_NORMAL}`);
      try {
        await run('begin immediate');
      } catch (error) {
        await run(`pragma busy_timeout = ${busyTimeout}`);
        await run(`pragma synchronous = ${synchronous}`);
        if ((error as { errcode?: number }).errcode === SQLITE_BUSY) return null;
        throw error;
      }
      await run(`pragma wal_autocheckpoint = ${WORKER_AUTOCHECKPOINT_PAGES}`);
      try {
        const result = await work(conn);
        await run('commit');
        return result;
      } catch (error) {
        await run('rollback').catch(() => {});
        throw error;
      } finally {
        await run(`pragma busy_timeout = ${busyTimeout}`);
        await run(`pragma wal_autocheckpoint = ${autocheckpoint}`);
        await run(`pragma synchronous = ${synchronous}`);
      }
    });
  }

  return {
    worker,
    window: WINDOW,
    claim: (limit, lease, skip) =>
      new Promise((resolve, reject) => {
        if (pending.claim) throw new Error('one claim at a time');
        pending.claim = { limit, lease, skip, resolve, reject };
        request();
      }),
    record: (attempts, consequences) =>
      new Promise((resolve, reject) => {
        pending.records.push({ attempts, consequences, resolve, reject });
        request();
      }),
    // Statements come in power-of-two sizes (see finishAttempts): riding along with a claim, the
    // largest such batch is one statement instead of up to eight; the rest go with the next.
    recordBatch: (waiting) => (waiting === 0 ? 0 : 2 ** Math.floor(Math.log2(waiting))),
    async watch(onWake): Promise<QueueWatch> {
      let stopped = false;
      let timer: NodeJS.Timeout | null = null;
      let seen = await dataVersion(db).catch(() => -1);
      let changedAt = Date.now();
      const look = async () => {
        timer = null;
        let version = -1;
        try {
          version = await dataVersion(db);
        } catch {
          // unreadable now: wake, and the claim reports the error
        }
        if (stopped) return;
        if (version === -1 || version !== seen) {
          seen = version;
          changedAt = Date.now();
          onWake();
        }
        arm();
      };
      const arm = () => {
        timer = setTimeout(() => void look(), Date.now() - changedAt < BUSY_WINDOW_MS ? POLL_MS : IDLE_POLL_MS);
        timer.unref(); // the poll alone must not keep a process alive
      };
      arm();
      return {
        async stop() {
          stopped = true;
          if (timer) clearTimeout(timer);
        },
      };
    },
  };
}

/**
 * The lease: the part of a claim that needs the write lock. Today's statement unless endpoints
 * are to be passed over: the common claim pays nothing for the rare one.
 */
async function leaseDue(
  conn: Executor,
  worker: string,
  claim: { limit: number; lease: Lease; skip: readonly string[] | undefined },
): Promise<LeasedDelivery[]> {
  const { limit, lease, skip } = claim;
  const query = skip?.length
    ? CompiledQuery.raw(SQLITE_CLAIM_SKIPPING, [lease.until, worker, lease.now, lease.now, JSON.stringify(skip), limit])
    : CompiledQuery.raw(SQLITE_CLAIM, [lease.until, worker, lease.now, lease.now, limit]);
  return (await conn.executeQuery<LeasedDelivery>(query)).rows;
}

/** The events the leased deliveries send, read after the write lock is released. */
async function withEvents(db: Executor, leased: readonly LeasedDelivery[]): Promise<ClaimedDelivery[]> {
  if (leased.length === 0) return [];
  const events = (
    await db.executeQuery<{ id: string; type: string; payload: string }>(
      CompiledQuery.raw(SQLITE_EVENTS, [JSON.stringify(leased.map((d) => d.event_id))]),
    )
  ).rows;
  const byId = new Map(events.map((e) => [e.id, e]));
  return leased.map((d) => {
    const event = byId.get(d.event_id)!;
    // The rows are ours: completed in place rather than copied.
    return Object.assign(d, { event_type: event.type, payload: event.payload });
  });
}

/**
 * Outcomes: UPDATE … FROM a VALUES list (guarded by the lease), then the attempt log of the rows
 * updated as multi-row INSERTs, in chunks of a few fixed sizes so each text is prepared once.
 * Runs inside the write transaction.
 */
async function finishAttempts(
  conn: Executor,
  worker: string,
  outcomes: readonly FinishedAttempt[],
): Promise<Set<string>> {
  const recorded = new Set<string>();
  if (outcomes.length === 0) return recorded;
  for (const chunk of powerOfTwoChunks(outcomes)) {
    const params: unknown[] = [];
    for (const { deliveryId, patch } of chunk)
      for (const c of FINISH_COLUMNS) params.push(c === 'id' ? deliveryId : patch[c]);
    params.push(worker);
    const { rows } = await conn.executeQuery<{ id: string }>(CompiledQuery.raw(sqliteFinishText(chunk.length), params));
    for (const row of rows) recorded.add(row.id);
  }
  for (const chunk of powerOfTwoChunks(outcomes.filter((o) => recorded.has(o.deliveryId)))) {
    const params: unknown[] = [];
    for (const { attempt } of chunk) for (const c of LOG_COLUMNS) params.push(attempt[c]);
    await conn.executeQuery(
      CompiledQuery.raw(insertText('sqlite', 'webhook_attempts', LOG_COLUMNS, chunk.length), params),
    );
  }
  return recorded;
}

/**
 * A number that changes whenever another connection (another process) has committed since the
 * last call. Reading it touches no table, so a worker can look every few milliseconds.
 */
async function dataVersion(db: Executor): Promise<number> {
  const { rows } = await db.executeQuery<{ data_version: number }>(CompiledQuery.raw('pragma data_version', []));
  return Number(rows[0]?.data_version ?? 0);
}
