/** Without a wake-up, look for due work (retries, other instances' events, expired leases) at least this often. */
export const IDLE_POLL_MS = 1_000;
// A claim also waits until CLAIM_SPACING_MS after the previous one: a claim costs a few hundred
// microseconds whatever its size, so at thousands of commits a second one claim per wake-up
// would cost more than the deliveries. It adds at most this much to a delivery's latency.
const CLAIM_SPACING_MS = 2;

/**
 * When the dispatcher may claim: one claim at a time, not too close to the previous one, none
 * after a claim found the queue drained until a wake-up (a commit, a retry falling due) or the
 * idle poll, and a pause after a claim failed.
 */
export function createClaimPacing(deps: {
  /** Runs the dispatcher's pump, which claims if it may. */
  pump: () => void;
  /** New work may be due. */
  onWake: () => void;
  /** Some endpoints were passed over by a look-past that found little: the idle poll wakes for them too. */
  lookingPast: () => boolean;
}) {
  let active = false; // started and not stopping: claims are allowed
  let claiming = false; // never two claims at once
  let woken = false; // a wake-up came during a claim: claim again after it
  let drained = true; // the last claim found less than it asked for: wait for a wake-up or a poll
  let lastClaimStart = -Infinity; // performance.now()
  let lastClaimAt = 0;
  let backoffUntil = 0;
  let pumpTimer: NodeJS.Timeout | NodeJS.Immediate | null = null;
  let pollTimer: NodeJS.Timeout | null = null;

  /** New work may be due: claim on the next turn of the event loop (wake-ups in one turn make one claim). */
  function wake(): void {
    if (!active) return;
    drained = false;
    deps.onWake();
    if (claiming) woken = true;
    else schedulePump(0);
  }

  function schedulePump(delayMs: number): void {
    if (pumpTimer) return;
    const run = () => {
      pumpTimer = null;
      deps.pump();
    };
    pumpTimer = delayMs > 0 ? setTimeout(run, delayMs) : setImmediate(run);
  }

  function armPoll(): void {
    if (!active) return;
    if (pollTimer) clearTimeout(pollTimer);
    pollTimer = setTimeout(
      () => {
        pollTimer = null;
        if (drained || deps.lookingPast()) wake();
      },
      Math.max(IDLE_POLL_MS - (Date.now() - lastClaimAt), 0),
    );
    pollTimer.unref(); // the idle timer alone must not keep a process alive
  }

  return {
    wake,
    get active(): boolean {
      return active;
    },
    start(): void {
      active = true;
    },
    stop(): void {
      active = false;
      if (pollTimer) clearTimeout(pollTimer);
      pollTimer = null;
    },

    /** Whether a claim may go, spacing aside. */
    get mayClaim(): boolean {
      return active && !drained && !claiming && Date.now() >= backoffUntil;
    },
    /** Whether a claim wanted now is spaced enough from the last; if not, the pump runs again once it is. */
    spaced(): boolean {
      const spacing = lastClaimStart + CLAIM_SPACING_MS - performance.now();
      if (spacing <= 0) return true;
      schedulePump(spacing);
      return false;
    },
    get claiming(): boolean {
      return claiming;
    },
    /** A wake-up came during the claim under way. */
    get woken(): boolean {
      return woken;
    },

    /** A claim starts; returns when (performance.now()). */
    begin(): number {
      claiming = true;
      woken = false;
      lastClaimStart = performance.now();
      return lastClaimStart;
    },
    /** The queue answered a claim (the idle poll counts from here). */
    leased(): void {
      lastClaimAt = Date.now();
    },
    /**
     * A claim ended: it found all it asked for, found less (nothing more due: wait for a wake-up
     * or the idle poll, unless a wake-up came during it), looked past saturated endpoints and
     * found less (the poll looks again), or failed (it is tried again after a pause).
     */
    end(found: 'all' | 'less' | 'less-past' | 'failed'): void {
      claiming = false;
      if (found === 'less-past') armPoll();
      else if (found === 'less' && !woken) {
        drained = true;
        armPoll();
      } else if (found === 'failed') {
        drained = true;
        backoffUntil = Date.now() + IDLE_POLL_MS;
        armPoll();
      }
    },
    /** A claim outside the pump (`runOnce`), which no other claim may overlap. */
    async alone<T>(claim: () => Promise<T>): Promise<T> {
      claiming = true;
      try {
        return await claim();
      } finally {
        claiming = false;
      }
    },
  };
}
