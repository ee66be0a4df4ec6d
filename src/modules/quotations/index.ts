export { createQuotationsService, QUOTATION_STATUSES, type QuotationStatus, type QuotationsService, type QuotationView, type NewQuotation } from './quotations.service.ts';
export { buildSampleDatasheet, createPrintPool, type PrintSlot, type QuotationDocument } from './pdf/index.ts';
