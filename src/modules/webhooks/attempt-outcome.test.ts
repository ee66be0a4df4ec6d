// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DeliveryResult } from './channels/delivery-result.ts';
import {
  FAILING_LIMIT_MS,
  decideRetry,
  finishedAttempt,
  planEndpointWork,
  type AttemptOutcome,
} from './attempt-outcome.ts';
import type { EndpointRow } from './webhooks.repository.ts';

const T0 = Date.parse('2026-03-02T08:00:00.000Z');
const ok: DeliveryResult = {
  ok: true,
  statusCode: 200,
  durationMs: 3,
  error: null,
  responseExcerpt: 'ok',
  retryAfterMs: null,
  permanent: null,
};
const failed: DeliveryResult = {
  ok: false,
  statusCode: 500,
  durationMs: 3,
  error: 'HTTP 500',
  responseExcerpt: null,
  retryAfterMs: null,
  permanent: null,
};
const gone: DeliveryResult = {
  ...failed,
  statusCode: 410,
  error: 'HTTP 410 Gone (endpoint removed)',
  permanent: 'gone',
};

function endpoint(over: Partial<EndpointRow> = {}): EndpointRow {
  return {
    id: 'whe_1',
    company_id: 'cmp_1',
    kind: 'http',
    description: null,
    url: 'https://example.com/hook',
    secret_sealed: null,
    secret_hint: null,
    chat_id: null,
    events: '[]',
    enabled: true,
    disabled_reason: null,
    failing_since: null,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...over,
  } as EndpointRow;
}

function outcome(result: DeliveryResult, over: Partial<AttemptOutcome> = {}): AttemptOutcome {
  const attemptNo = over.attemptNo ?? 1;
  return {
    delivery: {
      id: 'whd_1',
      company_id: 'cmp_1',
      event_id: 'evt_1',
      endpoint_id: 'whe_1',
      attempts: attemptNo - 1,
      next_attempt_at: '2026-03-02T07:59:59.000Z',
      event_type: 'quote.created',
      payload: '{}',
    },
    endpoint: endpoint(),
    attemptNo,
    startedAt: new Date(T0).toISOString(),
    result,
    ...decideRetry(result, attemptNo, T0, [1_000, 2_000], () => 0.5),
    ...over,
  };
}

test('a success is delivered; a failure is retried on the schedule, then given up; a permanent failure is not retried', () => {
  assert.deepEqual(
    decideRetry(ok, 1, T0, [1_000], () => 0.5),
    { failedAt: null, retryAt: null },
  );
  assert.deepEqual(
    decideRetry(failed, 1, T0, [1_000], () => 0.5),
    { failedAt: T0, retryAt: T0 + 1_000 },
  );
  assert.deepEqual(
    decideRetry(failed, 2, T0, [1_000], () => 0.5),
    { failedAt: T0, retryAt: null },
  );
  assert.deepEqual(
    decideRetry({ ...failed, retryAfterMs: 60_000 }, 1, T0, [1_000], () => 0.5),
    { failedAt: T0, retryAt: T0 + 60_000 },
  );
  assert.deepEqual(
    decideRetry(gone, 1, T0, [1_000], () => 0.5),
    { failedAt: T0, retryAt: null },
  );
});

test('the recorded row: delivered keeps its due time; a retry is pending at the next attempt; a cancelled one keeps its attempt count', () => {
  const ids = { attemptId: 'wha_1', workerId: 'w1', deliveredAt: '2026-03-02T08:00:01.000Z' };
  const delivered = finishedAttempt(outcome(ok), ids);
  assert.deepEqual(delivered.patch, {
    status: 'delivered',
    attempts: 1,
    next_attempt_at: '2026-03-02T07:59:59.000Z',
    last_status_code: 200,
    last_error: null,
    delivered_at: ids.deliveredAt,
  });
  assert.deepEqual(delivered.attempt, {
    id: 'wha_1',
    company_id: 'cmp_1',
    delivery_id: 'whd_1',
    endpoint_id: 'whe_1',
    attempt: 1,
    worker_id: 'w1',
    started_at: new Date(T0).toISOString(),
    duration_ms: 3,
    status_code: 200,
    error: null,
    response_excerpt: 'ok',
    success: true,
  });
  const retry = finishedAttempt(outcome(failed), ids);
  assert.equal(retry.patch.status, 'pending');
  assert.equal(retry.patch.next_attempt_at, new Date(T0 + 1_000).toISOString());
  assert.equal(finishedAttempt(outcome(failed, { attemptNo: 3 }), ids).patch.status, 'failed');
  const cancelled = finishedAttempt(
    outcome({ ...failed, statusCode: null, error: 'endpoint disabled or removed' }, { endpoint: null, attemptNo: 2 }),
    ids,
  );
  assert.deepEqual([cancelled.patch.status, cancelled.patch.attempts, cancelled.attempt.attempt], ['cancelled', 1, 2]);
});

test('successes to a healthy endpoint need no endpoint work: the dispatcher records them on its fast path', () => {
  assert.deepEqual(planEndpointWork([outcome(ok), outcome(ok)]), []);
  // a retry while the endpoint is already failing (not yet for five days) changes nothing either
  const failing = endpoint({ failing_since: new Date(T0 - 86_400_000).toISOString() });
  assert.deepEqual(planEndpointWork([outcome(failed, { endpoint: failing })]), []);
  assert.deepEqual(
    planEndpointWork([outcome(failed, { endpoint: null })]),
    [],
    'cancelled: the endpoint is gone already',
  );
});

test('endpoint work: a failing streak starts, ends, and after five days disables; give-ups are told; 410 disables once', () => {
  const first = outcome(failed);
  assert.deepEqual(planEndpointWork([first]), [
    { kind: 'mark-failing', endpoint: first.endpoint, since: new Date(T0).toISOString() },
  ]);

  const failing = endpoint({ failing_since: new Date(T0 - 86_400_000).toISOString() });
  const recovered = outcome(ok, { endpoint: failing });
  assert.deepEqual(
    planEndpointWork([outcome(failed, { endpoint: failing }), recovered]),
    [{ kind: 'clear-failing', endpoint: failing }],
    'the latest outcome counts',
  );

  const old = endpoint({ failing_since: new Date(T0 - FAILING_LIMIT_MS).toISOString() });
  assert.deepEqual(planEndpointWork([outcome(failed, { endpoint: old })]), [
    { kind: 'disable', endpoint: old, reason: 'failing for more than 5 days' },
  ]);

  const givenUp = outcome(failed, { attemptNo: 3, endpoint: failing });
  assert.deepEqual(planEndpointWork([givenUp]), [{ kind: 'give-up', outcome: givenUp }]);

  const e = endpoint();
  const work = planEndpointWork([
    outcome(gone, { endpoint: e }),
    outcome(gone, { endpoint: e }),
    outcome(ok, { endpoint: e }),
  ]);
  assert.deepEqual(
    work,
    [{ kind: 'disable', endpoint: e, reason: 'the receiver answered 410 Gone' }],
    'one disable, no give-up notice for a permanent failure',
  );
});
