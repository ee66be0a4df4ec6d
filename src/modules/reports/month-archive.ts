import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { ZipFile } from 'yazl';
import { AppError } from '../../lib/errors.ts';
import { said } from '../i18n/index.ts';
import { addDays } from './periods.ts';
import { toCsv, type ExportLocale, type Table } from './table.ts';
import { toXlsx } from './xlsx.ts';
import type { ReportsService } from './reports.service.ts';

/**
 * The accountant's month: one zip with every document issued in the month as its PDF (and its
 * e-invoice XML beside it, where the document can be a valid one), the VAT report and the book
 * of issued invoices (CSV and XLSX), built in the background while the caller polls its progress.
 *
 * Memory stays bounded whatever the month holds: documents are read a page at a time, printed one
 * at a time, and each PDF goes into the zip stream, which is written to a file on disk; the next
 * print waits while the file lags behind (backpressure). The zip (yazl) stores PDFs as they are
 * (they are compressed already) and deflates the tables.
 *
 * Jobs live in this process, like the catalog's import jobs: a restart forgets them (and their
 * files are left in the export folder, which is emptied at start), and the caller asks again.
 */

export interface ArchiveJob {
  id: string;
  month: string;
  status: 'building' | 'done' | 'failed';
  done: number;
  total: number;
  bytes: number;
  createdAt: string;
  finishedAt: string | null;
  /** Settles when the build ends (tests and benchmarks wait on it). */
  finished: Promise<void>;
}

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
const KEEP_MS = 24 * 3_600_000;
/** The zip may hold this many bytes of entries it has not read yet before the next print waits. */
const HIGH_WATER = 8 * 1024 * 1024;

function lastDay(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return addDays(`${m === 12 ? y + 1 : y}-${String(m === 12 ? 1 : m + 1).padStart(2, '0')}-01`, -1);
}

/**
 * The zip keeps each entry's name (for its central directory) as the Buffer yazl made with
 * `Buffer.from`: a slice of Node's shared 64 KiB allocation pool, which keeps the whole slab alive.
 * Between two entries the month's other work fills the rest of the slab, so each entry held tens of
 * KiB: 10 000 documents grew the main thread's buffers by ~300 MiB (issue 37, item 10). The name
 * is copied into a buffer of its own. `entries` is yazl's (3.x); month-archive.test.ts checks it.
 */
export function ownName(zip: ZipFile): void {
  const entries = (zip as unknown as { entries: Array<{ utf8FileName: Buffer }> }).entries;
  const entry = entries[entries.length - 1];
  if (!entry) return;
  const own = Buffer.allocUnsafeSlow(entry.utf8FileName.length);
  entry.utf8FileName.copy(own);
  entry.utf8FileName = own;
}

/** A file name from a legal number (`12/ZG1/1` → `12-ZG1-1`). */
const safe = (text: string) => text.replace(/[^\w.-]+/g, '-');

export function createMonthArchives(deps: {
  reports: ReportsService;
  /** One document's PDF (the sales module's printer, through the print pool). */
  renderPdf: (companyId: string, id: string) => Promise<{ number: string; pdf: Buffer }>;
  /** One document's e-invoice (UBL) as stored, or null when it cannot be a valid one (a consumer, a missing KPD code…). */
  eInvoiceXml: (companyId: string, id: string) => Promise<Buffer | null>;
  /** The month's received e-invoices, their original bytes (kept six years: Zakon o fiskalizaciji art. 35). */
  receivedXml?: (companyId: string, from: string, to: string) => AsyncIterable<{ name: string; bytes: Buffer }>;
  dir: string;
  now: () => Date;
  onCrash: (error: unknown) => void;
  /** The month's closed cash drawer days (the till): their table, and each day as closed (JSON) and printed. */
  drawerDays?: (
    companyId: string,
    from: string,
    to: string,
    locale: ExportLocale,
  ) => Promise<{ table: Table; days: Array<{ name: string; json: Buffer; pdf: Buffer }> }>;
  /** Tests: a smaller backlog bound, so a few documents cross it. */
  highWater?: number;
}) {
  const highWater = deps.highWater ?? HIGH_WATER;
  const jobs = new Map<string, ArchiveJob & { companyId: string; file: string }>();
  fs.rmSync(deps.dir, { recursive: true, force: true });
  fs.mkdirSync(deps.dir, { recursive: true });

  function prune() {
    const now = deps.now().getTime();
    for (const [id, job] of jobs)
      if (job.finishedAt && now - Date.parse(job.finishedAt) > KEEP_MS) {
        jobs.delete(id);
        fs.rmSync(job.file, { force: true });
      }
  }

  async function build(job: ArchiveJob & { companyId: string; file: string }, locale: ExportLocale) {
    const from = `${job.month}-01`;
    const to = lastDay(job.month);
    job.total = await deps.reports.countIssued(job.companyId, from, to);
    const zip = new ZipFile();
    const out = fs.createWriteStream(job.file);
    zip.outputStream.pipe(out);
    const closed = once(out, 'close');
    // Bytes handed to the zip that it has not read yet. Counted on the input side, when yazl has read
    // an entry to its end: the output side cannot be compared with what was handed, because the zip
    // deflates the XML (4.7 KB → 1.2 KB), so "handed − written" grew with every e-invoice until it
    // exceeded the bound for good and the archive waited forever for bytes that never came.
    let unread = 0;
    const hand = (bytes: Buffer, name: string, compress: boolean) => {
      const size = bytes.length;
      unread += size;
      // As a stream, not addBuffer: yazl keeps each buffer entry's closure (and so its bytes) until
      // the zip ends, which would hold the whole month in memory. It keeps a stream entry's closure
      // too, so the stream is made when yazl reaches the entry and the closure lets go of the
      // bytes (and of the stream, with its two stream states) once it has: with 20 000 entries,
      // kept streams were ~20 MB of heap.
      let pending: Buffer | null = bytes;
      zip.addReadStreamLazy(name, { mtime, compress, size }, (ready) => {
        const stream = new PassThrough();
        stream.once('end', () => {
          unread -= size;
        });
        stream.end(pending);
        pending = null;
        ready(null, stream);
      });
      ownName(zip);
    };
    const mtime = deps.now();
    const q = { from, to };
    const vat = await deps.reports.table(job.companyId, 'vat', { ...q, groupBy: 'month' }, locale);
    const book = await deps.reports.table(job.companyId, 'book', q, locale);
    zip.addBuffer(Buffer.from(toCsv(vat, locale)), `vat-${job.month}.csv`, { mtime });
    zip.addBuffer(Buffer.from(toCsv(book, locale)), `book-${job.month}.csv`, { mtime });
    zip.addBuffer(await toXlsx(book, locale), `book-${job.month}.xlsx`, { mtime, compress: false });
    for await (const doc of deps.reports.documentsIssued(job.companyId, from, to)) {
      const { pdf } = await deps.renderPdf(job.companyId, doc.id);
      const name = `documents/${safe(doc.invoiceNumber ?? doc.number)}`;
      // PDFs are compressed already: stored as they are.
      hand(pdf, `${name}.pdf`, false);
      // The e-invoice beside its PDF, where the document can be one; the rest of the month goes on without it.
      const xml = await deps.eInvoiceXml(job.companyId, doc.id);
      if (xml !== null) hand(xml, `${name}.xml`, true);
      job.done++;
      // Backpressure: what the zip has not read yet, plus what the file stream has not written,
      // stays under the bound (the pipes between them hold at most their own high-water marks).
      // Polled, not awaited on an event: the last chunks may already sit in the file stream.
      while (unread + out.writableLength > highWater) await delay(5);
    }
    // The drawer days as closed: few a month (one a location and day), so no backpressure of their own.
    const drawers = await deps.drawerDays?.(job.companyId, from, to, locale);
    if (drawers && drawers.days.length > 0) {
      zip.addBuffer(Buffer.from(toCsv(drawers.table, locale)), `drawers-${job.month}.csv`, { mtime });
      zip.addBuffer(await toXlsx(drawers.table, locale), `drawers-${job.month}.xlsx`, { mtime, compress: false });
      for (const day of drawers.days) {
        hand(day.json, `drawers/${safe(day.name)}.json`, true);
        hand(day.pdf, `drawers/${safe(day.name)}.pdf`, false);
      }
    }
    // Received e-invoices in their original bytes, under the same backpressure.
    for await (const received of deps.receivedXml?.(job.companyId, from, to) ?? []) {
      hand(received.bytes, `received/${safe(received.name)}.xml`, true);
      while (unread + out.writableLength > highWater) await delay(5);
    }
    zip.end();
    await closed;
    job.bytes = fs.statSync(job.file).size;
  }

  return {
    /** Starts building the month's archive; 400 naming `month` unless it is YYYY-MM. */
    start(companyId: string, month: string, locale: ExportLocale): ArchiveJob {
      if (!MONTH.test(month)) throw AppError.invalid({ month: [said('error.invalidForm')] });
      prune();
      const id = `exp_${randomUUID().replaceAll('-', '')}`;
      const job = {
        id,
        companyId,
        month,
        status: 'building' as ArchiveJob['status'],
        done: 0,
        total: 0,
        bytes: 0,
        createdAt: deps.now().toISOString(),
        finishedAt: null as string | null,
        file: path.join(deps.dir, `${id}.zip`),
        finished: Promise.resolve(),
      };
      jobs.set(id, job);
      job.finished = build(job, locale).then(
        () => {
          job.status = 'done';
          job.finishedAt = deps.now().toISOString();
        },
        (error: unknown) => {
          deps.onCrash(error);
          job.status = 'failed';
          job.finishedAt = deps.now().toISOString();
          fs.rmSync(job.file, { force: true });
        },
      );
      return job;
    },
    /** Another company's job is not found. */
    find(companyId: string, id: string): ArchiveJob {
      const job = jobs.get(id);
      if (!job || job.companyId !== companyId) throw AppError.notFound('Export');
      return job;
    },
    /** The finished archive's file; a 409 while it is still being built. */
    file(companyId: string, id: string): { path: string; name: string } {
      const job = jobs.get(id);
      if (!job || job.companyId !== companyId || job.status === 'failed') throw AppError.notFound('Export');
      if (job.status !== 'done') throw new AppError('conflict', said('error.archive.building'));
      return { path: job.file, name: `portico-${job.month}.zip` };
    },
  };
}

export type MonthArchives = ReturnType<typeof createMonthArchives>;
