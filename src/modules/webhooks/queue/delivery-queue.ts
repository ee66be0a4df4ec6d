import type { Executor } from '../../../db/database.ts';
import type { WebhookAttemptsTable, WebhookDeliveriesTable, WebhookEndpointsTable } from '../../../db/schema.ts';
import type { DeliveryResult } from '../channels/delivery-result.ts';

/**
 * The delivery queue: what the dispatcher needs of wherever pending deliveries are kept. It
 * claims due deliveries with their events, records outcomes with their attempt log and what
 * they mean for their endpoints, and says when new work may be due. Each engine's tricks stay
 * inside its implementation (sqlite-queue.ts, postgres-queue.ts; in-memory-queue.ts for the
 * dispatcher's tests), as Svix keeps its queue backends behind one trait; the composition root
 * picks one.
 */
export interface DeliveryQueue {
  /** This process's name in leases and in the attempt log. */
  readonly worker: string;
  /**
   * Deliveries to keep claimed at once, and how many must be free before claiming more: fewer,
   * larger claims cost less per delivery, and what a claim costs depends on the queue.
   */
  readonly window: { readonly inFlight: number; readonly claimAt: number };
  /**
   * Leases up to `limit` deliveries due at `lease.now` (earliest due first) to this worker until
   * `lease.until`, with their events. A delivery whose lease ran out is due again. With `skip`
   * (a few endpoint ids), the deliveries of those endpoints are passed over, and the claim reaches
   * the due deliveries behind their backlogs: it reads past their due rows, so the dispatcher asks
   * for it only while some endpoint holds more than it can send (see look-past.ts).
   */
  claim(limit: number, lease: Lease, skip?: readonly string[]): Promise<ClaimedDelivery[]>;
  /**
   * Records finished attempts: the deliveries' new state where this worker still holds their
   * lease, and the attempt log of exactly those. Returns their ids: a delivery whose lease was
   * lost (another worker took it, its endpoint was disabled or deleted) is left alone, and its
   * outcome counts for nothing. `consequences`, given the ids recorded, says what they mean for
   * their endpoints; that work commits with them, or nothing does.
   */
  record(
    attempts: readonly FinishedAttempt[],
    consequences?: (recorded: ReadonlySet<string>) => readonly EndpointWork[],
  ): Promise<ReadonlySet<string>>;
  /**
   * How many of `waiting` outcomes to record alongside a claim (the rest wait for the next one):
   * a queue whose statements come in a few fixed sizes takes a size it has.
   */
  recordBatch(waiting: number): number;
  /** Calls `onWake` whenever deliveries may have become due through someone else's commit. */
  watch(onWake: () => void): Promise<QueueWatch>;
}

export interface QueueWatch {
  stop(): Promise<void>;
}

export interface Lease {
  now: string;
  until: string;
}

export type DeliveryRow = WebhookDeliveriesTable;
export type AttemptRow = WebhookAttemptsTable;

/** A leased delivery, as the lease statement returns it. */
export type LeasedDelivery = Pick<
  DeliveryRow,
  'id' | 'company_id' | 'event_id' | 'endpoint_id' | 'attempts' | 'next_attempt_at'
>;

/** A claimed delivery with what sending it needs, read with the claim. */
export type ClaimedDelivery = LeasedDelivery & {
  event_type: string;
  payload: string;
};

/** One attempt's outcome: the delivery's new state and its line in the attempt log. */
export interface FinishedAttempt {
  deliveryId: string;
  patch: Pick<
    DeliveryRow,
    'status' | 'attempts' | 'next_attempt_at' | 'last_status_code' | 'last_error' | 'delivered_at'
  >;
  attempt: AttemptRow;
}

/** What one attempt left to record. Pure data: the dispatcher records outcomes in batches. */
export interface AttemptOutcome {
  delivery: ClaimedDelivery;
  /** The endpoint as read when the delivery was claimed; null when it was disabled or removed. */
  endpoint: WebhookEndpointsTable | null;
  attemptNo: number;
  startedAt: string;
  result: DeliveryResult;
  /** Failures only: when the result came in, and the next attempt (null: given up). */
  failedAt: number | null;
  retryAt: number | null;
}

/** What a batch of recorded outcomes means beyond the deliveries themselves. */
export type EndpointWork =
  | { kind: 'give-up'; outcome: AttemptOutcome }
  | { kind: 'disable'; endpoint: WebhookEndpointsTable; reason: string }
  | { kind: 'mark-failing'; endpoint: WebhookEndpointsTable; since: string }
  | { kind: 'clear-failing'; endpoint: WebhookEndpointsTable };

/** Carries out endpoint work in the transaction (`tx`) that records the outcomes behind it. */
export type ApplyEndpointWork = (tx: Executor, work: readonly EndpointWork[]) => Promise<void>;

/** PostgreSQL channel on which committed outbox writes wake the workers of every instance. */
export const OUTBOX_CHANNEL = 'portico_outbox';
