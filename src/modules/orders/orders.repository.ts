import { sql, type SqlBool } from 'kysely';
import type { Engine, Executor } from '../../db/database.ts';
import { cappedCount } from '../../db/capped-count.ts';
import { newestFirst, type NewestFirstPage } from '../../db/keyset.ts';
import type { OrdersTable } from '../../db/schema.ts';
import { documentSearch, type DocumentLineTable } from '../documents/index.ts';

export type OrderRow = OrdersTable;

export interface OrderFilter {
  /** Live (the default) or test data: never both. */
  mode?: 'live' | 'test';
  status?: string;
  locationId?: string;
  q?: string;
  /** The gross total exactly, in minor units. */
  totalMinor?: number;
  /** created_at ≥ from and < to (ISO UTC). */
  from?: string;
  to?: string;
}

/** `lines`: the order_lines table's lines (the document kernel's, wired by the composition root). */
export function createOrdersRepository(db: Executor, engine: Engine, lines: DocumentLineTable) {
  return {
    ...lines,
    async insert(row: OrderRow): Promise<void> {
      await db.insertInto('orders').values(row).execute();
    },
    /** With `atLocation`, a record created at another location of the company is not found. */
    async find(
      companyId: string,
      id: string,
      atLocation?: string,
      mode?: 'live' | 'test',
    ): Promise<OrderRow | undefined> {
      return db
        .selectFrom('orders')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .$if(atLocation !== undefined, (q) => q.where('location_id', '=', atLocation!))
        .$if(mode !== undefined, (q) => q.where('mode', '=', mode!))
        .executeTakeFirst();
    },
    /** Links a directory customer while the document is in one of `openStatuses`; false if it is not (or not found). */
    async assignCustomer(
      companyId: string,
      id: string,
      customerId: string,
      openStatuses: readonly string[],
    ): Promise<boolean> {
      const result = await db
        .updateTable('orders')
        .set({ directory_customer_id: customerId })
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .where('status', 'in', [...openStatuses])
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
    async list(companyId: string, page: NewestFirstPage, filter: OrderFilter = {}): Promise<OrderRow[]> {
      const search = filter.q === undefined ? undefined : documentSearch(engine, filter.q);
      const query = db
        .selectFrom('orders')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('mode', '=', filter.mode ?? 'live')
        .$if(filter.status !== undefined, (q) => q.where('status', '=', filter.status!))
        .$if(filter.locationId !== undefined, (q) => q.where('location_id', '=', filter.locationId!))
        .$if(search !== undefined, (q) => q.where(search ?? sql<SqlBool>`1 = 0`))
        .$if(filter.totalMinor !== undefined, (q) => q.where('total_minor', '=', filter.totalMinor!))
        .$if(filter.from !== undefined, (q) => q.where('created_at', '>=', filter.from!))
        .$if(filter.to !== undefined, (q) => q.where('created_at', '<', filter.to!));
      return newestFirst(query, page).execute();
    },
    /** How many are in one of `statuses`, up to COUNT_CAP (Today's cards), on the status index. */
    async countWithStatus(companyId: string, statuses: readonly string[]): Promise<number> {
      return cappedCount(
        db,
        db
          .selectFrom('orders')
          .select('id')
          .where('company_id', '=', companyId)
          .where('status', 'in', statuses)
          .where('mode', '=', 'live'),
      );
    },
    /** Test orders and their lines; within a unit of work. */
    async deleteTest(companyId: string): Promise<number> {
      const test = db.selectFrom('orders').select('id').where('company_id', '=', companyId).where('mode', '=', 'test');
      await db.deleteFrom('order_lines').where('company_id', '=', companyId).where('document_id', 'in', test).execute();
      const result = await db
        .deleteFrom('orders')
        .where('company_id', '=', companyId)
        .where('mode', '=', 'test')
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    /**
     * Moves an order from status `from` only if it still has it: of two concurrent transitions
     * exactly one passes (PostgreSQL locks the row until commit; SQLite has one writer).
     */
    async transition(
      companyId: string,
      id: string,
      from: string,
      change: Partial<Pick<OrderRow, 'accepted_at' | 'sale_id' | 'cancelled_at' | 'cancellation_reason'>> & {
        status: string;
      },
    ): Promise<boolean> {
      const result = await db
        .updateTable('orders')
        .set(change)
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .where('status', '=', from)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
  };
}
export type OrdersRepository = ReturnType<typeof createOrdersRepository>;
