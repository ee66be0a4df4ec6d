import type { EndpointSlots } from './endpoint-slots.ts';

/**
 * After a look-past claim that found less than it asked for, the next one waits for a wake-up,
 * and then at least this long, or 20 times what that one took, unless an endpoint it passed
 * over is no longer saturated: while one fast endpoint keeps the window full, as in a plain
 * drain, a look-past finds nothing, and costs one empty claim at most every 50 ms.
 */
const LOOK_PAST_SPACING_MS = 50;
const LOOK_PAST_COST_FACTOR = 20;

/**
 * Look-past claims: the window is full, but some endpoints hold at least `saturatedAt` (twice
 * what they may send at once), and their deliveries waiting for a free slot stop counting
 * against it. Such a claim passes over those endpoints, so it reaches the other endpoints'
 * deliveries due behind their backlogs: one slow receiver with a backlog cannot take the whole
 * window from the others. It takes what room the window has without those waiting deliveries,
 * and never more than doubles the window.
 */
export function createLookPast(deps: {
  slots: Pick<EndpointSlots, 'size' | 'holding' | 'saturated'>;
  perEndpoint: number;
  /** The queue's window: deliveries to keep in hand at once. */
  window: number;
  /** A look-past held back by its spacing may go now. */
  onDue: () => void;
}) {
  const { slots, window: maxHeld } = deps;
  const saturatedAt = 2 * deps.perEndpoint; // an endpoint holding this many (sending and waiting) is passed over
  // The endpoints passed over by the last look-past, which found less than it asked for: until
  // a wake-up, another is worth it only once one of them is no longer saturated.
  let passedOver: ReadonlySet<string> | null = null;
  let after = -Infinity; // performance.now(): after a wake-up, not before this
  let timer: NodeJS.Timeout | null = null; // its own, so it never holds back a plain claim's pump

  function someHasRoom(endpointIds: ReadonlySet<string>): boolean {
    for (const id of endpointIds) if (slots.holding(id) < saturatedAt) return true;
    return false;
  }

  return {
    /** The look-past claim due now, if one is (the window is full: a plain claim cannot go). */
    claim(): { limit: number; skip: string[] } | null {
      // Until a wake-up, worth it only once an endpoint the last one passed over is no longer
      // saturated (the plain claims cannot take its deliveries, and what is due behind them, while
      // the window is full). Checked first: in a single endpoint's drain this runs after every send.
      if (passedOver && !someHasRoom(passedOver)) return null;
      const { endpointIds: skip, waiting } = slots.saturated(saturatedAt);
      const limit = Math.min(maxHeld - (slots.size - waiting), 2 * maxHeld - slots.size);
      if (skip.length === 0 || limit <= 0) return null;
      if (passedOver) return { limit, skip };
      const wait = after - performance.now();
      if (wait > 0) {
        timer ??= setTimeout(() => {
          timer = null;
          deps.onDue();
        }, wait);
        return null;
      }
      return { limit, skip };
    },

    /**
     * A look-past claim (started at `startedAt`, performance.now()) found nothing more due but the
     * saturated endpoints' (as far as it saw): look past them again after a wake-up, or once one
     * of them has room, and not too often. A wake-up during the claim counts as one after it.
     */
    foundLess(skip: readonly string[], startedAt: number, wokenMeanwhile: boolean): void {
      after =
        performance.now() + Math.max(LOOK_PAST_SPACING_MS, LOOK_PAST_COST_FACTOR * (performance.now() - startedAt));
      passedOver = wokenMeanwhile ? null : new Set(skip);
    },

    /** The last look-past found little: the idle poll wakes the dispatcher for it. */
    get waiting(): boolean {
      return passedOver !== null;
    },

    /** New work may be due: a look-past is worth it again (after its spacing). */
    wake(): void {
      passedOver = null;
    },

    stop(): void {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
