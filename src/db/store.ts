import type { Database, Executor } from './database.ts';
import { createCompaniesRepository } from '../modules/companies/companies.repository.ts';
import { createApiKeysRepository } from '../modules/api-keys/api-keys.repository.ts';
import { createInquiriesRepository } from '../modules/inquiries/inquiries.repository.ts';
import { createNotificationsRepository } from '../modules/notifications/notifications.repository.ts';
import { createIdempotencyRepository } from '../modules/idempotency/idempotency.repository.ts';
import { createCatalogRepository } from '../modules/catalog/catalog.repository.ts';
import { createQuotationsRepository } from '../modules/quotations/quotations.repository.ts';
import { createOrdersRepository } from '../modules/orders/orders.repository.ts';
import { createWebhooksRepository } from '../modules/webhooks/webhooks.repository.ts';
import { createSequencesRepository } from '../modules/sales/sequences.repository.ts';

/** Every repository, bound to one executor: the database itself or an open transaction. */
export function createRepositories(db: Executor, engine: Database['engine']) {
  return {
    companies: createCompaniesRepository(db, engine),
    apiKeys: createApiKeysRepository(db, engine),
    inquiries: createInquiriesRepository(db, engine),
    notifications: createNotificationsRepository(db, engine),
    idempotency: createIdempotencyRepository(db),
    catalog: createCatalogRepository(db),
    sequences: createSequencesRepository(db),
    quotations: createQuotationsRepository(db),
    orders: createOrdersRepository(db),
    webhooks: createWebhooksRepository(db, engine),
  };
}
export type Repositories = ReturnType<typeof createRepositories>;

/**
 * The services' door to the database: `repos` for single statements, `transaction` for a use
 * case that must commit as a whole (a record and its outbox event, for one).
 */
export interface Store {
  readonly engine: Database['engine'];
  readonly repos: Repositories;
  transaction<T>(work: (repos: Repositories) => Promise<T>): Promise<T>;
}

export function createStore(database: Database): Store {
  return {
    engine: database.engine,
    repos: createRepositories(database.db, database.engine),
    transaction: (work) => database.db.transaction().execute((tx) => work(createRepositories(tx, database.engine))),
  };
}
