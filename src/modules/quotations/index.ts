export { createQuotationsService, type QuotationsService, type QuotationView, type NewQuotation } from './quotations.service.ts';
export { buildSampleDatasheet, createPrintPool, type PrintSlot } from './pdf/index.ts';
