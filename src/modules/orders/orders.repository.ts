import type { Executor } from '../../db/database.ts';
import { newestFirst, type NewestFirstPage } from '../../db/keyset.ts';
import type { OrdersTable } from '../../db/schema.ts';
import { documentLines } from '../sales/index.ts';

export type OrderRow = OrdersTable;

export function createOrdersRepository(db: Executor) {
  return {
    ...documentLines(db, 'order_lines'),
    async insert(row: OrderRow): Promise<void> {
      await db.insertInto('orders').values(row).execute();
    },
    /** With `atLocation`, a record created at another location of the company is not found. */
    async find(companyId: string, id: string, atLocation?: string): Promise<OrderRow | undefined> {
      return db.selectFrom('orders').selectAll().where('company_id', '=', companyId).where('id', '=', id)
        .$if(atLocation !== undefined, (q) => q.where('location_id', '=', atLocation!))
        .executeTakeFirst();
    },
    /** Links a directory customer while the document is in one of `openStatuses`; false if it is not (or not found). */
    async assignCustomer(companyId: string, id: string, customerId: string, openStatuses: readonly string[]): Promise<boolean> {
      const result = await db.updateTable('orders').set({ directory_customer_id: customerId })
        .where('company_id', '=', companyId).where('id', '=', id).where('status', 'in', [...openStatuses])
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
    async list(companyId: string, page: NewestFirstPage): Promise<OrderRow[]> {
      return newestFirst(db.selectFrom('orders').selectAll().where('company_id', '=', companyId), page).execute();
    },
  };
}
export type OrdersRepository = ReturnType<typeof createOrdersRepository>;
