import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { cappedCount } from '../../db/capped-count.ts';
import { newestFirst, type NewestFirstPage } from '../../db/keyset.ts';
import type { DocumentLineTable } from '../documents/index.ts';
import type { PaymentRow, RefundRow, SaleFilter, SaleLineRow, SaleRow } from './types.ts';

/** What is still due once credit notes and payments are counted; a cancelled invoice owes nothing. */
const statusAfterChange = sql<string>`case when status = 'cancelled' then 'cancelled' when kind <> 'invoice' then status when paid_minor >= total_minor - credited_minor then 'paid' when paid_minor = 0 then 'unpaid' else 'partially_paid' end`;

/**
 * `q` as the counter staff type it: "12/ZG1" or "S-ZG1-2026-0004" (a number's start), "kovač"
 * (a part of the name, case-folded), "12345678" (a part of the OIB). A scan within the tenant's
 * newest-first range: a shop's sales list is read a page at a time.
 */
function matchesText(q: string) {
  const text = q.trim().toLowerCase();
  const digits = text.replace(/\D/g, '');
  const like = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
  return sql<boolean>`(lower(number) like ${`${like(text)}%`} escape '\\' or lower(coalesce(invoice_number, '')) like ${`${like(text)}%`} escape '\\' or lower(customer_name) like ${`%${like(text)}%`} escape '\\'${digits.length >= 4 ? sql` or customer_tax_id like ${`%${digits}%`}` : sql``})`;
}

/** `lines`: the sale_lines table's lines (the document kernel's, wired by the composition root). */
export function createSalesRepository(db: Executor, lines: DocumentLineTable) {
  async function recomputeStatus(companyId: string, id: string): Promise<void> {
    await db
      .updateTable('sales')
      .set({ status: statusAfterChange })
      .where('company_id', '=', companyId)
      .where('id', '=', id)
      .execute();
  }
  return {
    ...lines,
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
        .where('mode', '=', filter.mode ?? 'live')
        .$if(filter.status !== undefined, (q) => q.where('status', '=', filter.status!))
        .$if(filter.locationId !== undefined, (q) => q.where('location_id', '=', filter.locationId!))
        .$if(filter.customerId !== undefined, (q) => q.where('customer_id', '=', filter.customerId!))
        .$if(filter.from !== undefined, (q) => q.where('created_at', '>=', filter.from!))
        .$if(filter.to !== undefined, (q) => q.where('created_at', '<', filter.to!))
        .$if(filter.q !== undefined, (q) => q.where(matchesText(filter.q!)))
        .$if(filter.totalMinor !== undefined, (q) => q.where('total_minor', '=', filter.totalMinor!));
      return newestFirst(query, page).execute();
    },
    /** How many are in one of `statuses`, up to COUNT_CAP (Today's cards), on the status index. */
    async countWithStatus(companyId: string, statuses: readonly string[]): Promise<number> {
      return cappedCount(
        db,
        db
          .selectFrom('sales')
          .select('id')
          .where('company_id', '=', companyId)
          .where('status', 'in', statuses)
          .where('mode', '=', 'live'),
      );
    },
    /** Test sales (corrections included) with their lines and payments; within a unit of work. */
    async deleteTest(companyId: string): Promise<number> {
      const test = db.selectFrom('sales').select('id').where('company_id', '=', companyId).where('mode', '=', 'test');
      await db.deleteFrom('sale_payments').where('company_id', '=', companyId).where('sale_id', 'in', test).execute();
      await db.deleteFrom('sale_lines').where('company_id', '=', companyId).where('document_id', 'in', test).execute();
      const result = await db
        .deleteFrom('sales')
        .where('company_id', '=', companyId)
        .where('mode', '=', 'test')
        .executeTakeFirst();
      return Number(result.numDeletedRows);
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
          status: sql<string>`case when paid_minor + ${amountMinor} = total_minor - credited_minor then 'paid' else 'partially_paid' end`,
        })
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .where('kind', '=', 'invoice')
        .where('status', '<>', 'cancelled')
        .where(sql<boolean>`paid_minor + ${amountMinor} <= total_minor - credited_minor`)
        .returningAll()
        .executeTakeFirst();
    },
    /** Takes a voided payment back off the paid amount and recomputes the status, in one statement. */
    async subtractPaid(companyId: string, id: string, amountMinor: number): Promise<void> {
      await db
        .updateTable('sales')
        .set({ paid_minor: sql<number>`paid_minor - ${amountMinor}` })
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .execute();
      await recomputeStatus(companyId, id);
    },
    /** Recomputes the status; as a write, it also holds the row until commit (a lock on PostgreSQL). */
    recomputeStatusOf: recomputeStatus,
    /** Marks an invoice cancelled unless it already is: false when another cancellation came first. */
    async markCancelled(companyId: string, id: string, at: string): Promise<boolean> {
      const row = await db
        .updateTable('sales')
        .set({ status: 'cancelled', cancelled_at: at })
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .where('kind', '=', 'invoice')
        .where('status', '<>', 'cancelled')
        .returning('id')
        .executeTakeFirst();
      return row !== undefined;
    },
    async addCredited(companyId: string, id: string, amountMinor: number): Promise<void> {
      await db
        .updateTable('sales')
        .set({ credited_minor: sql<number>`credited_minor + ${amountMinor}` })
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .execute();
      await recomputeStatus(companyId, id);
    },
    /** The cancellation and credit notes of an invoice, oldest first. */
    async listCorrections(companyId: string, saleId: string): Promise<SaleRow[]> {
      return db
        .selectFrom('sales')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('corrects_sale_id', '=', saleId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },
    /** Lines with the invoice line they credit (credit notes' lines only name one). */
    async listSaleLines(companyId: string, saleIds: readonly string[]): Promise<SaleLineRow[]> {
      if (saleIds.length === 0) return [];
      return db
        .selectFrom('sale_lines')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('document_id', 'in', saleIds)
        .orderBy('document_id')
        .orderBy('position')
        .execute();
    },
    async insertSaleLines(rows: SaleLineRow[]): Promise<void> {
      for (let i = 0; i < rows.length; i += 200)
        await db
          .insertInto('sale_lines')
          .values(rows.slice(i, i + 200))
          .execute();
    },
    async findPayment(companyId: string, saleId: string, paymentId: string): Promise<PaymentRow | undefined> {
      return db
        .selectFrom('sale_payments')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('sale_id', '=', saleId)
        .where('id', '=', paymentId)
        .executeTakeFirst();
    },
    /** Voids a payment unless it already is: false when another void came first. */
    async voidPayment(
      companyId: string,
      paymentId: string,
      change: { voided_at: string; voided_by: string | null; void_reason: string },
    ): Promise<boolean> {
      const row = await db
        .updateTable('sale_payments')
        .set(change)
        .where('company_id', '=', companyId)
        .where('id', '=', paymentId)
        .where('voided_at', 'is', null)
        .returning('id')
        .executeTakeFirst();
      return row !== undefined;
    },
    async insertPayment(row: PaymentRow): Promise<void> {
      await db.insertInto('sale_payments').values(row).execute();
    },
    /** Money given back with a correction (0027); the invoice's paid amount falls by it in the same transaction. */
    async insertRefund(row: RefundRow): Promise<void> {
      await db.insertInto('refunds').values(row).execute();
    },
    /** The refunds given with these corrections, or on these invoices (`by: 'invoice_id'`), oldest first. */
    async listRefunds(
      companyId: string,
      ids: readonly string[],
      by: 'sale_id' | 'invoice_id' = 'sale_id',
    ): Promise<RefundRow[]> {
      if (ids.length === 0) return [];
      return db
        .selectFrom('refunds')
        .selectAll()
        .where('company_id', '=', companyId)
        .where(by, 'in', ids)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
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
    /**
     * The products' KPD codes and the units' Rec 20 codes as the catalog has them now: a sale
     * copies them onto its lines when it is issued, and its e-invoice reads them there.
     */
    async catalogCodes(
      companyId: string,
      productIds: readonly string[],
      unitIds: readonly string[],
    ): Promise<{
      products: Array<{ id: string; classification_code: string | null }>;
      units: Array<{ id: string; name: string; unit_code: string | null }>;
    }> {
      const [products, units] = await Promise.all([
        productIds.length === 0
          ? []
          : db
              .selectFrom('products')
              .select(['id', 'classification_code'])
              .where('company_id', '=', companyId)
              .where('id', 'in', productIds)
              .execute(),
        unitIds.length === 0
          ? []
          : db
              .selectFrom('units')
              .select(['id', 'name', 'unit_code'])
              .where('company_id', '=', companyId)
              .where('id', 'in', unitIds)
              .execute(),
      ]);
      return { products, units };
    },
    /** The customer's electronic address and buyer reference, from the directory. */
    async eInvoiceBuyer(
      companyId: string,
      customerId: string,
    ): Promise<
      { endpoint_id: string | null; endpoint_scheme: string | null; buyer_reference: string | null } | undefined
    > {
      return db
        .selectFrom('customers')
        .select(['endpoint_id', 'endpoint_scheme', 'buyer_reference'])
        .where('company_id', '=', companyId)
        .where('id', '=', customerId)
        .executeTakeFirst();
    },
  };
}
export type SalesRepository = ReturnType<typeof createSalesRepository>;
