import { writeCsv, type CsvCell } from '../../lib/csv.ts';

/**
 * A report as a plain table, the one shape the CSV and XLSX writers read: typed columns, so
 * amounts stay numbers a spreadsheet can sum and only text is ever treated as text.
 */
export type ColumnType = 'text' | 'money' | 'integer' | 'date' | 'percent';
export type Cell = string | number | null;

export interface Column {
  key: string;
  label: string;
  type: ColumnType;
}

export interface Table {
  title: string;
  columns: Column[];
  /** Money in cents, percent in basis points, dates as YYYY-MM-DD. */
  rows: Array<Record<string, Cell>>;
}

export type ExportLocale = 'hr' | 'de' | 'en';

function decimal(cents: number, scale: number, separator: string): string {
  const negative = cents < 0;
  const digits = String(Math.abs(cents)).padStart(scale + 1, '0');
  const whole = digits.slice(0, -scale);
  return `${negative ? '-' : ''}${whole}${separator}${digits.slice(-scale)}`;
}

/** As the locale writes a date: 26.11.2026. in Croatian, 26.11.2026 in German, 2026-11-26 in English (ISO). */
export function formatDate(date: string, locale: ExportLocale): string {
  if (locale === 'en') return date;
  const [y, m, d] = date.split('-');
  return `${d}.${m}.${y}${locale === 'hr' ? '.' : ''}`;
}

/** Decimal comma and `;` for Croatian and German (their Excel's list separator), dot and `,` for English. */
export function conventions(locale: ExportLocale): { delimiter: ',' | ';'; decimal: string } {
  return locale === 'en' ? { delimiter: ',', decimal: '.' } : { delimiter: ';', decimal: ',' };
}

/** Amounts, percents, counts and dates are numbers to the CSV writer (never neutralised); the rest is text. */
function cell(value: Cell, type: ColumnType, locale: ExportLocale): CsvCell {
  if (value === null) return null;
  const { decimal: sep } = conventions(locale);
  if (type === 'money' || type === 'percent') return { number: decimal(Number(value), 2, sep) };
  if (type === 'integer') return { number: String(value) };
  if (type === 'date') return { number: formatDate(String(value), locale) };
  return String(value);
}

/** The table as CSV in the locale's way, with a byte-order mark (Excel reads UTF-8 only with it). */
export function toCsv(table: Table, locale: ExportLocale): string {
  const header = table.columns.map((c) => c.label);
  const body = table.rows.map((row) => table.columns.map((c) => cell(row[c.key] ?? null, c.type, locale)));
  return writeCsv([header, ...body], { delimiter: conventions(locale).delimiter, bom: true });
}
