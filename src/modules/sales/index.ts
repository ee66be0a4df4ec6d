export {
  type SalesRepository,
  type SaleFilter,
  type SaleRow,
} from './sales.repository.ts';
export type { SaleTotalsRepository } from './sale-totals.repository.ts';
export { createSalesService, type SalesService } from './sales.service.ts';
export {
  toSaleView,
  PAYMENT_METHODS,
  SALE_STATUSES,
  type SaleStatus,
  type SaleView,
  type PaymentMethod,
  type PaymentView,
} from './sale-view.ts';
export {
  INVOICE_KINDS,
  INVOICE_PAYMENT_METHODS,
  DEFAULT_PAYMENT_METHOD,
  type InvoicePaymentMethod,
  deliverFiscal,
  type IssueFiscaliser,
} from './invoice-issue.ts';
export {
  insertSale,
  customerForSale,
  type CustomerDirectory,
  type CustomerSnapshot,
  type SaleSource,
  type SaleSourceType,
} from './sale-creation.ts';
export {
  previewConversion,
  repriceLines,
  type ConversionPreview,
  type ConversionLine,
  type LineChange,
} from './conversion.ts';
export {
  COUNTER_PAYMENT_METHODS,
  type CounterSale,
} from './counter-sale.ts';
