import type { Executor } from '../../db/database.ts';
import type { TseAccountsTable, TseDevicesTable, TseTransactionsTable } from '../../db/schema.ts';

export type TseAccountRow = TseAccountsTable;
export type TseDeviceRow = TseDevicesTable;
export type TseTransactionRow = TseTransactionsTable;

/** The TSE tables; every read names the company first. */
export function createTseRepository(db: Executor) {
  return {
    findAccount(companyId: string): Promise<TseAccountRow | undefined> {
      return db.selectFrom('tse_accounts').selectAll().where('company_id', '=', companyId).executeTakeFirst();
    },
    async saveAccount(row: TseAccountRow): Promise<void> {
      const { company_id, ...rest } = row;
      await db
        .insertInto('tse_accounts')
        .values(row)
        .onConflict((oc) => oc.column('company_id').doUpdateSet(rest))
        .execute();
    },
    findDevice(companyId: string, locationId: string): Promise<TseDeviceRow | undefined> {
      return db
        .selectFrom('tse_devices')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('location_id', '=', locationId)
        .executeTakeFirst();
    },
    listDevices(companyId: string): Promise<TseDeviceRow[]> {
      return db.selectFrom('tse_devices').selectAll().where('company_id', '=', companyId).execute();
    },
    async saveDevice(row: TseDeviceRow): Promise<void> {
      const { company_id, location_id, ...rest } = row;
      await db
        .insertInto('tse_devices')
        .values(row)
        .onConflict((oc) => oc.columns(['company_id', 'location_id']).doUpdateSet(rest))
        .execute();
    },
    async insertTransaction(row: TseTransactionRow): Promise<void> {
      await db.insertInto('tse_transactions').values(row).execute();
    },
    async listForDocuments(companyId: string, documentIds: readonly string[]): Promise<TseTransactionRow[]> {
      if (documentIds.length === 0) return [];
      return db
        .selectFrom('tse_transactions')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('document_id', 'in', documentIds)
        .execute();
    },
    /** A device's transactions in a period, oldest first (the DSFinV-K export). */
    listForPeriod(companyId: string, locationId: string, from: string, to: string): Promise<TseTransactionRow[]> {
      return db
        .selectFrom('tse_transactions')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('location_id', '=', locationId)
        .where('created_at', '>=', from)
        .where('created_at', '<', to)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },
    /**
     * A device's transactions the TSE started (revision 1 answered) but never finished: the
     * finishing call failed. They stay open at the TSE until cancelled.
     */
    listUnfinished(companyId: string, locationId: string, limit: number): Promise<TseTransactionRow[]> {
      return db
        .selectFrom('tse_transactions')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('location_id', '=', locationId)
        .where('status', '=', 'failed')
        .where('attempts', '=', 1)
        .orderBy('created_at')
        .limit(limit)
        .execute();
    },
    /** The open transaction was cancelled at the TSE (revision 2 CANCELLED). */
    async markClosed(companyId: string, id: string, note: string): Promise<void> {
      await db
        .updateTable('tse_transactions')
        .set({ attempts: 2, error: note })
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .where('attempts', '=', 1)
        .execute();
    },
    /** Transactions the TSE was not reached for, oldest first. */
    listFailed(companyId: string, limit: number): Promise<TseTransactionRow[]> {
      return db
        .selectFrom('tse_transactions')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('status', '=', 'failed')
        .orderBy('created_at')
        .limit(limit)
        .execute();
    },
  };
}
export type TseRepository = ReturnType<typeof createTseRepository>;
