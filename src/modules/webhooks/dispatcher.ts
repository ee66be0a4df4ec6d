import type { Clock } from '../../lib/clock.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import type { DeliveryResult } from './channels/delivery-result.ts';
import { ENDPOINT_GONE, decideRetry, finishedAttempt, planEndpointWork } from './attempt-outcome.ts';
import type { Target } from './delivery-targets.ts';
import { PER_ENDPOINT_DEFAULT, createEndpointSlots, type Held } from './endpoint-slots.ts';
import { createLookPast } from './look-past.ts';
import type {
  AttemptOutcome,
  ClaimedDelivery,
  DeliveryQueue,
  EndpointWork,
  QueueWatch,
} from './queue/delivery-queue.ts';

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
const NO_RETRY = { failedAt: null, retryAt: null } as const;

export interface DispatcherLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
  /** pino's: skips building a log line per delivery when info is off. */
  isLevelEnabled?(level: string): boolean;
}

export interface DispatcherOptions {
  timeoutMs: number;
  retryDelaysMs: readonly number[];
  /** Sends in flight to one endpoint at most (PER_ENDPOINT_DEFAULT). */
  perEndpoint?: number;
  random?: () => number;
}

/** Where deliveries go: endpoints resolved into targets, and one send over a target's channel. */
export interface Sender {
  forEndpoint(companyId: string, endpointId: string): Promise<Target | null>;
  send(target: Target, eventId: string, payload: string, timestampSeconds: number): Promise<DeliveryResult>;
  /** A `ping` sent now, outside the queue, answered inline. */
  ping(companyId: string, endpointId: string): Promise<DeliveryResult & { eventId: string }>;
}

/**
 * The delivery engine, a pipeline over a DeliveryQueue: it claims due deliveries, keeps up to the
 * queue's window of them in hand, claims more as slots free up (the next claim does not wait
 * for a batch's slowest send), and records finished attempts in batches. Nothing is marked
 * delivered without a 2xx; a crashed worker's lease runs out (timeout + 10 s, at most a minute)
 * and another worker takes the delivery again.
 */
export function createDispatcher(deps: {
  queue: DeliveryQueue;
  sender: Sender;
  clock: Clock;
  newId: IdGenerator;
  logger: DispatcherLogger;
  options: DispatcherOptions;
}) {
  const { queue, sender, clock, logger, options } = deps;
  const random = options.random ?? Math.random;
  const perEndpoint = options.perEndpoint ?? PER_ENDPOINT_DEFAULT;
  const { inFlight: maxHeld, claimAt: claimAtRoom } = queue.window;
  // A Telegram migration sends twice: the lease covers two timeouts plus margin
  // (WEBHOOK_TIMEOUT_MS is capped at 25 s to keep it <= 60 s).
  const leaseMs = Math.min(60_000, 2 * options.timeoutMs + 10_000);
  // A held delivery may start only while its lease still covers two timeouts.
  const slots = createEndpointSlots({ perEndpoint, startWithinMs: leaseMs - 2 * options.timeoutMs, clock });
  const lookPast = createLookPast({ slots, perEndpoint, window: maxHeld, onDue: pump });
  const logDeliveries = () => logger.isLevelEnabled?.('info') ?? true;

  let active = false; // started and not stopping: claims are allowed
  let claiming = false; // never two claims at once
  let recording = false; // never two recordings at once
  let recordDue = false; // the first waiting outcome has waited RECORD_DELAY_MS
  let woken = false; // a wake-up came during a claim: claim again after it
  let drained = true; // the last claim found less than it asked for: wait for a wake-up or a poll
  let pumpTimer: NodeJS.Timeout | NodeJS.Immediate | null = null;
  let lastClaimStart = -Infinity; // performance.now()
  let lastClaimAt = 0;
  let backoffUntil = 0;
  let pollTimer: NodeJS.Timeout | null = null;
  let recordTimer: NodeJS.Timeout | null = null;
  let finished: AttemptOutcome[] = [];
  let quietWaiters: Array<() => void> = [];
  let watch: QueueWatch | null = null;

  /** Claims up to `limit` (passing over the endpoints in `skip`) and starts them; the claim stays open until they are in hand. */
  async function claim(limit: number, skip?: readonly string[]): Promise<number> {
    const now = clock.now();
    const batch = await queue.claim(
      limit,
      { now: now.toISOString(), until: new Date(now.getTime() + leaseMs).toISOString() },
      skip,
    );
    lastClaimAt = Date.now();
    await hold(batch, now.getTime());
    return batch.length;
  }

  /** Takes a claimed batch in hand. Each endpoint is read once per claim: a disabled or edited endpoint takes effect at the next claim. */
  async function hold(batch: readonly ClaimedDelivery[], claimedAt: number): Promise<void> {
    const targets = new Map<string, Target | null>();
    for (const d of batch) {
      if (!targets.has(d.endpoint_id))
        targets.set(d.endpoint_id, await sender.forEndpoint(d.company_id, d.endpoint_id));
    }
    // The clock once per claim rather than per delivery: those that start now all start now.
    const startedAt = clock.now();
    const stamp = { iso: startedAt.toISOString(), seconds: Math.floor(startedAt.getTime() / 1000) };
    for (const delivery of batch) {
      const h = slots.take(delivery, targets.get(delivery.endpoint_id) ?? null, claimedAt);
      if (h) start(h, stamp);
    }
  }

  function start(h: Held, stamp: { iso: string; seconds: number }): void {
    const { delivery, target } = h;
    const attemptNo = delivery.attempts + 1;
    const sent: Promise<DeliveryResult> = target
      ? sender.send(target, delivery.event_id, delivery.payload, stamp.seconds).catch((error: unknown) => {
          // The channels report network trouble as results; a throw here is our own bug.
          logger.error({ err: error, deliveryId: delivery.id }, 'webhook send failed unexpectedly');
          return {
            ok: false,
            statusCode: null,
            durationMs: 0,
            error: 'internal error while sending',
            responseExcerpt: null,
            retryAfterMs: null,
            permanent: null,
          };
        })
      : Promise.resolve(ENDPOINT_GONE);
    void sent.then((result) => {
      const retry =
        target && !result.ok
          ? decideRetry(result, attemptNo, clock.now().getTime(), options.retryDelaysMs, random)
          : NO_RETRY;
      finished.push({
        delivery,
        endpoint: target?.endpoint ?? null,
        attemptNo,
        startedAt: stamp.iso,
        result,
        ...retry,
      });
      slots.finish(h, startWaiting);
      // A retry due before the next idle poll gets a wake-up of its own.
      if (retry.retryAt !== null && retry.retryAt - retry.failedAt! < IDLE_POLL_MS)
        setTimeout(wake, retry.retryAt - retry.failedAt!).unref();
      pump();
      notifyIfQuiet();
    });
  }

  function startWaiting(h: Held, now: Date): void {
    start(h, { iso: now.toISOString(), seconds: Math.floor(now.getTime() / 1000) });
  }

  /**
   * Claims when there is room for at least claimAtRoom more (or, that failing, looks past the
   * saturated endpoints: look-past.ts), records when enough outcomes wait (or with a claim).
   */
  function pump(): void {
    const room = maxHeld - slots.size;
    const mayClaim = active && !drained && !claiming && Date.now() >= backoffUntil;
    let claimNow = mayClaim && room >= claimAtRoom;
    let past = mayClaim && !claimNow ? lookPast.claim() : null;
    const spacing = lastClaimStart + CLAIM_SPACING_MS - performance.now();
    if ((claimNow || past) && spacing > 0) {
      claimNow = false;
      past = null;
      schedulePump(spacing);
    }
    const recordNow =
      !recording && finished.length > 0 && (finished.length >= RECORD_AT || recordDue || claimNow || past !== null);
    // Both in the same turn: a queue that can commits them together.
    if (recordNow) runRecord(!active || recordDue ? finished.length : queue.recordBatch(finished.length));
    if (claimNow) runClaim(room);
    else if (past) runClaim(past.limit, past.skip);
    if (!recordNow && finished.length > 0 && !recording) {
      recordTimer ??= setTimeout(() => {
        recordTimer = null;
        recordDue = true;
        pump();
      }, RECORD_DELAY_MS);
    }
  }

  function runClaim(limit: number, skip?: string[]): void {
    claiming = true;
    woken = false;
    lastClaimStart = performance.now();
    claim(limit, skip).then(
      (claimed) => {
        claiming = false;
        if (skip && claimed < limit) {
          lookPast.foundLess(skip, lastClaimStart, woken);
          armPoll();
        } else if (!skip && claimed < limit && !woken) {
          drained = true;
          armPoll();
        }
        pump();
        notifyIfQuiet();
      },
      (error: unknown) => {
        // A failed claim is tried again after a pause.
        claiming = false;
        logger.error({ err: error }, 'claiming webhook deliveries failed');
        drained = true;
        backoffUntil = Date.now() + IDLE_POLL_MS;
        armPoll();
        pump();
        notifyIfQuiet();
      },
    );
  }

  function runRecord(take: number): void {
    recording = true;
    recordDue = false;
    if (recordTimer) clearTimeout(recordTimer);
    recordTimer = null;
    const outcomes = finished.splice(0, take);
    const deliveredAt = clock.now().toISOString();
    const rows = outcomes.map((o) =>
      finishedAttempt(o, { attemptId: deps.newId('attempt'), workerId: queue.worker, deliveredAt }),
    );
    let applied: readonly EndpointWork[] = [];
    // Rare (failures, recoveries): the endpoints' changes and notifications commit with the outcomes.
    const consequences =
      planEndpointWork(outcomes).length > 0
        ? (recorded: ReadonlySet<string>) =>
            (applied = planEndpointWork(outcomes.filter((o) => recorded.has(o.delivery.id))))
        : undefined;
    queue.record(rows, consequences).then(
      (recorded) => {
        recording = false;
        // The endpoint rows of the targets in hand now match the database, so the next batch of
        // the same endpoint does not plan the same change again.
        for (const w of applied) {
          if (w.kind === 'mark-failing') w.endpoint.failing_since = w.since;
          else if (w.kind === 'clear-failing') w.endpoint.failing_since = null;
          else if (w.kind === 'disable') w.endpoint.enabled = false;
        }
        logOutcomes(outcomes, recorded);
        pump();
        notifyIfQuiet();
      },
      (error: unknown) => {
        // Not recorded means not marked delivered: the leases return those deliveries and they
        // are sent again (at least once).
        recording = false;
        logger.error(
          { err: error, unrecorded: outcomes.length },
          'recording webhook attempts failed; unrecorded attempts return when their leases run out',
        );
        pump();
        notifyIfQuiet();
      },
    );
  }

  /** New work may be due: claim on the next turn of the event loop (wake-ups in one turn make one claim). */
  function wake(): void {
    if (!active) return;
    drained = false;
    lookPast.wake();
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
    pollTimer = setTimeout(
      () => {
        pollTimer = null;
        if (drained || lookPast.waiting) wake();
      },
      Math.max(IDLE_POLL_MS - (Date.now() - lastClaimAt), 0),
    );
    pollTimer.unref(); // the idle timer alone must not keep a process alive
  }

  function logOutcomes(outcomes: readonly AttemptOutcome[], recorded: ReadonlySet<string>): void {
    const logDelivered = logDeliveries();
    for (const o of outcomes) {
      const r = o.result;
      if (r.ok && !logDelivered) continue;
      if (!recorded.has(o.delivery.id)) continue; // another worker owns it now; its outcome is the one that counts
      if (r.ok) {
        logger.info(
          {
            deliveryId: o.delivery.id,
            eventId: o.delivery.event_id,
            attempt: o.attemptNo,
            status: r.statusCode,
            ms: r.durationMs,
          },
          'webhook delivered',
        );
      } else if (o.endpoint) {
        logger.warn(
          {
            deliveryId: o.delivery.id,
            eventId: o.delivery.event_id,
            attempt: o.attemptNo,
            status: r.statusCode,
            error: r.error,
            retryAt: o.retryAt === null ? null : new Date(o.retryAt).toISOString(),
          },
          'webhook attempt failed',
        );
      }
    }
  }

  function isQuiet(): boolean {
    return slots.size === 0 && !claiming && !recording && finished.length === 0;
  }
  function notifyIfQuiet(): void {
    if (quietWaiters.length === 0 || !isQuiet()) return;
    const waiters = quietWaiters;
    quietWaiters = [];
    for (const resolve of waiters) resolve();
  }
  /** Every held delivery sent (or let go) and every outcome recorded. */
  async function settled(): Promise<void> {
    while (!isQuiet()) {
      if (slots.size === 0 && !claiming && !recording && finished.length > 0) runRecord(finished.length);
      await new Promise<void>((resolve) => quietWaiters.push(resolve));
    }
  }

  return {
    async start(): Promise<void> {
      if (active) return;
      active = true;
      watch = await queue.watch(wake);
      wake();
    },
    wake,
    ping: sender.ping,
    /** Claims no more, lets the deliveries in hand finish (each send is bounded by the timeout), records them, then stops. */
    async stop(): Promise<void> {
      active = false;
      if (pollTimer) clearTimeout(pollTimer);
      pollTimer = null;
      lookPast.stop();
      // A pending pump may still be needed to record; it claims nothing once inactive.
      await settled();
      await watch?.stop();
      watch = null;
    },
    /** One pass, for tests and the CLI: sends what is due now and records it. True when more may be due. */
    async runOnce(): Promise<boolean> {
      await settled();
      claiming = true;
      let claimed = 0;
      try {
        claimed = await claim(maxHeld);
      } finally {
        claiming = false;
      }
      await settled();
      return claimed === maxHeld;
    },
  };
}
export type WebhookDispatcher = ReturnType<typeof createDispatcher>;
