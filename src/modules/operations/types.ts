import type { OperationsRepository } from './operations.repository.ts';

/** One endpoint's part of the webhook queue. */
export interface EndpointQueue {
  endpointId: string;
  /** Deliveries waiting to be sent (due or scheduled for a retry). */
  pending: number;
  /** Pending deliveries that already failed at least once. */
  retrying: number;
  /** Deliveries given up on (every retry failed, or the endpoint went away). */
  failed: number;
  /** How long the oldest due delivery has waited past its time, in seconds; 0 when none is due. */
  lagSeconds: number;
}

export interface OutboxState {
  pending: number;
  /** How long the oldest due message has waited past its time, in seconds; 0 when none is due. */
  ageSeconds: number;
}

/** The port /metrics reads the shared queues' figures through (built by the composition root). */
export type QueueFigures = Pick<OperationsRepository, 'webhookQueue' | 'emailOutbox'>;
