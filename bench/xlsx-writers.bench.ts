/**
 * XLSX writers on a 20 000-row export (issue 36): time and peak memory of one workbook of the
 * book of issued invoices' shape (date, number, customer, rate, net, tax, gross, a count; the
 * number formats, column widths, bold frozen header the product writes), per writer, each writer
 * in its own process so its peak RSS is its own.
 *
 *   node bench/xlsx-writers.bench.ts                    # write-excel-file (the product's toXlsx) and CSV
 *   npm install --no-save exceljs@4.4.0 && node bench/xlsx-writers.bench.ts   # and exceljs, as it was used
 *   BENCH_XLSX_ROWS=5000 BENCH_XLSX_ROUNDS=3 node bench/xlsx-writers.bench.ts
 *
 * exceljs is no longer a dependency (docs/spreadsheets.md); its leg runs when it is installed by
 * hand, with the code `src/modules/reports/xlsx.ts` had before. Reference in the same run: the
 * CSV writer on the same table. Writers alternate round by round (A B C A B C …), each round's
 * processes in sequence, so a burst of load on the shared machine hits every writer alike; the
 * figure is the median of the rounds. Peak memory is the child's maxRSS, less that of a child
 * that built the same table and wrote nothing.
 */
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { toXlsx } from '../src/modules/reports/xlsx.ts';
import { toCsv, type Table } from '../src/modules/reports/table.ts';

const ROWS = Number(process.env.BENCH_XLSX_ROWS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_XLSX_ROUNDS ?? 5);

function table(rows: number): Table {
  return {
    title: 'Knjiga izlaznih računa',
    columns: [
      { key: 'date', label: 'Datum', type: 'date' },
      { key: 'number', label: 'Broj', type: 'text' },
      { key: 'customer', label: 'Kupac', type: 'text' },
      { key: 'rate', label: 'Stopa', type: 'percent' },
      { key: 'net', label: 'Osnovica', type: 'money' },
      { key: 'tax', label: 'PDV', type: 'money' },
      { key: 'gross', label: 'Ukupno', type: 'money' },
      { key: 'count', label: 'Stavki', type: 'integer' },
    ],
    rows: Array.from({ length: rows }, (_, i) => ({
      date: `2026-11-${String(1 + (i % 28)).padStart(2, '0')}`,
      number: `${i + 1}/ZG1/1`,
      customer: `Kupac d.o.o. ${i % 500} – Šibenik`,
      rate: 2500,
      net: 100_000 + i * 7,
      tax: 25_000 + i,
      gross: 125_000 + i * 8,
      count: 1 + (i % 9),
    })),
  };
}

/** exceljs as `src/modules/reports/xlsx.ts` used it until issue 36 (in-memory workbook). */
async function exceljsWrite(t: Table): Promise<Uint8Array> {
  const name = 'exceljs'; // not a dependency: resolved at run time, when installed by hand
  const ExcelJS = ((await import(name)) as { default: any }).default;
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Portico';
  const sheet = workbook.addWorksheet(t.title.slice(0, 31));
  sheet.columns = t.columns.map((c) => ({
    header: c.label,
    key: c.key,
    width: c.type === 'text' ? 28 : 14,
    style:
      c.type === 'money' || c.type === 'percent'
        ? { numFmt: '#,##0.00' }
        : c.type === 'date'
          ? { numFmt: 'dd.mm.yyyy' }
          : {},
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  for (const row of t.rows) {
    const values: Record<string, unknown> = {};
    for (const c of t.columns) {
      const v = row[c.key] ?? null;
      values[c.key] =
        v === null
          ? null
          : c.type === 'money' || c.type === 'percent'
            ? Number(v) / 100
            : c.type === 'date'
              ? new Date(`${v}T00:00:00.000Z`)
              : v;
    }
    sheet.addRow(values);
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const WRITERS: Record<string, (t: Table) => Promise<Uint8Array>> = {
  nothing: async () => new Uint8Array(0),
  csv: async (t) => Buffer.from(toCsv(t, 'hr')),
  'write-excel-file': (t) => toXlsx(t, 'hr'),
  exceljs: exceljsWrite,
};

interface Measure {
  writer: string;
  ms: number;
  bytes: number;
  maxRssMiB: number;
}

// A child: build the table, write it once small (warm-up), then once whole, and say how it went.
const childAt = process.argv.indexOf('--child');
if (childAt >= 0) {
  const writer = process.argv[childAt + 1]!;
  const write = WRITERS[writer]!;
  const t = table(ROWS);
  await write({ ...t, rows: t.rows.slice(0, 200) });
  const start = performance.now();
  const bytes = (await write(t)).length;
  const ms = performance.now() - start;
  const measure: Measure = { writer, ms, bytes, maxRssMiB: process.resourceUsage().maxRSS / 1024 };
  process.stdout.write(`${JSON.stringify(measure)}\n`);
  process.exit(0);
}

let haveExceljs = true;
try {
  await import('exceljs' as string);
} catch {
  haveExceljs = false;
}
const writers = ['nothing', 'csv', 'write-excel-file', ...(haveExceljs ? ['exceljs'] : [])];
const runs = new Map<string, Measure[]>(writers.map((w) => [w, []]));
for (let round = 0; round < ROUNDS; round++)
  for (const writer of writers) {
    const out = execFileSync(process.execPath, [import.meta.filename, '--child', writer], {
      encoding: 'utf8',
      env: { ...process.env, BENCH_XLSX_ROWS: String(ROWS) },
      maxBuffer: 1 << 20,
    });
    runs.get(writer)!.push(JSON.parse(out.trim().split('\n').at(-1)!) as Measure);
  }

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const base = median(runs.get('nothing')!.map((m) => m.maxRssMiB));
const csvMs = median(runs.get('csv')!.map((m) => m.ms));
const lines = [
  `${ROWS} rows, ${ROUNDS} rounds, median; peak memory = child maxRSS − ${base.toFixed(0)} MiB (a child that wrote nothing)`,
  '| writer | ms | × CSV | file KiB | peak MiB above baseline |',
  '| --- | ---: | ---: | ---: | ---: |',
];
for (const writer of writers.filter((w) => w !== 'nothing')) {
  const ms = median(runs.get(writer)!.map((m) => m.ms));
  const rss = median(runs.get(writer)!.map((m) => m.maxRssMiB)) - base;
  const kib = runs.get(writer)![0]!.bytes / 1024;
  lines.push(`| ${writer} | ${ms.toFixed(0)} | ${(ms / csvMs).toFixed(1)} | ${kib.toFixed(0)} | ${rss.toFixed(0)} |`);
}
if (runs.has('exceljs')) {
  const ratio = median(runs.get('exceljs')!.map((m) => m.ms)) / median(runs.get('write-excel-file')!.map((m) => m.ms));
  lines.push('', `exceljs / write-excel-file time: ${ratio.toFixed(2)}; per round: ${perRound().join(', ')}`);
} else lines.push('', 'exceljs not installed: `npm install --no-save exceljs@4.4.0` for its leg.');
process.stdout.write(`${lines.join('\n')}\n`);

function perRound(): string[] {
  const a = runs.get('exceljs')!;
  const b = runs.get('write-excel-file')!;
  return a.map((m, i) => (m.ms / b[i]!.ms).toFixed(2));
}
