export type {
  RefundRow,
  SaleFilter,
  SaleLineRow,
  SaleRecords,
  SaleRow,
  SaleTotalsLedger,
} from './types.ts';
export { documentTotals } from './sale-totals.ts';
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
  type InvoiceKind,
  type InvoicePaymentMethod,
  type SaleSourceType,
} from './sale-kinds.ts';
export {
  previewConversion,
  repriceLines,
  type ConversionPreview,
  type ConversionLine,
  type LineChange,
} from './conversion.ts';
export type { IssueSnapshot } from './issue-snapshot.ts';
export type { StatementView, StatementEntry } from './statement.ts';
export { saleEInvoice } from './sale-einvoice.ts';
