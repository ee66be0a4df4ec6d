import type { Engine, Executor } from './db/database.ts';
import type { Store as DbStore } from './db/store.ts';
import { createCompaniesRepository } from './modules/companies/companies.repository.ts';
import { createApiKeysRepository } from './modules/api-keys/api-keys.repository.ts';
import { createInquiriesRepository } from './modules/inquiries/inquiries.repository.ts';
import { createInquiryDigestsRepository } from './modules/inquiries/inquiry-digests.repository.ts';
import { createNotificationsRepository } from './modules/notifications/notifications.repository.ts';
import { createIdempotencyRepository } from './modules/idempotency/idempotency.repository.ts';
import { createCatalogRepository } from './modules/catalog/catalog.repository.ts';
import { createQuotationsRepository } from './modules/quotations/quotations.repository.ts';
import { createOrdersRepository } from './modules/orders/orders.repository.ts';
import { createWebhooksRepository } from './modules/webhooks/webhooks.repository.ts';
import { createSequencesRepository } from './modules/documents/sequences.repository.ts';
import { documentLines } from './modules/documents/document-lines.repository.ts';
import { createSalesRepository } from './modules/sales/sales.repository.ts';
import { createSaleTotalsRepository } from './modules/sales/sale-totals.repository.ts';
import { createCustomersRepository } from './modules/customers/customers.repository.ts';
import { createAccountsRepository } from './modules/accounts/accounts.repository.ts';
import { createFiscalRepository } from './modules/fiscal/fiscal.repository.ts';
import { createTseRepository } from './modules/fiscal/tse.repository.ts';
import { createMailingRepository } from './modules/mailing/mailing.repository.ts';
import { createQuotationLinksRepository } from './modules/quotations/quotation-links.repository.ts';
import { createReportsRepository } from './modules/reports/reports.repository.ts';
import { createIssuedDocumentsRepository } from './modules/invoicing/issued-documents.repository.ts';
import { createExchangeRepository } from './modules/einvoice/exchange.repository.ts';
import { createPurchaseInvoicesRepository } from './modules/einvoice/purchase-invoices.repository.ts';
import { createTillRepository } from './modules/till/till.repository.ts';

/**
 * Every module's repository, bound to one executor: the database itself or an open transaction.
 * Part of the composition root, which hands this factory to the store (src/db knows no module).
 * No module sees this registry: each service declares the slice of it that it uses.
 */
export function createRepositories(db: Executor, engine: Engine) {
  return {
    companies: createCompaniesRepository(db, engine),
    apiKeys: createApiKeysRepository(db, engine),
    inquiries: createInquiriesRepository(db, engine),
    inquiryDigests: createInquiryDigestsRepository(db),
    notifications: createNotificationsRepository(db, engine),
    idempotency: createIdempotencyRepository(db),
    catalog: createCatalogRepository(db),
    sequences: createSequencesRepository(db),
    quotations: createQuotationsRepository(db, engine, documentLines(db, 'quotation_lines')),
    orders: createOrdersRepository(db, engine, documentLines(db, 'order_lines')),
    sales: createSalesRepository(db, documentLines(db, 'sale_lines')),
    saleTotals: createSaleTotalsRepository(db),
    webhooks: createWebhooksRepository(db, engine),
    customers: createCustomersRepository(db),
    accounts: createAccountsRepository(db, engine),
    fiscal: createFiscalRepository(db),
    tse: createTseRepository(db),
    mailing: createMailingRepository(db),
    quotationLinks: createQuotationLinksRepository(db),
    reports: createReportsRepository(db),
    issuedDocuments: createIssuedDocumentsRepository(db),
    exchange: createExchangeRepository(db),
    purchases: createPurchaseInvoicesRepository(db),
    till: createTillRepository(db),
  };
}
export type Repositories = ReturnType<typeof createRepositories>;

/** The one store, over every module's repositories; each service sees it as its own slice. */
export type Store = DbStore<Repositories>;
