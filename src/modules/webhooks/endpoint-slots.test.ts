// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Target } from './delivery-targets.ts';
import { createEndpointSlots, type Held } from './endpoint-slots.ts';
import type { ClaimedDelivery } from './queue/delivery-queue.ts';
import type { EndpointRow } from './webhooks.repository.ts';

// The per-endpoint accounting on its own: which claimed deliveries start, which wait, and when a
// waiting one is let go. The dispatcher's tests show the same rules through a whole pipeline.

const T0 = Date.parse('2026-03-02T08:00:00.000Z');

function target(endpointId: string): Target {
  const iso = new Date(T0).toISOString();
  const endpoint: EndpointRow = {
    id: endpointId,
    company_id: 'cmp_test',
    kind: 'http',
    description: null,
    url: `http://127.0.0.1:9/${endpointId}`,
    secret_sealed: null,
    secret_hint: null,
    chat_id: null,
    events: '[]',
    enabled: true,
    disabled_reason: null,
    failing_since: null,
    created_at: iso,
    updated_at: iso,
  };
  return { endpoint, url: null, company: null, secret: null, key: undefined };
}

function setup(perEndpoint = 2) {
  let now = T0;
  const slots = createEndpointSlots({ perEndpoint, startWithinMs: 10_000, clock: { now: () => new Date(now) } });
  const started: string[] = [];
  let n = 0;
  return {
    slots,
    started,
    advance: (ms: number) => (now += ms),
    /** Takes `count` new deliveries of the endpoint in hand; the ids of those that may start now. */
    take(endpointId: string, count: number, t: Target | null = target(endpointId)): Held[] {
      const startNow: Held[] = [];
      for (let i = 0; i < count; i++) {
        const h = slots.take(delivery(`whd_${n++}`, endpointId), t, now);
        if (h) startNow.push(h);
      }
      return startNow;
    },
    finish: (h: Held) => slots.finish(h, (next) => started.push(next.delivery.id)),
  };
}

function delivery(id: string, endpointId: string): ClaimedDelivery {
  return {
    id,
    company_id: 'cmp_test',
    event_id: `evt_${id}`,
    endpoint_id: endpointId,
    attempts: 0,
    next_attempt_at: new Date(T0).toISOString(),
    event_type: 'quote.created',
    payload: '{}',
  };
}

test('per endpoint at most perEndpoint start; the rest wait and start in order, one per finished send', () => {
  const s = setup(2);
  const first = s.take('whe_a', 5);
  assert.deepEqual(
    first.map((h) => h.delivery.id),
    ['whd_0', 'whd_1'],
  );
  assert.equal(s.take('whe_b', 1).length, 1, "another endpoint's delivery starts at once");
  assert.deepEqual([s.slots.size, s.slots.holding('whe_a'), s.slots.holding('whe_b')], [6, 5, 1]);

  s.finish(first[0]!);
  assert.deepEqual(s.started, ['whd_2']);
  s.finish(first[1]!);
  assert.deepEqual(s.started, ['whd_2', 'whd_3']);
  assert.deepEqual([s.slots.size, s.slots.holding('whe_a')], [4, 3]);
});

test('an endpoint with nothing in hand is forgotten: no longer counted as saturated', () => {
  const s = setup(1);
  const [h] = s.take('whe_a', 2);
  assert.deepEqual(s.slots.saturated(2), { endpointIds: ['whe_a'], waiting: 1 });
  s.finish(h!);
  const next = s.slots.saturated(1);
  assert.deepEqual(next, { endpointIds: ['whe_a'], waiting: 0 }, 'the waiting one now sends');
  s.finish({ delivery: delivery(s.started[0]!, 'whe_a'), target: target('whe_a'), claimedAt: T0 });
  assert.deepEqual(s.slots.saturated(1), { endpointIds: [], waiting: 0 });
  assert.deepEqual([s.slots.size, s.slots.holding('whe_a')], [0, 0]);
});

test("a delivery whose endpoint is gone starts at once and takes no endpoint's slot", () => {
  const s = setup(1);
  assert.equal(s.take('whe_gone', 3, null).length, 3);
  assert.equal(s.slots.holding('whe_gone'), 0);
  assert.equal(s.slots.size, 3);
});

test('a waiting delivery is let go once its lease no longer covers a send; one leased again keeps one copy and the new lease', () => {
  const s = setup(1);
  const [sending] = s.take('whe_a', 3); // whd_0 sends, whd_1 and whd_2 wait
  s.advance(5_000);
  // whd_2 leased to this worker again (its lease ran out while it waited): one copy, claimed now.
  assert.equal(s.slots.take(delivery('whd_2', 'whe_a'), target('whe_a'), T0 + 5_000), null);
  assert.equal(s.slots.size, 3);
  s.advance(5_001); // whd_1 was claimed 10.001 s ago, whd_2 5.001 s ago
  s.finish(sending!);
  assert.deepEqual(s.started, ['whd_2'], 'whd_1 let go, whd_2 started');
  assert.deepEqual([s.slots.size, s.slots.holding('whe_a')], [1, 1]);
});
