import type { InquiryFilter } from '../../../modules/inquiries/index.ts';
import type { HubTranslate } from '../texts/index.ts';
import { textOf } from '../form.ts';

/** What the filter form holds, as typed (shown back in the form and carried to the next page). */
export interface InquiryFilterForm {
  topic: string;
  state: '' | 'open' | 'handled';
  q: string;
  from: string;
  to: string;
}

const DAY = /^(\d{4})-(\d\d)-(\d\d)$/;

const text = (value: unknown, max: number): string => textOf(value).trim().slice(0, max);

/** The query string read as a filter; a date that is not YYYY-MM-DD is a field error, not a 500. */
export function readInquiryFilter(
  query: Record<string, unknown>,
  timeZone: string,
  t: HubTranslate,
): {
  form: InquiryFilterForm;
  filter: InquiryFilter;
  errors: Partial<Record<keyof InquiryFilterForm, string>>;
} {
  const state = query.state === 'open' || query.state === 'handled' ? query.state : '';
  const form: InquiryFilterForm = {
    topic: text(query.topic, 200),
    state,
    q: text(query.q, 200),
    from: text(query.from, 10),
    to: text(query.to, 10),
  };
  const errors: Partial<Record<keyof InquiryFilterForm, string>> = {};
  const filter: InquiryFilter = {};
  if (form.topic) filter.topic = form.topic;
  if (form.state) filter.state = form.state;
  if (form.q) filter.q = form.q;
  for (const field of ['from', 'to'] as const) {
    if (!form[field]) continue;
    // "Until" a day includes that day: the bound is the start of the next one.
    const start = dayStart(form[field], timeZone, field === 'to' ? 1 : 0);
    if (start === null) errors[field] = t('hub.inquiries.badDate');
    else filter[field] = start;
  }
  return { form, filter, errors };
}

/**
 * The instant a calendar day (plus `addDays`) begins in the company's time zone, as ISO UTC: the
 * staff mean their own days. The zone's offset is read at that day's UTC midnight, which is
 * right except within the hour a clock change moves.
 */
export function dayStart(day: string, timeZone: string, addDays = 0): string | null {
  const match = DAY.exec(day);
  if (!match) return null;
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const utc = Date.UTC(year, month - 1, date + addDays);
  const check = new Date(Date.UTC(year, month - 1, date));
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== date) return null;
  return new Date(utc - offsetMs(utc, timeZone)).toISOString();
}

/** How far the zone's wall clock is ahead of UTC at `instant`. */
function offsetMs(instant: number, timeZone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(new Date(instant))
      .map((p) => [p.type, p.value]),
  );
  const wall = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return wall - instant;
}

/** The form as query parameters (empty ones left out), for the next page's link. */
export function filterParams(form: InquiryFilterForm): URLSearchParams {
  return new URLSearchParams(Object.entries(form).filter(([, value]) => value !== ''));
}
