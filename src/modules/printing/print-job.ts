/**
 * One print, the unit of work of the print pool: the document's pages, its payment codes drawn,
 * then its datasheets appended and numbered as pages of the same file. Pure CPU work on plain
 * data (no I/O), so it runs the same on a worker thread (print-worker.ts) as in the caller's
 * thread, and gives the same bytes.
 */
import { resolveLanguage, translate } from '../i18n/index.ts';
import { appendLoadedDatasheets, loadDatasheets } from './append-datasheets.ts';
import { paymentCodeImage } from './payment-codes/payment-code-image.ts';
import type { PrintDocument } from './print-document.ts';
import { renderDocumentPdf, type CodeImages } from './render-document-pdf.ts';

export interface PrintJob {
  document: PrintDocument;
  /** Appended in this order after the document's pages. */
  datasheets: Array<{ name: string; bytes: Uint8Array }>;
}

export interface PrintedDocument {
  pdf: Uint8Array;
  /** Datasheets that could not be appended (corrupt, encrypted, no pages) and why. */
  skipped: Array<{ name: string; reason: string }>;
}

export async function printDocument(job: PrintJob): Promise<PrintedDocument> {
  const skipped: PrintedDocument['skipped'] = [];
  const onSkip = (name: string, error: Error) => skipped.push({ name, reason: error.message });
  const sheets = await loadDatasheets(job.datasheets, onSkip);
  const codeImages: CodeImages = {};
  for (const code of job.document.payment?.codes ?? [])
    codeImages[code.kind] = paymentCodeImage(code.kind, code.payload);
  // The verification URL is a plain QR code like the EPC one (error correction M, above the L asked for).
  if (job.document.fiscal?.verifyUrl) codeImages.fiscal_qr = paymentCodeImage('epc_qr', job.document.fiscal.verifyUrl);
  const extraPages = sheets.reduce((sum, sheet) => sum + sheet.pages, 0);
  const pages = await renderDocumentPdf(job.document, { extraPages, codeImages });
  const language = resolveLanguage(job.document.locale);
  const pdf = await appendLoadedDatasheets(pages, sheets, onSkip, (page, total) =>
    translate(language, 'print.page', { page, pages: total }),
  );
  return { pdf, skipped };
}
