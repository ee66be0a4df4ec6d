import type { Clock } from '../../lib/clock.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import { IDLE_POLL_MS, createClaimPacing } from './claim-pacing.ts';
import type { DeliveryResult } from './channels/delivery-result.ts';
import { ENDPOINT_GONE } from './attempt-outcome.ts';
import type { Target } from './delivery-targets.ts';
import { PER_ENDPOINT_DEFAULT, createEndpointSlots, type Held } from './endpoint-slots.ts';
import { createLookPast } from './look-past.ts';
import { createOutcomeRecorder } from './outcome-recorder.ts';
import type { ClaimedDelivery, DeliveryQueue, QueueWatch } from './queue/delivery-queue.ts';

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
 * and another worker takes the delivery again. Its parts: when to claim (claim-pacing.ts), the
 * deliveries in hand per endpoint (endpoint-slots.ts) and the claims that look past a saturated
 * one (look-past.ts), recording the outcomes (outcome-recorder.ts).
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
  const perEndpoint = options.perEndpoint ?? PER_ENDPOINT_DEFAULT;
  const { inFlight: maxHeld, claimAt: claimAtRoom } = queue.window;
  // A Telegram migration sends twice: the lease covers two timeouts plus margin
  // (WEBHOOK_TIMEOUT_MS is capped at 25 s to keep it <= 60 s).
  const leaseMs = Math.min(60_000, 2 * options.timeoutMs + 10_000);
  // A held delivery may start only while its lease still covers two timeouts.
  const slots = createEndpointSlots({ perEndpoint, startWithinMs: leaseMs - 2 * options.timeoutMs, clock });
  const lookPast = createLookPast({ slots, perEndpoint, window: maxHeld, onDue: pump });
  const pacing = createClaimPacing({ pump, onWake: lookPast.wake, lookingPast: () => lookPast.waiting });
  const outcomes = createOutcomeRecorder({ ...deps, onDue: pump, onRecorded: pumpAndSettle });
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
    pacing.leased();
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
      const { retryAt, failedAt } = outcomes.add(h, stamp.iso, result);
      slots.finish(h, startWaiting);
      // A retry due before the next idle poll gets a wake-up of its own.
      if (retryAt !== null && retryAt - failedAt! < IDLE_POLL_MS) setTimeout(pacing.wake, retryAt - failedAt!).unref();
      pumpAndSettle();
    });
  }

  function startWaiting(h: Held, now: Date): void {
    start(h, { iso: now.toISOString(), seconds: Math.floor(now.getTime() / 1000) });
  }

  /**
   * Claims when there is room for at least claimAtRoom more (or, that failing, looks past the
   * saturated endpoints), records when enough outcomes wait, or with a claim.
   */
  function pump(): void {
    const room = maxHeld - slots.size;
    const mayClaim = pacing.mayClaim;
    let claimNow = mayClaim && room >= claimAtRoom;
    let past = mayClaim && !claimNow ? lookPast.claim() : null;
    if ((claimNow || past) && !pacing.spaced()) {
      claimNow = false;
      past = null;
    }
    outcomes.pump(claimNow || past !== null, !pacing.active);
    if (claimNow) runClaim(room);
    else if (past) runClaim(past.limit, past.skip);
  }

  function runClaim(limit: number, skip?: string[]): void {
    const startedAt = pacing.begin();
    claim(limit, skip).then(
      (claimed) => {
        if (skip && claimed < limit) lookPast.foundLess(skip, startedAt, pacing.woken);
        pacing.end(claimed >= limit ? 'all' : skip ? 'less-past' : 'less');
        pumpAndSettle();
      },
      (error: unknown) => {
        pacing.end('failed');
        logger.error({ err: error }, 'claiming webhook deliveries failed');
        pumpAndSettle();
      },
    );
  }

  function isQuiet(): boolean {
    return slots.size === 0 && !pacing.claiming && outcomes.idle;
  }
  function pumpAndSettle(): void {
    pump();
    if (quietWaiters.length === 0 || !isQuiet()) return;
    const waiters = quietWaiters;
    quietWaiters = [];
    for (const resolve of waiters) resolve();
  }
  /** Every held delivery sent (or let go) and every outcome recorded. */
  async function settled(): Promise<void> {
    while (!isQuiet()) {
      if (slots.size === 0 && !pacing.claiming) outcomes.flush();
      await new Promise<void>((resolve) => quietWaiters.push(resolve));
    }
  }

  return {
    async start(): Promise<void> {
      if (pacing.active) return;
      pacing.start();
      watch = await queue.watch(pacing.wake);
      pacing.wake();
    },
    wake: pacing.wake,
    ping: sender.ping,
    /** Claims no more, lets the deliveries in hand finish (each send is bounded by the timeout), records them, then stops. */
    async stop(): Promise<void> {
      pacing.stop();
      lookPast.stop();
      // A pending pump may still be needed to record; it claims nothing once inactive.
      await settled();
      await watch?.stop();
      watch = null;
    },
    /** One pass, for tests and the CLI: sends what is due now and records it. True when more may be due. */
    async runOnce(): Promise<boolean> {
      await settled();
      const claimed = await pacing.alone(() => claim(maxHeld));
      await settled();
      return claimed === maxHeld;
    },
  };
}
export type WebhookDispatcher = ReturnType<typeof createDispatcher>;
