import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { cappedCount } from '../../db/capped-count.ts';
import { newestFirst, type NewestFirstPage } from '../../db/keyset.ts';
import type { SalePaymentsTable, SalesTable } from '../../db/schema.ts';
import { documentLines } from '../documents/index.ts';

export type SaleRow = SalesTable;
export type PaymentRow = SalePaymentsTable;

export interface SaleFilter {
  status?: string;
  locationId?: string;
  customerId?: string;
  /** created_at ≥ from (ISO UTC). */
  from?: string;
  /** created_at < to (ISO UTC). */
  to?: string;
}

export function createSalesRepository(db: Executor) {
  return {
    ...documentLines(db, 'sale_lines'),
    async insert(row: SaleRow): Promise<void> {
      await db.insertInto('sales').values(row).execute();
    },
    async find(companyId: string, id: string): Promise<SaleRow | undefined> {
      return db
        .selectFrom('sales')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .executeTakeFirst();
    },
    /** Each filter is an equality on a column the tenant's indexes lead with, so a page is one index range. */
    async list(companyId: string, filter: SaleFilter, page: NewestFirstPage): Promise<SaleRow[]> {
      const query = db
        .selectFrom('sales')
        .selectAll()
        .where('company_id', '=', companyId)
        .$if(filter.status !== undefined, (q) => q.where('status', '=', filter.status!))
        .$if(filter.locationId !== undefined, (q) => q.where('location_id', '=', filter.locationId!))
        .$if(filter.customerId !== undefined, (q) => q.where('customer_id', '=', filter.customerId!))
        .$if(filter.from !== undefined, (q) => q.where('created_at', '>=', filter.from!))
        .$if(filter.to !== undefined, (q) => q.where('created_at', '<', filter.to!));
      return newestFirst(query, page).execute();
    },
    /** How many are in one of `statuses`, up to COUNT_CAP (Today's cards), on the status index. */
    async countWithStatus(companyId: string, statuses: readonly string[]): Promise<number> {
      return cappedCount(
        db,
        db.selectFrom('sales').select('id').where('company_id', '=', companyId).where('status', 'in', statuses),
      );
    },
    /**
     * Adds a payment to the sale's paid amount only while it stays within the total, in one
     * statement: two payments recorded at once cannot together pay more than the total.
     * Returns the sale as updated, or undefined when the amount does not fit.
     */
    async addPaid(companyId: string, id: string, amountMinor: number): Promise<SaleRow | undefined> {
      return db
        .updateTable('sales')
        .set({
          paid_minor: sql<number>`paid_minor + ${amountMinor}`,
          status: sql<string>`case when paid_minor + ${amountMinor} = total_minor then 'paid' else 'partially_paid' end`,
        })
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .where(sql<boolean>`paid_minor + ${amountMinor} <= total_minor`)
        .returningAll()
        .executeTakeFirst();
    },
    async insertPayment(row: PaymentRow): Promise<void> {
      await db.insertInto('sale_payments').values(row).execute();
    },
    async listPaymentsOf(companyId: string, saleIds: readonly string[]): Promise<PaymentRow[]> {
      if (saleIds.length === 0) return [];
      return db
        .selectFrom('sale_payments')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('sale_id', 'in', saleIds)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },
    async listPayments(companyId: string, saleId: string): Promise<PaymentRow[]> {
      return db
        .selectFrom('sale_payments')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('sale_id', '=', saleId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },
  };
}
export type SalesRepository = ReturnType<typeof createSalesRepository>;
