export { formatDocumentNumber, yearIn } from './document-number.ts';
export { documentLines, type DocumentLineRow } from './documents.repository.ts';
export {
  priceLine,
  summarize,
  unitPriceBothWays,
  type DocumentTotals,
  type LineAmounts,
  type LineInput,
  type TaxSummary,
} from './pricing.ts';
export {
  lineRows,
  parseQuantities,
  priceLines,
  toLineView,
  totalsView,
  type LineRequest,
  type LineView,
  type PricedLine,
  type TotalsView,
} from './sales-lines.ts';
export { createSequencesRepository, type SequencesRepository } from './sequences.repository.ts';
export { apportionLines, taxSummary, type PrintedTotals, type RateRow } from './tax-summary.ts';
export {
  buildEpcQrPayload,
  buildHub3Payload,
  choosePaymentCodes,
  documentReference,
  paymentCodeModules,
  type CodeModules,
  type PaymentCodeKind,
} from './payment-codes/index.ts';
export { createSalesRepository, type SalesRepository, type SaleFilter, type SaleRow } from './sales.repository.ts';
export {
  createSalesService,
  toSaleView,
  PAYMENT_METHODS,
  SALE_STATUSES,
  type SaleStatus,
  type SalesService,
  type SaleView,
  type PaymentMethod,
  type PaymentView,
  type SaleDocumentBuilder,
} from './sales.service.ts';
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
export { documentSearch } from './document-search.ts';
