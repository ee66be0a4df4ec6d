/**
 * The kernel every sales document shares (quotations, orders, sales, and what prints them):
 * priced lines and their tax summary, numbers and their sequences, payment details and the
 * payloads of payment codes, the search of document lists. It knows no kind of document: the
 * modules of quotations, orders and sales depend on it, it depends on none of them.
 */
export { formatDocumentNumber, yearIn } from './document-number.ts';
export { sequenceKind, testPrefix, type DataMode } from './test-numbers.ts';
export type { DocumentLineRow, DocumentLineTable, NumberSequences } from './types.ts';
export { documentSearch } from './document-search.ts';
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
  priceLines,
  toLineView,
  totalsView,
  type LineRequest,
  type LineView,
  type PricedLine,
  type ResolvedLine,
  type ResolveLines,
  type TotalsView,
} from './priced-lines.ts';
export { type PrintedTotals, type RateRow } from './tax-summary.ts';
export { type PaymentCodeKind } from './payment-codes/choose-payment-codes.ts';
export { buildEpcQrPayload, EPC_QR_MAX_BYTES } from './payment-codes/epc-qr.ts';
export { buildHub3Payload, type Hub3Input } from './payment-codes/hub3.ts';
export { documentReference, hr01Reference } from './payment-codes/payment-reference.ts';
export { type PaymentDetails } from './payment-codes/payment-details.ts';
export {
  printedContent,
  type DocumentTitle,
  type PrintedContent,
  type PrintedLine,
  type StoredDocument,
} from './printed-content.ts';
