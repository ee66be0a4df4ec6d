export { buildSampleDatasheet } from './pdf/sample-datasheet.ts';
export { createQuotationsService, type QuotationsService, type QuotationView, type NewQuotation } from './quotations.service.ts';
