export { createQuotationsService, type QuotationsService, type QuotationView, type NewQuotation } from './quotations.service.ts';
export { createPrintPool, type PrintSlot } from './pdf/index.ts';
