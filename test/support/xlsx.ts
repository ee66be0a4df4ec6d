import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readXlsxFile from 'read-excel-file/node';

export interface ReadWorkbook {
  sheet: string;
  /** The first sheet's rows as a reader sees them: strings, numbers, dates, null for empty. */
  rows: unknown[][];
  /** Formula elements (`<f>`) in the sheet's XML: an export must never hold one. */
  formulas: number;
}

/**
 * An exported workbook read back by a library other than the one that wrote it (read-excel-file
 * against write-excel-file), and the sheet's XML read with `unzip`: a reader gives a formula's
 * cached value like text, so only the XML shows whether a cell would run.
 */
export async function readWorkbook(bytes: Uint8Array): Promise<ReadWorkbook> {
  const [first] = await readXlsxFile(Buffer.from(bytes));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-xlsx-'));
  try {
    const file = path.join(dir, 'book.xlsx');
    fs.writeFileSync(file, bytes);
    const xml = execFileSync('unzip', ['-p', file, 'xl/worksheets/sheet1.xml'], { encoding: 'utf8' });
    return { sheet: first!.sheet, rows: first!.data as unknown[][], formulas: (xml.match(/<f[\s>]/g) ?? []).length };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
