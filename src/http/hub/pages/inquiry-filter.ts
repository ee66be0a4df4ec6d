import type { InquiryFilter } from '../../../modules/inquiries/index.ts';
import type { HubTranslate } from '../texts/index.ts';
import { textOf } from '../form.ts';
import { addDays, isCalendarDate, startOfDay } from '../../../lib/zoned-days.ts';

/** What the filter form holds, as typed (shown back in the form and carried to the next page). */
export interface InquiryFilterForm {
  topic: string;
  state: '' | 'open' | 'handled';
  q: string;
  from: string;
  to: string;
}

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

/** The instant a calendar day (plus `days`) begins in the company's time zone: the staff mean their own days. */
export function dayStart(day: string, timeZone: string, days = 0): string | null {
  return isCalendarDate(day) ? startOfDay(addDays(day, days), timeZone) : null;
}

/** The form as query parameters (empty ones left out), for the next page's link. */
export function filterParams(form: InquiryFilterForm): URLSearchParams {
  return new URLSearchParams(Object.entries(form).filter(([, value]) => value !== ''));
}
