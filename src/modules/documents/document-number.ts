/** `Q-ZG1-2026-00042`: kind letter, location code, calendar year in the company's time zone, sequence. */
export function formatDocumentNumber(prefix: 'Q' | 'O' | 'S', locationCode: string, year: number, seq: number): string {
  return `${prefix}-${locationCode}-${year}-${String(seq).padStart(5, '0')}`;
}

/** The calendar year at `instant` where the company is: a quote made at 00:30 on 1 January in Zagreb is next year's. */
export function yearIn(instant: Date, timeZone: string): number {
  return Number(new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric' }).format(instant));
}
