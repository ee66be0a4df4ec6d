/** `Q-ZG1-2026-00042`: kind letter, location code, calendar year in the company's time zone, sequence. */
export function formatDocumentNumber(prefix: 'Q' | 'O' | 'S', locationCode: string, year: number, seq: number): string {
  return `${prefix}-${locationCode}-${year}-${String(seq).padStart(5, '0')}`;
}

// Building an Intl formatter costs far more than using one: one per time zone, kept.
const yearFormatters = new Map<string, Intl.DateTimeFormat>();

/** The calendar year at `instant` where the company is: a quote made at 00:30 on 1 January in Zagreb is next year's. */
export function yearIn(instant: Date, timeZone: string): number {
  let formatter = yearFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric' });
    yearFormatters.set(timeZone, formatter);
  }
  return Number(formatter.format(instant));
}
