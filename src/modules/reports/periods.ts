/**
 * Report periods: calendar dates in the company's time zone turned into UTC instants, because
 * documents store instants and an accountant's "November" is November where the shop is. A day
 * runs from local midnight to the next local midnight (23 or 25 hours across a DST change).
 */

import { addDays, localDate, startOfDay } from '../../lib/zoned-days.ts';

// The day conversions live in src/lib (one home for every module); reports re-exports them.
export { addDays, localDate, startOfDay };

export type GroupBy = 'day' | 'week' | 'month';
export const GROUP_BYS: readonly GroupBy[] = ['day', 'week', 'month'];

export interface Bucket {
  /** `2026-11-26`, `2026-W48` (ISO week) or `2026-11`. */
  key: string;
  /** First day in the bucket (within the range), YYYY-MM-DD. */
  from: string;
  /** Last day in the bucket (within the range), inclusive. */
  to: string;
  /** UTC instants, start inclusive, end exclusive. */
  start: string;
  end: string;
}

/** More buckets than this is not a report a person reads (a year by day is 366). */
export const MAX_BUCKETS = 400;

const DAY_MS = 86_400_000;

export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00.000Z`) - Date.parse(`${from}T00:00:00.000Z`)) / DAY_MS);
}

function isoWeek(date: string): string {
  const d = new Date(`${date}T00:00:00.000Z`);
  const weekday = (d.getUTCDay() + 6) % 7; // Monday 0
  const thursday = new Date(d.getTime() + (3 - weekday) * DAY_MS);
  const yearStart = Date.UTC(thursday.getUTCFullYear(), 0, 1);
  const week = Math.floor((thursday.getTime() - yearStart) / DAY_MS / 7) + 1;
  return `${thursday.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
}

export function bucketKey(date: string, groupBy: GroupBy): string {
  if (groupBy === 'day') return date;
  if (groupBy === 'month') return date.slice(0, 7);
  return isoWeek(date);
}

/** The range [from, to] (dates, `to` inclusive) cut into day, week or month buckets. */
export function buckets(from: string, to: string, groupBy: GroupBy, timeZone: string): Bucket[] {
  const out: Bucket[] = [];
  let day = from;
  while (day <= to) {
    const key = bucketKey(day, groupBy);
    let last = day;
    while (last < to && bucketKey(addDays(last, 1), groupBy) === key) last = addDays(last, 1);
    out.push({
      key,
      from: day,
      to: last,
      start: startOfDay(day, timeZone),
      end: startOfDay(addDays(last, 1), timeZone),
    });
    if (out.length > MAX_BUCKETS) throw new RangeError('too many buckets');
    day = addDays(last, 1);
  }
  return out;
}

function isFirstOfMonth(date: string): boolean {
  return date.endsWith('-01');
}

function isLastOfMonth(date: string): boolean {
  return isFirstOfMonth(addDays(date, 1));
}

/**
 * The period a report is compared with: the same number of whole months before when the range
 * is whole months (November against October, a year against the year before), else the same
 * number of days just before.
 */
export function previousPeriod(from: string, to: string): { from: string; to: string } {
  if (isFirstOfMonth(from) && isLastOfMonth(to)) {
    const months =
      (Number(to.slice(0, 4)) - Number(from.slice(0, 4))) * 12 + Number(to.slice(5, 7)) - Number(from.slice(5, 7)) + 1;
    const start = new Date(`${from}T00:00:00.000Z`);
    start.setUTCMonth(start.getUTCMonth() - months);
    return { from: start.toISOString().slice(0, 10), to: addDays(from, -1) };
  }
  const length = daysBetween(from, to) + 1;
  return { from: addDays(from, -length), to: addDays(from, -1) };
}

/** Rows of the running totals to read: those of `grain` keyed from `from` up to before `to` (YYYY-MM-DD). */
export interface TotalsSpan {
  grain: 'day' | 'month';
  from: string;
  to: string;
}

/**
 * Where the running totals of the days [days[0], days[n]) (the buckets' first days and the day
 * after the last) are read from: each whole month from its month row, when no bucket starts
 * inside a month (grouped by month, or one bucket), and the days before and after from day
 * rows; otherwise every day from its row. A year by month reads 12 rows a combination, not 365.
 */
export function totalsSpans(days: readonly string[]): TotalsSpan[] {
  const start = days[0]!;
  const end = days.at(-1)!;
  const byDay: TotalsSpan[] = [{ grain: 'day', from: start, to: end }];
  if (!days.slice(1, -1).every(isFirstOfMonth)) return byDay;
  const firstMonth = isFirstOfMonth(start) ? start : nextMonth(start);
  const endMonth = `${end.slice(0, 8)}01`;
  if (firstMonth >= endMonth) return byDay;
  const spans: TotalsSpan[] = [];
  if (start < firstMonth) spans.push({ grain: 'day', from: start, to: firstMonth });
  spans.push({ grain: 'month', from: firstMonth, to: endMonth });
  if (endMonth < end) spans.push({ grain: 'day', from: endMonth, to: end });
  return spans;
}

function nextMonth(date: string): string {
  const d = new Date(`${date.slice(0, 8)}01T00:00:00.000Z`);
  d.setUTCMonth(d.getUTCMonth() + 1);
  return d.toISOString().slice(0, 10);
}
