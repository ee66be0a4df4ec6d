import type { Clock } from '../../lib/clock.ts';
import type { Target } from './delivery-targets.ts';
import type { ClaimedDelivery } from './queue/delivery-queue.ts';

/** Sends at once to one endpoint, by default: see `take`. */
export const PER_ENDPOINT_DEFAULT = 16;

/** A claimed delivery this process holds: sending, or waiting for its endpoint's cap. */
export interface Held {
  delivery: ClaimedDelivery;
  target: Target | null;
  /** clock ms of the claim that leased it (again). */
  claimedAt: number;
}

/**
 * The deliveries in hand, per endpoint: how many are sending and which wait for a free slot.
 * Per endpoint at most `perEndpoint` sends at once; the rest of its deliveries wait here,
 * claimed but not started, and start as its sends finish, while other endpoints' deliveries in
 * the same claims start at once, and a fast endpoint's sends follow one another without waiting
 * for a claim. Not claiming them instead would need every claim to skip an endpoint's backlog,
 * and the due index (status, next attempt) would be read past every row of that backlog on
 * every claim, or the due rows ranked per endpoint in SQL: the claims of a single busy endpoint
 * would cost more per delivery. Holding them costs their lease, hence the lease guard in
 * `finish`, and a place in the window, which a slow endpoint with a long backlog fills: the
 * look-past claims (look-past.ts) let the others by.
 */
export function createEndpointSlots(deps: {
  perEndpoint: number;
  /** A waiting delivery may start only this long after its claim: later, its lease could run out mid-send. */
  startWithinMs: number;
  clock: Clock;
}) {
  const { perEndpoint, startWithinMs, clock } = deps;
  const held = new Map<string, Held>(); // by delivery id
  const endpoints = new Map<string, { sending: number; waiting: Held[] }>();

  function slotOf(endpointId: string) {
    let slot = endpoints.get(endpointId);
    if (!slot) {
      slot = { sending: 0, waiting: [] };
      endpoints.set(endpointId, slot);
    }
    return slot;
  }

  return {
    /** Deliveries in hand: sending or waiting. */
    get size(): number {
      return held.size;
    },

    /**
     * Takes a claimed delivery in hand; returns it when it may start now (its endpoint's slot
     * taken), null when it waits for a slot or was in hand already.
     */
    take(delivery: ClaimedDelivery, target: Target | null, claimedAt: number): Held | null {
      const again = held.get(delivery.id);
      if (again) {
        // Still waiting here when its lease ran out, and leased to this worker again: one copy, the new lease.
        again.claimedAt = claimedAt;
        return null;
      }
      const h: Held = { delivery, target, claimedAt };
      held.set(delivery.id, h);
      if (!target) return h;
      const slot = slotOf(delivery.endpoint_id);
      if (slot.sending >= perEndpoint) {
        slot.waiting.push(h);
        return null;
      }
      slot.sending++;
      return h;
    },

    /**
     * Lets a finished delivery go and starts (`start`, its slot taken) its endpoint's next waiting
     * ones; those whose lease no longer covers a send are let go (their leases run out and the
     * queue hands them out again).
     */
    finish(h: Held, start: (next: Held, now: Date) => void): void {
      held.delete(h.delivery.id);
      if (!h.target) return;
      const endpointId = h.delivery.endpoint_id;
      const slot = slotOf(endpointId);
      slot.sending--;
      while (slot.sending < perEndpoint && slot.waiting.length > 0) {
        const next = slot.waiting.shift()!;
        const now = clock.now();
        if (now.getTime() - next.claimedAt > startWithinMs) {
          held.delete(next.delivery.id);
          continue;
        }
        slot.sending++;
        start(next, now);
      }
      if (slot.sending === 0 && slot.waiting.length === 0) endpoints.delete(endpointId);
    },

    /** Deliveries of this endpoint in hand, sending and waiting. */
    holding(endpointId: string): number {
      const slot = endpoints.get(endpointId);
      return slot ? slot.sending + slot.waiting.length : 0;
    },

    /** The endpoints holding at least `atLeast`, and how many of their deliveries wait for a slot. */
    saturated(atLeast: number): { endpointIds: string[]; waiting: number } {
      const endpointIds: string[] = [];
      let waiting = 0;
      for (const [endpointId, slot] of endpoints) {
        if (slot.sending + slot.waiting.length < atLeast) continue;
        endpointIds.push(endpointId);
        waiting += slot.waiting.length;
      }
      return { endpointIds, waiting };
    },
  };
}
export type EndpointSlots = ReturnType<typeof createEndpointSlots>;
