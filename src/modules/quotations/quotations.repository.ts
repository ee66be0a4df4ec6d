import type { Executor } from '../../db/database.ts';
import { newestFirst, type NewestFirstPage } from '../../db/keyset.ts';
import type { QuotationsTable } from '../../db/schema.ts';
import { documentLines } from '../sales/index.ts';

export type QuotationRow = QuotationsTable;

export function createQuotationsRepository(db: Executor) {
  return {
    ...documentLines(db, 'quotation_lines'),
    async insert(row: QuotationRow): Promise<void> {
      await db.insertInto('quotations').values(row).execute();
    },
    /** With `atLocation`, a record created at another location of the company is not found. */
    async find(companyId: string, id: string, atLocation?: string): Promise<QuotationRow | undefined> {
      return db.selectFrom('quotations').selectAll().where('company_id', '=', companyId).where('id', '=', id)
        .$if(atLocation !== undefined, (q) => q.where('location_id', '=', atLocation!))
        .executeTakeFirst();
    },
    /** Links a directory customer while the document is in one of `openStatuses`; false if it is not (or not found). */
    async assignCustomer(companyId: string, id: string, customerId: string, openStatuses: readonly string[]): Promise<boolean> {
      const result = await db.updateTable('quotations').set({ directory_customer_id: customerId })
        .where('company_id', '=', companyId).where('id', '=', id).where('status', 'in', [...openStatuses])
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
    async list(companyId: string, page: NewestFirstPage): Promise<QuotationRow[]> {
      return newestFirst(db.selectFrom('quotations').selectAll().where('company_id', '=', companyId), page).execute();
    },
  };
}
export type QuotationsRepository = ReturnType<typeof createQuotationsRepository>;
