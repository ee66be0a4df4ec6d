// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Target } from './delivery-targets.ts';
import { createEndpointSlots, type Held } from './endpoint-slots.ts';
import { createLookPast } from './look-past.ts';
import type { EndpointRow } from './webhooks.repository.ts';

// When a look-past claim goes and how much it asks for, over real endpoint slots (cap 16,
// window 128) filled with claimed deliveries, sends finished by hand.

const T0 = Date.parse('2026-03-02T08:00:00.000Z');
const iso = new Date(T0).toISOString();

function setup() {
  const slots = createEndpointSlots({ perEndpoint: 16, startWithinMs: 10_000, clock: { now: () => new Date(T0) } });
  let due = 0;
  const lookPast = createLookPast({ slots, perEndpoint: 16, window: 128, onDue: () => due++ });
  const sending = new Map<string, Held[]>();
  let n = 0;
  return {
    lookPast,
    get due() {
      return due;
    },
    /** Claims `count` deliveries of the endpoint: 16 send, the rest wait. */
    hold(endpointId: string, count: number) {
      const endpoint = { id: endpointId, company_id: 'cmp_test', enabled: true } as EndpointRow;
      const t: Target = { endpoint, url: null, company: null, secret: null, key: undefined };
      for (let i = 0; i < count; i++) {
        const id = `whd_${n++}`;
        const d = { id, company_id: 'cmp_test', event_id: `evt_${id}`, endpoint_id: endpointId, attempts: 0 };
        const h = slots.take({ ...d, next_attempt_at: iso, event_type: 'quote.created', payload: '{}' }, t, T0);
        if (h) sending.set(endpointId, [...(sending.get(endpointId) ?? []), h]);
      }
    },
    /** Finishes `count` of the endpoint's sends (its waiting deliveries take their slots). */
    finish(endpointId: string, count: number) {
      for (let i = 0; i < count; i++) {
        const list = sending.get(endpointId)!;
        slots.finish(list.shift()!, (next) => list.push(next));
      }
    },
  };
}

test('none while no endpoint holds twice its cap', () => {
  const s = setup();
  s.hold('whe_a', 31);
  s.hold('whe_b', 31);
  assert.equal(s.lookPast.claim(), null);
});

test("it passes over the saturated endpoints and asks for the window's room without their waiting deliveries, never more than doubling it", () => {
  const s = setup();
  s.hold('whe_slow', 116); // 16 sending, 100 waiting
  s.hold('whe_b', 12);
  // 128 in hand; without the slow one's 100 waiting, 28: room for 100 (and 2 × 128 − 128 = 128 at most).
  assert.deepEqual(s.lookPast.claim(), { limit: 100, skip: ['whe_slow'] });
  s.hold('whe_c', 96); // 16 sending, 80 waiting
  // 224 in hand, 180 of them waiting there: 128 − 44 = 84 by the window, but 256 − 224 = 32 by the doubling.
  assert.deepEqual(s.lookPast.claim(), { limit: 32, skip: ['whe_slow', 'whe_c'] });
  s.hold('whe_c', 32);
  assert.equal(s.lookPast.claim(), null, 'the window is doubled already');
});

test('one that found less is not repeated until an endpoint it passed over has room; after a wake-up, not before its spacing', async () => {
  const s = setup();
  s.hold('whe_slow', 128); // 16 sending, 112 waiting
  assert.deepEqual(s.lookPast.claim(), { limit: 112, skip: ['whe_slow'] });
  s.lookPast.foundLess(['whe_slow'], performance.now(), false);
  assert.equal(s.lookPast.waiting, true);
  assert.equal(s.lookPast.claim(), null, 'still saturated');
  s.hold('whe_b', 32);
  s.finish('whe_slow', 97); // 31 left: below twice the cap
  assert.deepEqual(s.lookPast.claim(), { limit: 81, skip: ['whe_b'] }, 'the slow one has room: at once');

  s.lookPast.wake();
  assert.equal(s.lookPast.waiting, false);
  assert.equal(s.lookPast.claim(), null, 'within 50 ms of the last one');
  await sleep(80);
  assert.equal(s.due, 1, 'the pump is called again once the spacing has passed');
  assert.ok(s.lookPast.claim());
  s.lookPast.stop();
});

test('a wake-up during the look-past claim counts as one after it: the spacing applies, not the wait for room', () => {
  const s = setup();
  s.hold('whe_slow', 128);
  s.lookPast.foundLess(['whe_slow'], performance.now(), true);
  assert.equal(s.lookPast.waiting, false);
  assert.equal(s.lookPast.claim(), null);
  s.lookPast.stop();
});
