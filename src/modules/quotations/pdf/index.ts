/**
 * The quotation print's public surface: the rest of the code imports from here only, so the
 * files behind it (and the pdfmake/pdfkit/fontkit internals they rely on) can change freely.
 */
export type { QuotationDocument } from './quotation-document.ts';
export { renderQuotationPdf } from './render-quotation-pdf.ts';
export { printQuotation, type PrintJob, type PrintedQuotation } from './quotation-print.ts';
export { createPrintPool, type DatasheetSource, type PrintPool, type PrintPoolOptions, type PrintRequest, type PrintSlot } from './print-pool.ts';
export { buildSampleDatasheet } from './sample-datasheet.ts';
