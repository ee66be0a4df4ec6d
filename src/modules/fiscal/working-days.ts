import { addDays } from '../../lib/zoned-days.ts';

/**
 * Croatian working days, for the late-delivery deadline of receipts issued without a JIR
 * (Zakon o fiskalizaciji, NN 89/2025, čl. 21 st. 2: "u roku od dva radna dana, računajući od
 * dana u kojem je došlo do prekida veze").
 *
 * A working day is Monday to Friday unless a public holiday (blagdan or neradni dan) of the
 * Zakon o blagdanima, spomendanima i neradnim danima u Republici Hrvatskoj (NN 110/2019, čl. 1):
 * 1 and 6 January, Easter Sunday and Monday, Corpus Christi (Easter + 60 days), 1 and 30 May,
 * 22 June, 5 and 15 August, 1 and 18 November, 25 and 26 December. Days are calendar days of
 * `YYYY-MM-DD` text; no time zone is involved until the deadline is turned into an instant.
 */

const FIXED_HOLIDAYS = [
  '01-01',
  '01-06',
  '05-01',
  '05-30',
  '06-22',
  '08-05',
  '08-15',
  '11-01',
  '11-18',
  '12-25',
  '12-26',
];

/** Easter Sunday of the Gregorian calendar (the anonymous algorithm, Meeus/Jones/Butcher). */
export function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

const holidayYears = new Map<number, ReadonlySet<string>>();

/** The public holidays of one year, as `YYYY-MM-DD`. */
export function croatianHolidays(year: number): ReadonlySet<string> {
  let days = holidayYears.get(year);
  if (!days) {
    const easter = easterSunday(year);
    days = new Set([
      ...FIXED_HOLIDAYS.map((md) => `${year}-${md}`),
      easter,
      addDays(easter, 1), // Uskrsni ponedjeljak
      addDays(easter, 60), // Tijelovo
    ]);
    if (holidayYears.size > 200) holidayYears.clear();
    holidayYears.set(year, days);
  }
  return days;
}

export function isWorkingDay(day: string): boolean {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  return !croatianHolidays(Number(day.slice(0, 4))).has(day);
}

/**
 * The last day of a period of `count` working days counted from `day`: the day itself is not
 * counted (the general rule of Croatian procedure: a period starts on the day after the event),
 * then each working day is.
 */
export function afterWorkingDays(day: string, count: number): string {
  let current = day;
  for (let left = count; left > 0; ) {
    current = addDays(current, 1);
    if (isWorkingDay(current)) left--;
  }
  return current;
}
