import type { DeliveryResult } from './channels/delivery-result.ts';
import { said } from '../i18n/index.ts';
import { nextRetryDelay } from './retry-schedule.ts';
import type { AttemptOutcome, EndpointWork, FinishedAttempt } from './queue/delivery-queue.ts';

export type { AttemptOutcome, EndpointWork } from './queue/delivery-queue.ts';

export const ENDPOINT_GONE: DeliveryResult = {
  ok: false,
  statusCode: null,
  durationMs: 0,
  error: 'endpoint disabled or removed',
  responseExcerpt: null,
  retryAfterMs: null,
  permanent: null,
};

/** A send that threw instead of answering: our own bug, tried again like a network failure. */
export const SEND_THREW: DeliveryResult = {
  ok: false,
  statusCode: null,
  durationMs: 0,
  error: 'internal error while sending',
  responseExcerpt: null,
  retryAfterMs: null,
  permanent: null,
};

/** The retry decision for a result: none after a success or a permanent failure, else the schedule (and Retry-After). */
export function decideRetry(
  result: DeliveryResult,
  attemptNo: number,
  nowMs: number,
  delaysMs: readonly number[],
  random: () => number,
): { failedAt: number | null; retryAt: number | null } {
  if (result.ok) return { failedAt: null, retryAt: null };
  const delay = result.permanent ? null : nextRetryDelay(attemptNo, delaysMs, random, result.retryAfterMs);
  return { failedAt: nowMs, retryAt: delay === null ? null : nowMs + delay };
}

/** The delivery's new state and its attempt-log line. */
export function finishedAttempt(
  o: AttemptOutcome,
  ids: { attemptId: string; workerId: string; deliveredAt: string },
): FinishedAttempt {
  const { delivery, result } = o;
  const cancelled = o.endpoint === null;
  return {
    deliveryId: delivery.id,
    patch: cancelled
      ? {
          status: 'cancelled',
          attempts: delivery.attempts,
          next_attempt_at: delivery.next_attempt_at,
          last_status_code: null,
          last_error: result.error,
          delivered_at: null,
        }
      : result.ok
        ? {
            status: 'delivered',
            attempts: o.attemptNo,
            next_attempt_at: delivery.next_attempt_at,
            last_status_code: result.statusCode,
            last_error: null,
            delivered_at: ids.deliveredAt,
          }
        : {
            status: o.retryAt === null ? 'failed' : 'pending',
            attempts: o.attemptNo,
            next_attempt_at: new Date(o.retryAt ?? o.failedAt!).toISOString(),
            last_status_code: result.statusCode,
            last_error: result.error,
            delivered_at: null,
          },
    attempt: {
      id: ids.attemptId,
      company_id: delivery.company_id,
      delivery_id: delivery.id,
      endpoint_id: delivery.endpoint_id,
      attempt: o.attemptNo,
      worker_id: ids.workerId,
      started_at: o.startedAt,
      duration_ms: Math.round(result.durationMs),
      status_code: result.statusCode,
      error: result.error,
      response_excerpt: result.responseExcerpt,
      success: result.ok,
    },
  };
}

// Past this, an endpoint that never succeeded is switched off and its admins are told.
export const FAILING_LIMIT_MS = 5 * 86_400_000;

/**
 * Give-ups are told (a permanent failure is told as a disabled endpoint instead); per endpoint,
 * its latest outcome in the batch sets its failing state: a success ends a failing streak, a
 * failure starts one or, five days into it, disables the endpoint. Empty for the usual batch
 * (successes to healthy endpoints), which the dispatcher then records on its fast path.
 */
export function planEndpointWork(outcomes: readonly AttemptOutcome[]): EndpointWork[] {
  const work: EndpointWork[] = [];
  const latest = new Map<string, AttemptOutcome>();
  const permanent = new Map<string, AttemptOutcome>();
  for (const o of outcomes) {
    if (!o.endpoint) continue;
    if (!o.result.ok && o.retryAt === null && !o.result.permanent) work.push({ kind: 'give-up', outcome: o });
    latest.set(o.endpoint.id, o);
    if (o.result.permanent && !permanent.has(o.endpoint.id)) permanent.set(o.endpoint.id, o);
  }
  for (const [endpointId, o] of latest) {
    const endpoint = o.endpoint!;
    const gone = permanent.get(endpointId);
    if (gone) {
      work.push({ kind: 'disable', endpoint, reason: permanentReason(gone.result) });
    } else if (o.result.ok) {
      if (endpoint.failing_since) work.push({ kind: 'clear-failing', endpoint });
    } else {
      const since = endpoint.failing_since ?? new Date(o.failedAt!).toISOString();
      if (o.failedAt! - Date.parse(since) >= FAILING_LIMIT_MS)
        work.push({ kind: 'disable', endpoint, reason: said('error.webhook.reason.failingDays', { days: 5 }).text });
      else if (!endpoint.failing_since) work.push({ kind: 'mark-failing', endpoint, since });
    }
  }
  return work;
}

export function permanentReason(result: DeliveryResult): string {
  switch (result.permanent) {
    case 'gone':
      return said('error.webhook.reason.gone').text;
    case 'unauthorized':
      return said('error.webhook.reason.unauthorized').text;
    case 'chat-not-found':
      return said('error.webhook.reason.chatNotFound').text;
    case 'forbidden-target':
      return said('error.webhook.reason.forbiddenTarget').text;
    default:
      return result.error ?? said('error.webhook.reason.permanent').text;
  }
}
