/**
 * E-invoices (EN 16931): one model built from a sales document's stored lines and tax summary,
 * written as UBL 2.1 or CII D16B under the profile the company's and buyer's countries choose.
 * The sales module feeds it. Also Fiskalizacija 2.0's other half: the exchange port and its
 * intermediary adapters, received (purchase) invoices, and the KPD 2025 list.
 */
export { buildEInvoice, type EInvoice, type EInvoiceSource, type Profile } from './einvoice-model.ts';
export { assertReady, missingFields } from './einvoice-readiness.ts';
export { toUbl } from './ubl.ts';
export { toCii } from './cii.ts';
export { type EInvoiceSender } from './sender.ts';
export { toFacturX } from './facturx.ts';
export { kpdEntry, searchKpd } from './kpd.ts';
/** The exchange's port: what the invoicing lifecycle will send through (see the README, issue 33). */
export { EXCHANGE_PROVIDERS, REJECTION_TYPES, type EInvoiceExchange } from './exchange.ts';
export { createExchangeConnector } from './exchange-connector.ts';
export { enqueueExchangeCall, type ExchangeCall } from './exchange-outbox.ts';
export { createExchangeSettingsService } from './exchange-settings.service.ts';
export { createExchangeWorker, DEFAULT_EXCHANGE_RETRY_DELAYS_MS } from './exchange-worker.ts';
export {
  createPurchaseInvoicesService,
  PURCHASE_PAYMENT_METHODS,
  PURCHASE_STATUSES,
  type PurchaseInvoiceDetail,
} from './purchase-invoices.service.ts';
export { purchaseBookTable } from './purchase-book.ts';
export {
  createExchangeStatusReader,
  createOutboundOverview,
  type StuckEInvoice,
  EXCHANGE_STATUSES,
  NOT_SENT,
  JUST_QUEUED,
  queueSend,
  reportPayment,
  routesThroughExchange,
  type ExchangeStatusReader,
  type ExchangeView,
  type OutboundRepos,
} from './outbound.ts';
export { createExchangeSends, type ExchangeSends } from './exchange-sends.ts';
