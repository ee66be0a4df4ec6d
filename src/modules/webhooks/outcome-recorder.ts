import type { Clock } from '../../lib/clock.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import type { DeliveryResult } from './channels/delivery-result.ts';
import { decideRetry, finishedAttempt, planEndpointWork } from './attempt-outcome.ts';
import type { Held } from './endpoint-slots.ts';
import type { AttemptOutcome, DeliveryQueue, EndpointWork } from './queue/delivery-queue.ts';

/**
 * Without a claim to ride along with, outcomes are recorded once this many wait, or
 * RECORD_DELAY_MS after the first (while deliveries flow, claims come sooner than that, so
 * recordings rarely need a commit of their own).
 */
const RECORD_AT = 64;
const RECORD_DELAY_MS = 10;
const NO_RETRY = { failedAt: null, retryAt: null } as const;

interface RecorderLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
  isLevelEnabled?(level: string): boolean;
}

/**
 * Finished attempts, from the send's result to the queue: the retry decision, then recordings in
 * batches (never two at once), each with what it means for its endpoints.
 */
export function createOutcomeRecorder(deps: {
  queue: DeliveryQueue;
  clock: Clock;
  newId: IdGenerator;
  logger: RecorderLogger;
  options: { retryDelaysMs: readonly number[]; random?: () => number };
  /** The first waiting outcome has waited RECORD_DELAY_MS: time to record. */
  onDue: () => void;
  /** A recording ended, recorded or not. */
  onRecorded: () => void;
}) {
  const { queue, clock, logger, options } = deps;
  const random = options.random ?? Math.random;
  const logDeliveries = () => logger.isLevelEnabled?.('info') ?? true;
  const finished: AttemptOutcome[] = [];
  let recording = false;
  let recordDue = false; // the first waiting outcome has waited RECORD_DELAY_MS
  let recordTimer: NodeJS.Timeout | null = null;

  function run(take: number): void {
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
        deps.onRecorded();
      },
      (error: unknown) => {
        // Not recorded means not marked delivered: the leases return those deliveries and they
        // are sent again (at least once).
        recording = false;
        logger.error(
          { err: error, unrecorded: outcomes.length },
          'recording webhook attempts failed; unrecorded attempts return when their leases run out',
        );
        deps.onRecorded();
      },
    );
  }

  function logOutcomes(outcomes: readonly AttemptOutcome[], recorded: ReadonlySet<string>): void {
    const logDelivered = logDeliveries();
    for (const o of outcomes) {
      const r = o.result;
      if (r.ok && !logDelivered) continue;
      if (!recorded.has(o.delivery.id)) continue; // another worker owns it now; its outcome is the one that counts
      const line = { deliveryId: o.delivery.id, eventId: o.delivery.event_id, attempt: o.attemptNo };
      if (r.ok) logger.info({ ...line, status: r.statusCode, ms: r.durationMs }, 'webhook delivered');
      else if (o.endpoint) {
        const retryAt = o.retryAt === null ? null : new Date(o.retryAt).toISOString();
        logger.warn({ ...line, status: r.statusCode, error: r.error, retryAt }, 'webhook attempt failed');
      }
    }
  }

  return {
    /** An attempt's result, with its retry decided, waiting to be recorded. */
    add(h: Held, startedAt: string, result: DeliveryResult): AttemptOutcome {
      const { delivery, target } = h;
      const attemptNo = delivery.attempts + 1;
      const retry =
        target && !result.ok
          ? decideRetry(result, attemptNo, clock.now().getTime(), options.retryDelaysMs, random)
          : NO_RETRY;
      const outcome: AttemptOutcome = {
        delivery,
        endpoint: target?.endpoint ?? null,
        attemptNo,
        startedAt,
        result,
        ...retry,
      };
      finished.push(outcome);
      return outcome;
    },

    /**
     * Records when enough outcomes wait, when they have waited long enough, or with a claim
     * (`withClaim`: one goes out in this same turn, and a queue that can commits them together);
     * otherwise makes sure they are recorded RECORD_DELAY_MS after the first. `all`: record every
     * waiting outcome instead of the queue's batch size (the dispatcher is stopping).
     */
    pump(withClaim: boolean, all: boolean): void {
      if (recording || finished.length === 0) return;
      if (finished.length >= RECORD_AT || recordDue || withClaim) {
        run(all || recordDue ? finished.length : queue.recordBatch(finished.length));
        return;
      }
      recordTimer ??= setTimeout(() => {
        recordTimer = null;
        recordDue = true;
        deps.onDue();
      }, RECORD_DELAY_MS);
    },

    /** Records every waiting outcome now, unless a recording is under way. */
    flush(): void {
      if (!recording && finished.length > 0) run(finished.length);
    },

    /** Nothing waits to be recorded and no recording is under way. */
    get idle(): boolean {
      return !recording && finished.length === 0;
    },
  };
}
export type OutcomeRecorder = ReturnType<typeof createOutcomeRecorder>;
