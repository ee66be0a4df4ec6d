import type { Engine, Executor } from '../db/database.ts';
import type { CommitHook as DbCommitHook, PendingHooks as DbPendingHooks, Store as DbStore } from '../db/store.ts';
import { createCompaniesRepository } from './companies/companies.repository.ts';
import { createApiKeysRepository } from './api-keys/api-keys.repository.ts';
import { createInquiriesRepository } from './inquiries/inquiries.repository.ts';
import { createNotificationsRepository } from './notifications/notifications.repository.ts';
import { createIdempotencyRepository } from './idempotency/idempotency.repository.ts';
import { createCatalogRepository } from './catalog/catalog.repository.ts';
import { createQuotationsRepository } from './quotations/quotations.repository.ts';
import { createOrdersRepository } from './orders/orders.repository.ts';
import { createWebhooksRepository } from './webhooks/webhooks.repository.ts';
import { createSequencesRepository } from './documents/sequences.repository.ts';
import { createSalesRepository } from './sales/sales.repository.ts';
import { createCustomersRepository } from './customers/customers.repository.ts';
import { createAccountsRepository } from './accounts/accounts.repository.ts';

/**
 * Every module's repository, bound to one executor: the database itself or an open transaction.
 * The composition root hands this factory to the store (src/db knows no module).
 */
export function createRepositories(db: Executor, engine: Engine) {
  return {
    companies: createCompaniesRepository(db, engine),
    apiKeys: createApiKeysRepository(db, engine),
    inquiries: createInquiriesRepository(db, engine),
    notifications: createNotificationsRepository(db, engine),
    idempotency: createIdempotencyRepository(db),
    catalog: createCatalogRepository(db),
    sequences: createSequencesRepository(db),
    quotations: createQuotationsRepository(db, engine),
    orders: createOrdersRepository(db, engine),
    sales: createSalesRepository(db),
    webhooks: createWebhooksRepository(db, engine),
    customers: createCustomersRepository(db),
    accounts: createAccountsRepository(db, engine),
  };
}
export type Repositories = ReturnType<typeof createRepositories>;

/** The store the services share, over every module's repositories. */
export type Store = DbStore<Repositories>;
export type CommitHook = DbCommitHook<Repositories>;
export type PendingHooks = DbPendingHooks<Repositories>;
