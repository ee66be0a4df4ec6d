import type pg from 'pg';
import type { Engine } from '../../db/database.ts';
import { listenPg, type PgListener } from '../../db/pg-listener.ts';
import type { Repositories } from '../store.ts';
import type { NotificationsService } from '../notifications/index.ts';
import type { DeliveryResult } from './channels/delivery-result.ts';
import { ENDPOINT_GONE, decideRetry, finishedAttempt, planEndpointWork, type AttemptOutcome, type EndpointWork } from './attempt-outcome.ts';
import { createTargets, type Target, type TargetDeps } from './delivery-targets.ts';
import { applyEndpointWork } from './endpoint-work.ts';
import { OUTBOX_CHANNEL, type ClaimedDelivery } from './webhooks.repository.ts';

/**
 * The pipeline's window: deliveries one process has on the wire at once (each holds a lease, a
 * timer and at most one connection), and how many slots must be free before it claims more
 * (fewer, larger claims cost less per delivery). On PostgreSQL a claim is a round trip and a
 * commit of a few milliseconds, so more stay on the wire meanwhile.
 */
const WINDOW = { sqlite: { inFlight: 128, claimAt: 64 }, postgres: { inFlight: 256, claimAt: 128 } } as const;
// A claim also waits until CLAIM_SPACING_MS after the previous one: a claim costs a few hundred
// microseconds whatever its size, so at thousands of commits a second one claim per wake-up
// would cost more than the deliveries. It adds at most this much to a delivery's latency.
const CLAIM_SPACING_MS = 2;
/**
 * Without a claim to ride along with, outcomes are recorded once this many wait, or
 * RECORD_DELAY_MS after the first (while deliveries flow, claims come sooner than that, so
 * recordings rarely need a commit of their own).
 */
const RECORD_AT = 64;
const RECORD_DELAY_MS = 10;
/** Without a wake-up, look for due work (retries, other instances' events, expired leases) at least this often. */
const IDLE_POLL_MS = 1_000;
// SQLite has no NOTIFY: a worker in its own process learns of the API's commits by looking.
// `pragma data_version` costs microseconds, so look every 2 ms while busy; after 5 s without work
// every 25 ms, so an idle worker does not spin.
const SQLITE_POLL_MS = 2;
const SQLITE_IDLE_POLL_MS = 25;
const SQLITE_BUSY_WINDOW_MS = 5_000;
/** Tries on the next turns of the event loop when SQLite's write lock is taken, before waiting 1, 2… 5 ms. */
const BUSY_SPINS = 16;
const NO_RETRY = { failedAt: null, retryAt: null } as const;

export interface DispatcherLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
  /** pino's: skips building a log line per delivery when info is off. */
  isLevelEnabled?(level: string): boolean;
}

export interface DispatcherOptions {
  workerId: string;
  timeoutMs: number;
  retryDelaysMs: readonly number[];
  telegramApiUrl: string;
  random?: () => number;
}

/**
 * The delivery engine, a pipeline: it leases due deliveries, keeps up to maxInFlight of them
 * sending, claims more as slots free up (the next claim does not wait for a batch's slowest
 * send), and records finished attempts in set-based batches. Nothing is marked delivered
 * without a 2xx; a crashed worker's lease runs out (timeout + 10 s, at most a minute) and
 * another worker takes the delivery again.
 */
export function createDispatcher(deps: TargetDeps & {
  notifications: NotificationsService;
  logger: DispatcherLogger;
  pool: pg.Pool | null;
  engine: Engine;
  options: DispatcherOptions;
}) {
  const { store, clock, logger, options } = deps;
  const random = options.random ?? Math.random;
  const workerId = options.workerId;
  // A Telegram migration sends twice: the lease covers two timeouts plus margin
  // (WEBHOOK_TIMEOUT_MS is capped at 25 s to keep it <= 60 s).
  const leaseMs = Math.min(60_000, 2 * options.timeoutMs + 10_000);
  const pollsDataVersion = deps.engine === 'sqlite';
  const { inFlight: maxInFlight, claimAt: claimAtRoom } = WINDOW[deps.engine];
  const logDeliveries = () => logger.isLevelEnabled?.('info') ?? true;

  const targets = createTargets({
    store, clock, newId: deps.newId, secretBox: deps.secretBox, agent: deps.agent, telegramAgent: deps.telegramAgent, logger,
    timeoutMs: options.timeoutMs, telegramApiUrl: options.telegramApiUrl,
  });
  const { send } = targets;

  // ---- the pipeline -------------------------------------------------------------------------

  let active = false; // started and not stopping: claims are allowed
  let inFlight = 0;
  let claiming = false; // never two claims at once
  let recording = false; // never two recordings at once
  let recordDue = false; // the first waiting outcome has waited RECORD_DELAY_MS
  let woken = false; // a wake-up came during a claim: claim again after it
  let drained = true; // the last claim found less than it asked for: wait for a wake-up or a poll
  let pumpTimer: NodeJS.Timeout | NodeJS.Immediate | null = null;
  let lastClaimStart = -Infinity; // performance.now()
  let busyStreak = 0; // cycles in a row that found SQLite's write lock taken
  let lastClaimAt = 0;
  let lastWorkAt = 0;
  let backoffUntil = 0;
  let seenVersion = -1;
  let pollTimer: NodeJS.Timeout | null = null;
  let recordTimer: NodeJS.Timeout | null = null;
  let finished: AttemptOutcome[] = [];
  let quietWaiters: Array<() => void> = [];
  // SQLite has one connection and one writer: recording and claiming share a transaction, so
  // one commit (and one turn of the write lock) serves both. On PostgreSQL they run side by
  // side on two connections, so a claim never waits for a recording's commit.
  const overlap = deps.engine === 'postgres';

  /**
   * Records `outcomes` (and what they mean for their endpoints) and/or leases up to `limit`
   * more deliveries, in one transaction; the claimed deliveries start sending at once.
   * 'busy' when, on SQLite, another process holds the write lock: nothing was done, try again.
   */
  async function cycle(limit: number, outcomes: AttemptOutcome[]): Promise<number | 'busy'> {
    const now = clock.now();
    const nowIso = now.toISOString();
    const leaseUntil = new Date(now.getTime() + leaseMs).toISOString();
    const rows = outcomes.map((o) => finishedAttempt(o, { attemptId: deps.newId('attempt'), workerId, deliveredAt: nowIso }));
    const claim = (repos: Repositories) => (limit > 0 ? repos.webhooks.claimDue(workerId, nowIso, leaseUntil, limit) : Promise.resolve([]));
    let done: readonly [ReadonlySet<string>, readonly ClaimedDelivery[]];
    if (planEndpointWork(outcomes).length > 0) {
      // Rare (failures, recoveries): notifications and endpoint changes commit with the outcomes.
      let applied: EndpointWork[] = [];
      done = await store.transaction(async (repos) => {
        const ids = await repos.webhooks.finishAttempts(workerId, rows);
        applied = planEndpointWork(outcomes.filter((o) => ids.has(o.delivery.id)));
        await applyEndpointWork(repos, applied, { notifications: deps.notifications, clock, logger });
        return [ids, await claim(repos)] as const;
      });
      // The endpoint rows of this claim's targets now match the database, so the next batch of
      // the same endpoint does not plan the same change again.
      for (const w of applied) {
        if (w.kind === 'mark-failing') w.endpoint.failing_since = w.since;
        else if (w.kind === 'clear-failing') w.endpoint.failing_since = null;
        else if (w.kind === 'disable') w.endpoint.enabled = false;
      }
    } else if (deps.engine === 'sqlite') {
      // Only the lease and the outcomes under the write lock; the events are read after it.
      const written = await store.repos.webhooks.tryWriteTransaction(async (w) => [
        await w.finishAttempts(workerId, rows),
        limit > 0 ? await w.leaseDue(workerId, nowIso, leaseUntil, limit) : [],
      ] as const);
      if (written === null) return 'busy';
      done = [written[0], await store.repos.webhooks.withEvents(written[1])];
    } else {
      // PostgreSQL: the outcomes are one statement and the claim another, each atomic on its own.
      done = [await store.repos.webhooks.finishAttempts(workerId, rows), await claim(store.repos)];
    }
    const [recorded, batch] = done;
    logOutcomes(outcomes, recorded);
    if (limit > 0) lastClaimAt = Date.now();
    if (batch.length > 0) {
      lastWorkAt = lastClaimAt;
      await startAll(batch);
    }
    return batch.length;
  }

  /** Starts sending a claimed batch. Each endpoint is read once per claim: a disabled or edited endpoint takes effect at the next claim. */
  async function startAll(batch: readonly ClaimedDelivery[]): Promise<void> {
    const byEndpoint = new Map<string, Target | null>();
    for (const d of batch) {
      if (byEndpoint.has(d.endpoint_id)) continue;
      const endpoint = await store.repos.webhooks.findEndpoint(d.company_id, d.endpoint_id);
      byEndpoint.set(d.endpoint_id, endpoint?.enabled ? await targets.resolve(endpoint) : null);
    }
    // The clock once per claim rather than per delivery: they all start now.
    const startedAt = clock.now();
    const startedIso = startedAt.toISOString();
    const timestampSeconds = Math.floor(startedAt.getTime() / 1000);
    for (const d of batch) start(d, byEndpoint.get(d.endpoint_id) ?? null, startedIso, timestampSeconds);
  }

  function start(delivery: ClaimedDelivery, target: Target | null, startedAt: string, timestampSeconds: number): void {
    inFlight++;
    const attemptNo = delivery.attempts + 1;
    const sent: Promise<DeliveryResult> = target
      ? send(target, delivery.event_id, delivery.payload, timestampSeconds).catch((error: unknown) => {
        // The channels report network trouble as results; a throw here is our own bug.
        logger.error({ err: error, deliveryId: delivery.id }, 'webhook send failed unexpectedly');
        return { ok: false, statusCode: null, durationMs: 0, error: 'internal error while sending', responseExcerpt: null, retryAfterMs: null, permanent: null };
      })
      : Promise.resolve(ENDPOINT_GONE);
    void sent.then((result) => {
      const retry = target && !result.ok ? decideRetry(result, attemptNo, clock.now().getTime(), options.retryDelaysMs, random) : NO_RETRY;
      finished.push({ delivery, endpoint: target?.endpoint ?? null, attemptNo, startedAt, result, ...retry });
      inFlight--;
      // A retry due before the next idle poll gets a wake-up of its own.
      if (retry.retryAt !== null && retry.retryAt - retry.failedAt! < IDLE_POLL_MS) setTimeout(wake, retry.retryAt - retry.failedAt!).unref();
      pump();
      notifyIfQuiet();
    });
  }

  /** Claims when there is room for at least claimAtRoom more, records when enough outcomes wait. */
  function pump(): void {
    const room = maxInFlight - inFlight;
    let claim = active && !drained && !claiming && (overlap || !recording) && room >= claimAtRoom && Date.now() >= backoffUntil;
    const spacing = lastClaimStart + CLAIM_SPACING_MS - performance.now();
    if (claim && spacing > 0) {
      claim = false;
      schedulePump(spacing);
    }
    const record = !recording && finished.length > 0 && (overlap || !claiming)
      && (finished.length >= RECORD_AT || recordDue || (claim && !overlap));
    if (overlap && claim && record) {
      runCycle(room, false);
      runCycle(0, true);
    } else if (claim || record) {
      runCycle(claim ? room : 0, record);
    } else if (finished.length > 0 && !recording) {
      recordTimer ??= setTimeout(() => {
        recordTimer = null;
        recordDue = true;
        pump();
      }, RECORD_DELAY_MS);
    }
  }

  function runCycle(limit: number, record: boolean): void {
    let outcomes: AttemptOutcome[] = [];
    if (limit > 0) {
      claiming = true;
      woken = false;
      lastClaimStart = performance.now();
    }
    if (record) {
      // SQLite records in statements of power-of-two sizes (see queue-sql.ts): riding along with
      // a claim it takes the largest such batch and leaves the rest for the next claim, one
      // statement instead of up to eight; after RECORD_DELAY_MS, or stopping, it takes all.
      const take = overlap || !active || recordDue ? finished.length : 2 ** Math.floor(Math.log2(finished.length));
      recording = true;
      recordDue = false;
      if (recordTimer) clearTimeout(recordTimer);
      recordTimer = null;
      outcomes = finished.splice(0, take);
    }
    const done = () => {
      if (limit > 0) claiming = false;
      if (record) recording = false;
    };
    cycle(limit, outcomes).then((claimed) => {
      done();
      if (claimed === 'busy') {
        // Another process is writing: keep the outcomes and try again on the next turns of the
        // event loop (a commit holds the lock for a fraction of a millisecond; a 1 ms timer can
        // fall in step with a writer that commits every millisecond), then back off.
        finished = outcomes.concat(finished);
        recordDue = finished.length > 0;
        busyStreak++;
        if (limit > 0) lastClaimStart = -Infinity; // no claim happened
        if (busyStreak <= BUSY_SPINS) setImmediate(pump);
        else setTimeout(pump, Math.min(busyStreak - BUSY_SPINS, 5));
        return;
      }
      busyStreak = 0;
      if (limit > 0 && claimed < limit && !woken) {
        drained = true;
        armPoll();
      }
      pump();
      notifyIfQuiet();
    }, (error: unknown) => {
      // Not recorded means not marked delivered: the leases return those deliveries and they
      // are sent again (at least once). A failed claim is tried again after a pause.
      done();
      logger.error({ err: error, unrecorded: outcomes.length }, 'webhook dispatch cycle failed; unrecorded attempts return when their leases run out');
      if (limit > 0) {
        drained = true;
        backoffUntil = Date.now() + IDLE_POLL_MS;
        armPoll();
      }
      pump();
      notifyIfQuiet();
    });
  }

  /** New work may be due: claim on the next turn of the event loop (wake-ups in one turn make one claim). */
  function wake(): void {
    if (!active) return;
    drained = false;
    if (claiming) woken = true;
    else schedulePump(0);
  }

  function schedulePump(delayMs: number): void {
    if (pumpTimer) return;
    const run = () => {
      pumpTimer = null;
      pump();
    };
    pumpTimer = delayMs > 0 ? setTimeout(run, delayMs) : setImmediate(run);
  }

  function armPoll(): void {
    if (!active) return;
    if (pollTimer) clearTimeout(pollTimer);
    const delay = pollsDataVersion
      ? (Date.now() - lastWorkAt < SQLITE_BUSY_WINDOW_MS ? SQLITE_POLL_MS : SQLITE_IDLE_POLL_MS)
      : Math.max(IDLE_POLL_MS - (Date.now() - lastClaimAt), 0);
    pollTimer = setTimeout(poll, delay);
    pollTimer.unref(); // the idle timer alone must not keep a process alive
  }

  async function poll(): Promise<void> {
    pollTimer = null;
    if (!active || !drained) return;
    if (pollsDataVersion && Date.now() - lastClaimAt < IDLE_POLL_MS) {
      let version = -1;
      try {
        version = await store.repos.webhooks.dataVersion();
      } catch {
        // unreadable now: claim, which reports the error
      }
      if (version !== -1 && version === seenVersion) return armPoll();
      seenVersion = version;
    }
    wake();
  }

  function logOutcomes(outcomes: readonly AttemptOutcome[], recorded: ReadonlySet<string>): void {
    const logDelivered = logDeliveries();
    for (const o of outcomes) {
      const r = o.result;
      if (r.ok && !logDelivered) continue;
      if (!recorded.has(o.delivery.id)) continue; // another worker owns it now; its outcome is the one that counts
      if (r.ok) {
        if (logDelivered) logger.info({ deliveryId: o.delivery.id, eventId: o.delivery.event_id, attempt: o.attemptNo, status: r.statusCode, ms: r.durationMs }, 'webhook delivered');
      } else if (o.endpoint) {
        logger.warn({ deliveryId: o.delivery.id, eventId: o.delivery.event_id, attempt: o.attemptNo, status: r.statusCode, error: r.error, retryAt: o.retryAt === null ? null : new Date(o.retryAt).toISOString() }, 'webhook attempt failed');
      }
    }
  }

  function isQuiet(): boolean {
    return inFlight === 0 && !claiming && !recording && finished.length === 0;
  }
  function notifyIfQuiet(): void {
    if (quietWaiters.length === 0 || !isQuiet()) return;
    const waiters = quietWaiters;
    quietWaiters = [];
    for (const resolve of waiters) resolve();
  }
  /** Every send finished and every outcome recorded. */
  async function settled(): Promise<void> {
    while (!isQuiet()) {
      if (inFlight === 0 && !claiming && !recording && finished.length > 0) runCycle(0, true);
      await new Promise<void>((resolve) => quietWaiters.push(resolve));
    }
  }

  // Other instances' commits reach us through NOTIFY; whenever the listening connection is
  // (re)established we look once, for what was committed while it was down.
  let listener: PgListener | null = null;

  return {
    async start(): Promise<void> {
      if (active) return;
      active = true;
      if (pollsDataVersion) seenVersion = await store.repos.webhooks.dataVersion().catch(() => -1);
      if (deps.pool) listener = listenPg(deps.pool, OUTBOX_CHANNEL, { onNotify: () => wake(), onListening: () => wake() }, logger);
      wake();
    },
    wake,
    /** Claims no more, lets the sends in flight finish (each is bounded by the timeout), records them, then stops. */
    async stop(): Promise<void> {
      active = false;
      if (pollTimer) clearTimeout(pollTimer);
      pollTimer = null;
      // A pending pump may still be needed to record; it claims nothing once inactive.
      await settled();
      await listener?.stop();
      listener = null;
    },
    ping: targets.ping,
    /** One pass, for tests and the CLI: sends what is due now and records it. True when more may be due. */
    async runOnce(): Promise<boolean> {
      await settled();
      claiming = true;
      let claimed: number | 'busy';
      try {
        while ((claimed = await cycle(maxInFlight, [])) === 'busy') await new Promise((resolve) => setTimeout(resolve, 1));
      } finally {
        claiming = false;
      }
      await settled();
      return claimed === maxInFlight;
    },
  };
}
export type WebhookDispatcher = ReturnType<typeof createDispatcher>;
