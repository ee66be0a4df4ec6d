import { neutralise } from '../../lib/spreadsheet-text.ts';

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
export function conventions(locale: ExportLocale): { delimiter: string; decimal: string } {
  return locale === 'en' ? { delimiter: ',', decimal: '.' } : { delimiter: ';', decimal: ',' };
}

function cellText(value: Cell, type: ColumnType, locale: ExportLocale): string {
  if (value === null) return '';
  const { decimal: sep } = conventions(locale);
  if (type === 'money') return decimal(Number(value), 2, sep);
  if (type === 'percent') return decimal(Number(value), 2, sep);
  if (type === 'integer') return String(value);
  if (type === 'date') return formatDate(String(value), locale);
  return neutralise(String(value));
}

function quote(text: string, delimiter: string): string {
  return text.includes(delimiter) || /["\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** RFC 4180 CSV with a UTF-8 byte-order mark (Excel reads UTF-8 only with it), CRLF line ends. */
export function toCsv(table: Table, locale: ExportLocale): string {
  const { delimiter } = conventions(locale);
  const lines = [table.columns.map((c) => quote(neutralise(c.label), delimiter)).join(delimiter)];
  for (const row of table.rows)
    lines.push(
      table.columns.map((c) => quote(cellText(row[c.key] ?? null, c.type, locale), delimiter)).join(delimiter),
    );
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
