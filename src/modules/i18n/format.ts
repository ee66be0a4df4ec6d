import { formatScaled, formatScaledTrimmed, MONEY_SCALE, QUANTITY_SCALE } from '../../lib/money.ts';
import { canonicalLocaleTag, resolveLanguage } from './locale.ts';

/**
 * Numbers, money and dates for one locale, currency and time zone, through Intl. Amounts reach
 * Intl as decimal strings ("1234.50"), never as floats, so what is printed is exactly what is
 * stored: Intl.NumberFormat formats decimal strings without converting them to a double.
 * Intl objects are cached per (locale, currency, time zone): constructing them is the slow part.
 */

export interface Formatter {
  /** The tag Intl formats with. */
  locale: string;
  /** Integer minor units (cents) → "1.234,50 €". */
  money(minor: number | bigint): string;
  /** Quantity in thousandths → "1,5"; up to three decimals, trailing zeros dropped. */
  quantity(milli: number | bigint): string;
  /** Tax rate in basis points → "25 %", "9,5 %". */
  percent(rateBp: number): string;
  /** Date only, in the time zone ("24. stu 2026."). */
  date(instant: Date | string): string;
  /** A calendar day ("2026-12-11", a due or delivery date): the same day in every time zone. */
  day(isoDay: string): string;
  /** Date and time, in the time zone. */
  dateTime(instant: Date | string): string;
  number(value: number): string;
  /** A decimal string ("38.18") as a person types it in a form here ("38,18"): no grouping, so it reads back. */
  editable(decimal: string): string;
}

interface Cached {
  money: Intl.NumberFormat;
  quantity: Intl.NumberFormat;
  percent: Intl.NumberFormat;
  date: Intl.DateTimeFormat;
  day: Intl.DateTimeFormat;
  dateTime: Intl.DateTimeFormat;
  number: Intl.NumberFormat;
}

const cache = new Map<string, Cached>();

/**
 * `localeTag` is the company's or user's BCP 47 tag; a tag without a catalog formats as English
 * so labels and numbers never disagree. Throws RangeError for an unknown currency or time zone.
 */
export function createFormatter(localeTag: string, options: FormatterOptions): Formatter {
  // Built once per (tag, currency, zone, dates) as given: a hub page builds one per request.
  const given = `${localeTag}\u0000${options.currency}\u0000${options.timeZone}\u0000${options.dates ?? 'words'}`;
  const made = formatters.get(given);
  if (made) return made;
  const formatter = buildFormatter(localeTag, options);
  if (formatters.size > 256) formatters.clear();
  formatters.set(given, formatter);
  return formatter;
}
const formatters = new Map<string, Formatter>();

export interface FormatterOptions {
  currency: string;
  timeZone: string;
  /**
   * `words` (the hub: "26. stu 2026.") or `numeric` (printed documents: "26. 11. 2026.",
   * "26.11.2026", as invoices and accountants write dates). English keeps the month's name in
   * both: its numeric dates read differently either side of the Atlantic.
   */
  dates?: 'words' | 'numeric';
}

function buildFormatter(localeTag: string, options: FormatterOptions): Formatter {
  const canonical = canonicalLocaleTag(localeTag);
  const locale =
    canonical !== null && resolveLanguage(canonical) === new Intl.Locale(canonical).language ? canonical : 'en';
  const language = new Intl.Locale(locale).language;
  const numeric = options.dates === 'numeric' && language !== 'en';
  const key = `${locale}\u0000${options.currency}\u0000${options.timeZone}\u0000${numeric}`;
  let f = cache.get(key);
  if (!f) {
    // CLDR's numeric date of the language: "01. 03. 2026." in Croatian, "01.03.2026" in German.
    const dayStyle: Intl.DateTimeFormatOptions = numeric
      ? { day: '2-digit', month: '2-digit', year: 'numeric' }
      : { dateStyle: 'medium' };
    const timeStyle: Intl.DateTimeFormatOptions = numeric
      ? { hour: '2-digit', minute: '2-digit' }
      : { timeStyle: 'short' };
    f = {
      money: new Intl.NumberFormat(locale, { style: 'currency', currency: options.currency }),
      quantity: new Intl.NumberFormat(locale, { maximumFractionDigits: QUANTITY_SCALE }),
      percent: new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }),
      date: new Intl.DateTimeFormat(locale, { timeZone: options.timeZone, ...dayStyle }),
      day: new Intl.DateTimeFormat(locale, { timeZone: 'UTC', ...dayStyle }),
      dateTime: new Intl.DateTimeFormat(locale, {
        timeZone: options.timeZone,
        ...dayStyle,
        ...timeStyle,
      }),
      number: new Intl.NumberFormat(locale),
    };
    if (cache.size > 256) cache.clear();
    cache.set(key, f);
  }
  const cached = f;
  const separator = cached.number.formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.';
  return {
    locale,
    money: (minor) => cached.money.format(formatScaled(minor, MONEY_SCALE) as `${number}`),
    quantity: (milli) => cached.quantity.format(formatScaledTrimmed(milli, QUANTITY_SCALE) as `${number}`),
    // basis points / 10 000 as a decimal string: 2500 → "0.25", 950 → "0.095", exact.
    percent: (rateBp) => cached.percent.format(formatScaled(rateBp, 4) as `${number}`),
    date: (instant) => cached.date.format(toDate(instant)),
    // A day has no zone: midnight UTC read in UTC is that day wherever the company is.
    day: (isoDay) => cached.day.format(toDate(`${isoDay}T00:00:00Z`)),
    dateTime: (instant) => cached.dateTime.format(toDate(instant)),
    number: (value) => cached.number.format(value),
    editable: (decimal) => decimal.replace('.', separator),
  };
}

function toDate(instant: Date | string): Date {
  const date = typeof instant === 'string' ? new Date(instant) : instant;
  if (Number.isNaN(date.getTime())) throw new RangeError(`not a date: ${String(instant)}`);
  return date;
}
