import type { SelectQueryBuilder } from 'kysely';
import { COUNT_CAP } from '../lib/count-cap.ts';
import type { Executor } from './database.ts';

/**
 * How many rows `query` selects, counting no further than `cap`: the count reads at most `cap`
 * index entries, so a card on Today costs the same with ten open documents or a million.
 */
export async function cappedCount(
  db: Executor,
  // biome-ignore lint/suspicious/noExplicitAny: any table's query; it is only wrapped as a subquery
  query: SelectQueryBuilder<any, any, any>,
  cap = COUNT_CAP,
): Promise<number> {
  const row = await db
    .selectFrom(query.limit(cap).as('counted'))
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
