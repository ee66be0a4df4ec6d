import { neutralise } from './spreadsheet-text.ts';

/**
 * The one CSV writer of Portico's exports (reports, the month archive, the catalog): RFC 4180,
 * CRLF line ends. A text cell a spreadsheet would run as a formula is neutralised here, once for
 * every export, so no export can forget it; a number (a `CsvNumber`, already written the
 * locale's way, such as `-12,50`) is never touched, so a negative amount stays an amount.
 * (DSFinV-K's files keep their own writer: that format quotes every text and never neutralises,
 * as the tax audit's index.xml describes it.)
 */
export type CsvCell = string | CsvNumber | null;

/** A number as written in the file; never neutralised. */
export interface CsvNumber {
  number: string;
}

export interface CsvOptions {
  /** `,` for English, `;` where the decimal separator is a comma (Excel's list separator there). */
  delimiter: ',' | ';';
  /** A UTF-8 byte-order mark first: Excel reads UTF-8 only with it. */
  bom: boolean;
}

export function writeCsv(rows: Iterable<readonly CsvCell[]>, options: CsvOptions): string {
  const lines: string[] = [];
  for (const row of rows) lines.push(row.map((cell) => field(cell, options.delimiter)).join(options.delimiter));
  return `${options.bom ? '\uFEFF' : ''}${lines.join('\r\n')}\r\n`;
}

function field(cell: CsvCell, delimiter: string): string {
  if (cell === null) return '';
  const text = typeof cell === 'string' ? neutralise(cell) : cell.number;
  return text.includes(delimiter) || /["\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
