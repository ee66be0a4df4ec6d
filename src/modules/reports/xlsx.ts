import ExcelJS from 'exceljs';
import type { ExportLocale, Table } from './table.ts';

/**
 * The table as an Excel workbook (one sheet). Amounts are numbers with two decimals and dates
 * real dates, so the reader's Excel shows them in its own locale and can sum them; text is a
 * string cell, which a spreadsheet never evaluates, so it needs no neutralising (unlike CSV).
 */
export async function toXlsx(table: Table, locale: ExportLocale): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Portico';
  // The sheet name allows 31 characters and none of : \ / ? * [ ].
  const sheet = workbook.addWorksheet(table.title.replace(/[:\\/?*[\]]/g, ' ').slice(0, 31));
  sheet.columns = table.columns.map((c) => ({
    header: c.label,
    key: c.key,
    width: c.type === 'text' ? 28 : 14,
    style:
      c.type === 'money' || c.type === 'percent'
        ? { numFmt: '#,##0.00' }
        : c.type === 'date'
          ? { numFmt: locale === 'en' ? 'yyyy-mm-dd' : 'dd.mm.yyyy' }
          : {},
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  for (const row of table.rows) {
    const values: Record<string, string | number | Date | null> = {};
    for (const c of table.columns) {
      const v = row[c.key] ?? null;
      if (v === null) values[c.key] = null;
      else if (c.type === 'money' || c.type === 'percent') values[c.key] = Number(v) / 100;
      else if (c.type === 'date') values[c.key] = new Date(`${v}T00:00:00.000Z`);
      else values[c.key] = v;
    }
    sheet.addRow(values);
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
