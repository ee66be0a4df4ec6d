import type { Executor } from '../../db/database.ts';
import type { OrdersTable } from '../../db/schema.ts';
import { documentLines } from '../sales/documents.repository.ts';

export type OrderRow = OrdersTable;

export function createOrdersRepository(db: Executor) {
  return {
    ...documentLines(db, 'order_lines'),
    async insert(row: OrderRow): Promise<void> {
      await db.insertInto('orders').values(row).execute();
    },
    async find(companyId: string, id: string): Promise<OrderRow | undefined> {
      return db.selectFrom('orders').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
    },
    async list(companyId: string, opts: { limit: number; before?: { createdAt: string; id: string } }): Promise<OrderRow[]> {
      let query = db.selectFrom('orders').selectAll().where('company_id', '=', companyId);
      if (opts.before) {
        const { createdAt, id } = opts.before;
        query = query.where((eb) => eb.or([eb('created_at', '<', createdAt), eb.and([eb('created_at', '=', createdAt), eb('id', '<', id)])]));
      }
      return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(opts.limit).execute();
    },
  };
}
export type OrdersRepository = ReturnType<typeof createOrdersRepository>;
