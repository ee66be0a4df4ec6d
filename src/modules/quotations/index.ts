export { createQuotationsService, type QuotationsService, type QuotationView, type NewQuotation } from './quotations.service.ts';
