export {
  createQuotationsService,
  isQuotationOpen,
  mayConvertQuotation,
  QUOTATION_STATUSES,
  type QuotationStatus,
  type QuotationsService,
  type QuotationView,
  type NewQuotation,
  type StaffQuotation,
} from './quotations.service.ts';
export { isRevisable, type RevisionSummary } from './quotation-revisions.ts';
export { OPEN_QUOTATION_STATUSES } from './quotation-status.ts';
export type { PrintDraft } from './sample-print.ts';
export {
  createQuotationAnswers,
  issueQuotationLink,
  type CustomerAnswer,
  type CustomerQuotation,
  type QuotationAnswers,
  type QuotationAnswerView,
} from './quotation-answers.ts';
export type { QuotationLinkIssuer } from './types.ts';
