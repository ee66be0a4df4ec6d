const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Delay before attempt n+1 after attempt n failed (index n-1). 10 retries ≈ 3.6 days in total. */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = Object.freeze([
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
  14 * HOUR,
  20 * HOUR,
  24 * HOUR,
]);

export const MAX_RETRY_AFTER_MS = 24 * HOUR;

/**
 * Delay before the next attempt, or null when the delivery must give up.
 *
 * `attemptsMade` counts attempts already made (all failed): after attempt 1
 * the delay is delays[0]; once attemptsMade > delays.length there is no retry.
 * The delay gets ±20 % jitter (`random` returns a number in [0, 1)) and is
 * never negative. When the receiver sent Retry-After (`retryAfterMs` not null)
 * the result is max(retryAfterMs, jittered delay), capped at 24 h.
 */
export function nextRetryDelay(
  attemptsMade: number,
  delays: readonly number[],
  random: () => number,
  retryAfterMs: number | null,
): number | null {
  const n = Math.max(1, Math.floor(Number.isFinite(attemptsMade) ? attemptsMade : 1));
  if (n > delays.length) return null;
  const base = delays[n - 1] ?? 0;
  const r = Math.min(Math.max(random(), 0), 1);
  const jittered = Math.max(0, Math.round(base * (0.8 + 0.4 * r)));
  if (retryAfterMs === null || !Number.isFinite(retryAfterMs)) return jittered;
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(Math.max(0, retryAfterMs), jittered));
}

const HTTP_DATE_START = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)/i;

/**
 * Parses a Retry-After header value: delta-seconds ("120") or an HTTP-date
 * ("Wed, 21 Oct 2015 07:28:00 GMT", also RFC 850 and asctime forms).
 * Returns milliseconds from `nowMs` (0 for a date in the past) or null when
 * absent or unparseable.
 */
export function parseRetryAfter(value: string | undefined | null, nowMs: number): number | null {
  if (value === undefined || value === null) return null;
  const v = value.trim();
  if (v === '') return null;
  if (/^\d+$/.test(v)) {
    const seconds = Number(v);
    return Number.isSafeInteger(seconds * SECOND) ? seconds * SECOND : Number.MAX_SAFE_INTEGER;
  }
  if (!HTTP_DATE_START.test(v)) return null;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - nowMs);
}
