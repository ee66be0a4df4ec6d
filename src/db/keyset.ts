import { sql, type SelectQueryBuilder } from 'kysely';

/** A newest-first page: `before` is the (created_at, id) of the last row already seen. */
export interface NewestFirstPage {
  limit: number;
  before?: { createdAt: string; id: string };
}

/**
 * Keyset pagination on (created_at, id), newest first: pages stay stable while rows arrive,
 * and each page is an index range scan however deep the client goes. Row-value comparison
 * works the same on SQLite and PostgreSQL.
 */
// biome-ignore lint/suspicious/noExplicitAny: any table's builder; only its created_at and id columns are named
export function newestFirst<QB extends SelectQueryBuilder<any, any, any>>(query: QB, page: NewestFirstPage): QB {
  const filtered = page.before
    ? query.where(sql<boolean>`(created_at, id) < (${page.before.createdAt}, ${page.before.id})`)
    : query;
  return filtered.orderBy(sql`created_at desc`).orderBy(sql`id desc`).limit(page.limit) as QB;
}
