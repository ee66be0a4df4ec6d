export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** ISO 8601 UTC with milliseconds: the one timestamp format stored and returned. */
export function isoNow(clock: Clock): string {
  return clock.now().toISOString();
}
