/**
 * The quotation print's public surface: the rest of the code imports from here only, so the
 * files behind it (and the pdfmake/pdfkit/fontkit internals they rely on) can change freely.
 *
 * The server prints on the pool's threads, so the renderer (≈ 50 MiB of pdfmake, pdfkit and
 * fontkit code) is loaded there; the two functions that print in the calling thread (benches,
 * tests) load it on first use.
 */
import type { QuotationDocument } from './quotation-document.ts';
import type { PrintedQuotation, PrintJob } from './quotation-print.ts';

export type { QuotationDocument } from './quotation-document.ts';
export type { PrintJob, PrintedQuotation } from './quotation-print.ts';
export {
  createPrintPool,
  type DatasheetSource,
  type PrintPool,
  type PrintPoolOptions,
  type PrintRequest,
  type PrintSlot,
} from './print-pool.ts';
export { buildSampleDatasheet } from './sample-datasheet.ts';

/** Renders a quotation's own pages in this thread. Same input → same bytes. */
export async function renderQuotationPdf(document: QuotationDocument): Promise<Buffer> {
  return (await import('./render-quotation-pdf.ts')).renderQuotationPdf(document);
}

/** Prints a quotation with its datasheets in this thread: what a pool thread does. */
export async function printQuotation(job: PrintJob): Promise<PrintedQuotation> {
  return (await import('./quotation-print.ts')).printQuotation(job);
}
