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
    async list(companyId: string, page: NewestFirstPage): Promise<OrderRow[]> {
      return newestFirst(db.selectFrom('orders').selectAll().where('company_id', '=', companyId), page).execute();
    },
  };
}
export type OrdersRepository = ReturnType<typeof createOrdersRepository>;
