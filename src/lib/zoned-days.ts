/**
 * Calendar days where a company is, as UTC instants: documents store instants, while a shop's
 * "26 November" runs from its own midnight to the next (23 or 25 hours across a DST change).
 * One home for the conversion, so a report, an inquiry filter and the DSFinV-K export cut a day
 * at the same instant.
 */

const DAY_MS = 86_400_000;
const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset from UTC at `instantMs`, in ms. */
function offsetAt(instantMs: number, timeZone: string): number {
  let f = offsetFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    offsetFormatters.set(timeZone, f);
  }
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(new Date(instantMs)))
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  const local = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
  return local - Math.floor(instantMs / 1000) * 1000;
}

/** The UTC instant (ISO) of local midnight starting `date` (YYYY-MM-DD) in `timeZone`. */
export function startOfDay(date: string, timeZone: string): string {
  const guess = Date.parse(`${date}T00:00:00.000Z`);
  let instant = guess - offsetAt(guess, timeZone);
  // The offset at midnight itself may differ from the offset at the guess (a DST change that day).
  instant = guess - offsetAt(instant, timeZone);
  return new Date(instant).toISOString();
}

/** The calendar date (YYYY-MM-DD) of an instant in `timeZone`. */
export function localDate(instant: string | Date, timeZone: string): string {
  const ms = typeof instant === 'string' ? Date.parse(instant) : instant.getTime();
  return new Date(ms + offsetAt(ms, timeZone)).toISOString().slice(0, 10);
}

/** `date` (YYYY-MM-DD) moved by whole calendar days. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00.000Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Whether `text` is a real calendar date written YYYY-MM-DD (2026-02-30 is not). */
export function isCalendarDate(text: string): boolean {
  const m = /^(\d{4})-(\d\d)-(\d\d)$/.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}
