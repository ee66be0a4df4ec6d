/**
 * E-invoices (EN 16931): one model built from a sales document's stored lines and tax summary,
 * written as UBL 2.1 or CII D16B under the profile the company's and buyer's countries choose.
 * Depends on the documents kernel only; the sales module feeds it.
 */
export { buildEInvoice, type EInvoice, type EInvoiceSource, type Profile } from './einvoice-model.ts';
export { assertReady, missingFields } from './einvoice-readiness.ts';
export { toUbl } from './ubl.ts';
export { toCii } from './cii.ts';
export { type EInvoiceSender } from './sender.ts';
export { toFacturX } from './facturx.ts';
export { kpdEntry, searchKpd, type KpdEntry } from './kpd.ts';
export {
  EXCHANGE_PROVIDERS,
  REJECTION_TYPES,
  ExchangeRefused,
  ExchangeUnreachable,
  type EInvoiceExchange,
  type ExchangeProvider,
  type RejectionType,
} from './exchange.ts';
export { createExchangeConnector } from './exchange-connector.ts';
export {
  createExchangeSettingsService,
  type ExchangeSettingsService,
  type ExchangeSettingsView,
} from './exchange-settings.service.ts';
export { createExchangeWorker, DEFAULT_EXCHANGE_RETRY_DELAYS_MS } from './exchange-worker.ts';
export {
  createPurchaseInvoicesService,
  PURCHASE_PAYMENT_METHODS,
  PURCHASE_STATUSES,
  type PurchaseInvoiceDetail,
  type PurchaseInvoiceView,
  type PurchaseInvoicesService,
} from './purchase-invoices.service.ts';
export { purchaseBookTable } from './purchase-book.ts';
