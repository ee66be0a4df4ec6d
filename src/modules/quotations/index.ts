export {
  createQuotationsService,
  isQuotationOpen,
  mayConvertQuotation,
  QUOTATION_STATUSES,
  type QuotationStatus,
  type QuotationsService,
  type QuotationView,
  type NewQuotation,
} from './quotations.service.ts';
export { buildSampleDatasheet, createPrintPool, type PrintSlot } from './pdf/index.ts';
export { addressText, toQuotationDocument } from './quotation-document-from-rows.ts';
export { toSaleDocument } from './sale-document-from-rows.ts';
export type { QuotationDocument } from './pdf/index.ts';
export type { PrintDraft } from './sample-document.ts';
