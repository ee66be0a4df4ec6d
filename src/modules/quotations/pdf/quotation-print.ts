/**
 * One quotation print, the unit of work of the print pool: the quotation's pages, then its
 * datasheets appended. Pure CPU work on plain data (no I/O), so it runs the same on a worker
 * thread (print-worker.ts) as in the caller's thread, and gives the same bytes.
 */
import { appendDatasheets } from './append-datasheets.ts';
import type { QuotationDocument } from './quotation-document.ts';
import { renderQuotationPdf } from './render-quotation-pdf.ts';

export interface PrintJob {
  document: QuotationDocument;
  /** Appended in this order after the quotation's pages. */
  datasheets: Array<{ name: string; bytes: Uint8Array }>;
}

export interface PrintedQuotation {
  pdf: Uint8Array;
  /** Datasheets that could not be appended (corrupt, encrypted, no pages) and why. */
  skipped: Array<{ name: string; reason: string }>;
}

export async function printQuotation(job: PrintJob): Promise<PrintedQuotation> {
  const skipped: PrintedQuotation['skipped'] = [];
  const pages = await renderQuotationPdf(job.document);
  const pdf = await appendDatasheets(pages, job.datasheets, (name, error) => skipped.push({ name, reason: error.message }));
  return { pdf, skipped };
}
