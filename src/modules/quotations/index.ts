export {
  createQuotationsService,
  isQuotationOpen,
  mayConvertQuotation,
  QUOTATION_STATUSES,
  type QuotationStatus,
  type QuotationsService,
  type QuotationView,
  type NewQuotation,
  type QuotationAuthor,
  type StaffQuotation,
} from './quotations.service.ts';
export { type QuotationRevision, type RevisionSummary } from './quotation-revisions.ts';
export type { PrintDraft } from './sample-print.ts';
