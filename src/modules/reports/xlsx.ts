import writeXlsxFile, { type Cell, type SheetData } from 'write-excel-file/node';
import type { Column, ExportLocale, Table } from './table.ts';

/**
 * The table as an Excel workbook (one sheet), through write-excel-file (docs/spreadsheets.md
 * says why not exceljs). Amounts are numbers with two decimals and dates real dates, so the
 * reader's Excel shows them in its own locale and can sum them; text is a string cell, typed
 * `String` so it is never written as a formula (write-excel-file writes one only for cells
 * typed 'Formula'), which a spreadsheet never evaluates, so it needs no neutralising (unlike CSV).
 */
export async function toXlsx(table: Table, locale: ExportLocale): Promise<Buffer> {
  const header: Cell[] = table.columns.map((c) => ({ value: c.label, type: String, fontWeight: 'bold' }));
  const rows: SheetData = table.rows.map((row) => table.columns.map((c) => cell(row[c.key] ?? null, c, locale)));
  return writeXlsxFile([header, ...rows], {
    // The sheet name allows 31 characters and none of : \ / ? * [ ].
    sheet: table.title.replace(/[:\\/?*[\]]/g, ' ').slice(0, 31),
    columns: table.columns.map((c) => ({ width: c.type === 'text' ? 28 : 14 })),
    stickyRowsCount: 1,
  }).toBuffer();
}

function cell(value: string | number | null, column: Column, locale: ExportLocale): Cell {
  if (value === null) return null;
  switch (column.type) {
    case 'money':
    case 'percent':
      return { value: Number(value) / 100, type: Number, format: '#,##0.00' };
    case 'integer':
      return { value: Number(value), type: Number };
    case 'date':
      return {
        value: new Date(`${value}T00:00:00.000Z`),
        type: Date,
        format: locale === 'en' ? 'yyyy-mm-dd' : 'dd.mm.yyyy',
      };
    default:
      return { value: String(value), type: String };
  }
}
