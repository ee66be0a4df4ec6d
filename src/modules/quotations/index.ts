export { createQuotationsService, type QuotationsService, type QuotationView, type NewQuotation } from './quotations.service.ts';
export type { PrintSlot } from './pdf/index.ts';
