/**
 * Printing's public surface: one printer for every sales document. Quotations, sales (and the
 * documents to come) build a PrintDocument from their own rows and hand it to a slot of the
 * print pool; the files behind this (and the pdfmake/pdfkit/fontkit internals they rely on) can
 * change freely. Printing depends on the document kernel's types and on i18n's labels only.
 *
 * The server prints on the pool's threads, so the renderer (≈ 50 MiB of pdfmake, pdfkit and
 * fontkit code) is loaded there; the two functions that print in the calling thread (benches,
 * tests) load it on first use.
 */
import type { PrintDocument } from './print-document.ts';
import type { PrintedDocument, PrintJob } from './print-job.ts';

export type { PrintDocument, PrintFact, PrintLabel } from './print-document.ts';
export type { PrintJob, PrintedDocument } from './print-job.ts';
export {
  createPrintPool,
  type DatasheetSource,
  type PrintPool,
  type PrintPoolOptions,
  type PrintRequest,
  type PrintSlot,
} from './print-pool.ts';
export { buildSampleDatasheet } from './sample-datasheet.ts';

/** Renders a document's own pages in this thread. Same input → same bytes. */
export async function renderDocumentPdf(document: PrintDocument): Promise<Buffer> {
  return (await import('./render-document-pdf.ts')).renderDocumentPdf(document);
}

/** Prints a document with its datasheets in this thread: what a pool thread does. */
export async function printDocument(job: PrintJob): Promise<PrintedDocument> {
  return (await import('./print-job.ts')).printDocument(job);
}
