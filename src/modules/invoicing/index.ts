export { createInvoicingService, type InvoicingService } from './invoicing.service.ts';
export {
  issueInvoice,
  issuedView,
  customerForSale,
  type CustomerDirectory,
  type CustomerSnapshot,
  type IssueRepos,
  type SaleSource,
} from './issue-invoice.ts';
export { DEFAULT_PAYMENT_METHOD, type IssueFiscaliser } from './issue-steps.ts';
export { COUNTER_PAYMENT_METHODS, type CounterSale } from './counter-sale.ts';
