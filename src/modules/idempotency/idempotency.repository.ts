import type { Executor } from '../../db/database.ts';
import type { IdempotencyKeysTable } from '../../db/schema.ts';

export type IdempotencyRow = IdempotencyKeysTable;

export function createIdempotencyRepository(db: Executor) {
  return {
    /** True when this call created the row; false when the key already exists. */
    async tryInsert(row: IdempotencyRow): Promise<boolean> {
      const result = await db
        .insertInto('idempotency_keys')
        .values(row)
        .onConflict((oc) => oc.columns(['company_id', 'key']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
    },
    async find(companyId: string, key: string): Promise<IdempotencyRow | undefined> {
      return db
        .selectFrom('idempotency_keys')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('key', '=', key)
        .executeTakeFirst();
    },
    /**
     * Takes over a row whose lease ran out or which expired, only if it is still what the caller
     * saw (same locked_until): of two racing requests exactly one wins.
     */
    async takeOver(
      companyId: string,
      key: string,
      seenLockedUntil: string,
      row: Omit<IdempotencyRow, 'company_id' | 'key'>,
    ): Promise<boolean> {
      const result = await db
        .updateTable('idempotency_keys')
        .set(row)
        .where('company_id', '=', companyId)
        .where('key', '=', key)
        .where('locked_until', '=', seenLockedUntil)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    /** Only the holder of `claim` (the lease end it set) completes or releases the key. */
    async complete(
      companyId: string,
      key: string,
      claim: string,
      resourceId: string,
      status: number,
    ): Promise<boolean> {
      const result = await db
        .updateTable('idempotency_keys')
        .set({ state: 'done', resource_id: resourceId, response_status: status })
        .where('company_id', '=', companyId)
        .where('key', '=', key)
        .where('state', '=', 'in_flight')
        .where('locked_until', '=', claim)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async release(companyId: string, key: string, claim: string): Promise<void> {
      await db
        .deleteFrom('idempotency_keys')
        .where('company_id', '=', companyId)
        .where('key', '=', key)
        .where('state', '=', 'in_flight')
        .where('locked_until', '=', claim)
        .execute();
    },
    async deleteExpired(now: string): Promise<void> {
      await db.deleteFrom('idempotency_keys').where('expires_at', '<', now).execute();
    },
  };
}
export type IdempotencyRepository = ReturnType<typeof createIdempotencyRepository>;
