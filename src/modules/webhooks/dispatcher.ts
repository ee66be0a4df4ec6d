import type { Clock } from '../../lib/clock.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import { IDLE_POLL_MS, createClaimPacing } from './claim-pacing.ts';
import { createDeliverySends, type Sender } from './delivery-sends.ts';
import { PER_ENDPOINT_DEFAULT, createEndpointSlots } from './endpoint-slots.ts';
import { createLookPast } from './look-past.ts';
import { createOutcomeRecorder } from './outcome-recorder.ts';
import type { AttemptOutcome, DeliveryQueue, QueueWatch } from './queue/delivery-queue.ts';

export type { Sender } from './delivery-sends.ts';

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

/**
 * The delivery engine, a pipeline over a DeliveryQueue: it claims due deliveries, keeps up to the
 * queue's window of them in hand, claims more as slots free up (the next claim does not wait
 * for a batch's slowest send), and records finished attempts in batches. Nothing is marked
 * delivered without a 2xx; a crashed worker's lease runs out (timeout + 10 s, at most a minute)
 * and another worker takes the delivery again. Its parts: when to claim (claim-pacing.ts), the
 * deliveries in hand per endpoint (endpoint-slots.ts) and the claims that look past a saturated
 * one (look-past.ts), sending them (delivery-sends.ts), recording the outcomes (outcome-recorder.ts).
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
  const sends = createDeliverySends({ sender, clock, logger, slots, outcomes, onFinished });
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
    await sends.hold(batch, now.getTime());
    return batch.length;
  }

  function onFinished({ retryAt, failedAt }: AttemptOutcome): void {
    // A retry due before the next idle poll gets a wake-up of its own.
    if (retryAt !== null && retryAt - failedAt! < IDLE_POLL_MS) setTimeout(pacing.wake, retryAt - failedAt!).unref();
    pumpAndSettle();
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
