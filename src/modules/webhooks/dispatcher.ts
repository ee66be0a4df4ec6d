import type { Clock } from '../../lib/clock.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import type { DeliveryResult } from './channels/delivery-result.ts';
import { ENDPOINT_GONE, decideRetry, finishedAttempt, planEndpointWork } from './attempt-outcome.ts';
import type { Target } from './delivery-targets.ts';
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
/** Sends at once to one endpoint, by default: see `hold`. */
export const PER_ENDPOINT_DEFAULT = 16;
/**
 * After a look-past claim (see `lookPast`) that found less than it asked for, the next one waits
 * for a wake-up, and then at least this long, or 20 times what that one took, unless an endpoint
 * it passed over is no longer saturated: while one fast endpoint keeps the window full, as in a
 * plain drain, a look-past finds nothing, and costs one empty claim at most every 50 ms.
 */
const LOOK_PAST_SPACING_MS = 50;
const LOOK_PAST_COST_FACTOR = 20;
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

/** A claimed delivery this process holds: sending, or waiting for its endpoint's cap. */
interface Held {
  delivery: ClaimedDelivery;
  target: Target | null;
  /** clock ms of the claim that leased it (again). */
  claimedAt: number;
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
  // A held delivery may start only while its lease still covers two timeouts: started later, its
  // lease could run out mid-send and another worker send it too.
  const startWithinMs = leaseMs - 2 * options.timeoutMs;
  const logDeliveries = () => logger.isLevelEnabled?.('info') ?? true;

  let active = false; // started and not stopping: claims are allowed
  const held = new Map<string, Held>(); // by delivery id
  const endpoints = new Map<string, { sending: number; waiting: Held[] }>();
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
  // Look-past claims (see `lookPast`):
  const saturatedAt = 2 * perEndpoint; // an endpoint holding this many (sending and waiting) is passed over
  // The endpoints passed over by the last look-past, which found less than it asked for: until
  // a wake-up, another is worth it only once one of them is no longer saturated.
  let passedOver: ReadonlySet<string> | null = null;
  let lookPastAfter = -Infinity; // performance.now(): after a wake-up, not before this
  let lookPastTimer: NodeJS.Timeout | null = null; // its own, so it never holds back a plain claim's pump

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
      const again = held.get(delivery.id);
      if (again) {
        // Still waiting here when its lease ran out, and leased to this worker again: one copy, the new lease.
        again.claimedAt = claimedAt;
        continue;
      }
      const h: Held = { delivery, target: targets.get(delivery.endpoint_id) ?? null, claimedAt };
      held.set(delivery.id, h);
      if (!h.target) {
        start(h, stamp);
        continue;
      }
      // Per endpoint at most `perEndpoint` sends at once; the rest of its deliveries wait here,
      // claimed but not started, and start as its sends finish, while other endpoints' deliveries
      // in the same claims start at once, and a fast endpoint's sends follow one another without
      // waiting for a claim. Not claiming them instead would need every claim to skip an
      // endpoint's backlog, and the due index (status, next attempt) would be read past every row
      // of that backlog on every claim, or the due rows ranked per endpoint in SQL: the claims of
      // a single busy endpoint would cost more per delivery. Holding them costs their lease,
      // hence the lease guard in `startWaiting`, and a place in the window, which a slow endpoint
      // with a long backlog fills: the look-past claims (`lookPast`) let the others by.
      const slot = endpointSlot(delivery.endpoint_id);
      if (slot.sending < perEndpoint) start(h, stamp);
      else slot.waiting.push(h);
    }
  }

  function someHasRoom(endpointIds: ReadonlySet<string>): boolean {
    for (const id of endpointIds) {
      const slot = endpoints.get(id);
      if (!slot || slot.sending + slot.waiting.length < saturatedAt) return true;
    }
    return false;
  }

  function endpointSlot(endpointId: string) {
    let slot = endpoints.get(endpointId);
    if (!slot) endpoints.set(endpointId, (slot = { sending: 0, waiting: [] }));
    return slot;
  }

  /** The next waiting deliveries of an endpoint that has a free slot; those whose lease no longer covers a send are let go (their leases run out and the queue hands them out again). */
  function startWaiting(endpointId: string): void {
    const slot = endpoints.get(endpointId);
    if (!slot) return;
    while (slot.sending < perEndpoint && slot.waiting.length > 0) {
      const h = slot.waiting.shift()!;
      const now = clock.now();
      if (now.getTime() - h.claimedAt > startWithinMs) {
        held.delete(h.delivery.id);
        continue;
      }
      start(h, { iso: now.toISOString(), seconds: Math.floor(now.getTime() / 1000) });
    }
    if (slot.sending === 0 && slot.waiting.length === 0) endpoints.delete(endpointId);
  }

  function start(h: Held, stamp: { iso: string; seconds: number }): void {
    const { delivery, target } = h;
    const attemptNo = delivery.attempts + 1;
    if (target) endpointSlot(delivery.endpoint_id).sending++;
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
      held.delete(delivery.id);
      if (target) {
        endpointSlot(delivery.endpoint_id).sending--;
        startWaiting(delivery.endpoint_id);
      }
      // A retry due before the next idle poll gets a wake-up of its own.
      if (retry.retryAt !== null && retry.retryAt - retry.failedAt! < IDLE_POLL_MS)
        setTimeout(wake, retry.retryAt - retry.failedAt!).unref();
      pump();
      notifyIfQuiet();
    });
  }

  /**
   * Claims when there is room for at least claimAtRoom more (or, that failing, looks past the
   * saturated endpoints: `lookPast`), records when enough outcomes wait (or with a claim).
   */
  function pump(): void {
    const room = maxHeld - held.size;
    const mayClaim = active && !drained && !claiming && Date.now() >= backoffUntil;
    let claimNow = mayClaim && room >= claimAtRoom;
    let past = mayClaim && !claimNow ? lookPast() : null;
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

  /**
   * A look-past claim, when one is due: the window is full, but some endpoints hold at least
   * `saturatedAt` (twice what they may send at once), and their deliveries waiting for a free
   * slot stop counting against it. Such a claim passes over those endpoints, so it reaches the
   * other endpoints' deliveries due behind their backlogs: one slow receiver with a backlog
   * cannot take the whole window from the others. It takes what room the window has without
   * those waiting deliveries, and never more than doubles the window.
   */
  function lookPast(): { limit: number; skip: string[] } | null {
    // Until a wake-up, worth it only once an endpoint the last one passed over is no longer
    // saturated (the plain claims cannot take its deliveries, and what is due behind them, while
    // the window is full). Checked first: in a single endpoint's drain this runs after every send.
    if (passedOver && !someHasRoom(passedOver)) return null;
    const skip: string[] = [];
    let waitingThere = 0;
    for (const [endpointId, slot] of endpoints) {
      if (slot.sending + slot.waiting.length < saturatedAt) continue;
      skip.push(endpointId);
      waitingThere += slot.waiting.length;
    }
    const limit = Math.min(maxHeld - (held.size - waitingThere), 2 * maxHeld - held.size);
    if (skip.length === 0 || limit <= 0) return null;
    if (passedOver) return { limit, skip };
    const wait = lookPastAfter - performance.now();
    if (wait > 0) {
      lookPastTimer ??= setTimeout(() => {
        lookPastTimer = null;
        pump();
      }, wait);
      return null;
    }
    return { limit, skip };
  }

  function runClaim(limit: number, skip?: string[]): void {
    claiming = true;
    woken = false;
    lastClaimStart = performance.now();
    claim(limit, skip).then(
      (claimed) => {
        claiming = false;
        if (skip && claimed < limit) {
          // Nothing more due but the saturated endpoints' (as far as it saw): look past them again
          // after a wake-up, or once one of them has room, and not too often.
          lookPastAfter =
            performance.now() +
            Math.max(LOOK_PAST_SPACING_MS, LOOK_PAST_COST_FACTOR * (performance.now() - lastClaimStart));
          passedOver = woken ? null : new Set(skip);
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
    passedOver = null;
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
        if (drained || passedOver) wake();
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
    return held.size === 0 && !claiming && !recording && finished.length === 0;
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
      if (held.size === 0 && !claiming && !recording && finished.length > 0) runRecord(finished.length);
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
      if (lookPastTimer) clearTimeout(lookPastTimer);
      lookPastTimer = null;
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
