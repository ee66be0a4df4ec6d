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
export type { PrintDraft } from './sample-print.ts';
