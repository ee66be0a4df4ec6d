import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';

export function createSequencesRepository(db: Executor) {
  return {
    /**
     * The next number of a per-location, per-year series. Must run inside the transaction that
     * uses the number: the upsert locks the counter row until commit (PostgreSQL) or holds the
     * write lock (SQLite), and a rollback gives the number back, so numbers have no gaps.
     */
    async next(companyId: string, locationId: string, kind: string, year: number): Promise<number> {
      const row = await db
        .insertInto('number_sequences')
        .values({ company_id: companyId, location_id: locationId, kind, year, last_value: 1 })
        .onConflict((oc) =>
          oc
            .columns(['location_id', 'kind', 'year'])
            .doUpdateSet({ last_value: sql<number>`number_sequences.last_value + 1` }),
        )
        .returning('last_value')
        .executeTakeFirstOrThrow();
      return Number(row.last_value);
    },
  };
}
export type SequencesRepository = ReturnType<typeof createSequencesRepository>;
