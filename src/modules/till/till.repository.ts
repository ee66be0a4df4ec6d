import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { DrawerDaysTable, DrawerMovementsTable } from '../../db/schema.ts';

export type DrawerDayRow = DrawerDaysTable;
export type DrawerMovementRow = DrawerMovementsTable;

/** The money and documents of one location in a window of time: what a day report sums. */
export interface DayFlows {
  payments: Array<{ method: string; amount: number; count: number }>;
  refunds: Array<{ method: string; amount: number; count: number }>;
  byRate: Array<{ rateBp: number; net: number; tax: number; total: number }>;
  byKind: Array<{ kind: string; count: number; total: number }>;
  documents: { first: string | null; last: string | null; count: number };
}

const n = (v: unknown): number => Number(v ?? 0);

/**
 * The drawers' days and movements, and the reads a day report makes of payments, refunds and
 * issued documents (live data only) of one location between the day's opening and closing.
 */
export function createTillRepository(db: Executor) {
  return {
    async insertDay(row: DrawerDayRow): Promise<void> {
      await db.insertInto('drawer_days').values(row).execute();
    },
    async openDay(companyId: string, locationId: string): Promise<DrawerDayRow | undefined> {
      return db
        .selectFrom('drawer_days')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('location_id', '=', locationId)
        .where('closed_at', 'is', null)
        .executeTakeFirst();
    },
    async findDay(companyId: string, locationId: string, date: string): Promise<DrawerDayRow | undefined> {
      return db
        .selectFrom('drawer_days')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('location_id', '=', locationId)
        .where('date', '=', date)
        .executeTakeFirst();
    },
    /** Closed days whose date falls in [from, to] (YYYY-MM-DD), every location or one, by date then location. */
    async closedDays(companyId: string, from: string, to: string, locationId?: string): Promise<DrawerDayRow[]> {
      return db
        .selectFrom('drawer_days')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('date', '>=', from)
        .where('date', '<=', to)
        .where('closed_at', 'is not', null)
        .$if(locationId !== undefined, (q) => q.where('location_id', '=', locationId!))
        .orderBy('date')
        .orderBy('location_id')
        .execute();
    },
    /** Every open day of the company: the admins' view of the drawers. */
    async openDays(companyId: string): Promise<DrawerDayRow[]> {
      return db
        .selectFrom('drawer_days')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('closed_at', 'is', null)
        .orderBy('location_id')
        .execute();
    },
    /** Closes the open day once: false when it was closed meanwhile (the row guard keeps a closed one as is). */
    async closeDay(
      companyId: string,
      id: string,
      close: Pick<
        DrawerDayRow,
        'closed_at' | 'closed_by' | 'counted_minor' | 'expected_minor' | 'difference_minor' | 'denominations' | 'report'
      >,
    ): Promise<boolean> {
      const row = await db
        .updateTable('drawer_days')
        .set(close)
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .where('closed_at', 'is', null)
        .returning('id')
        .executeTakeFirst();
      return row !== undefined;
    },
    /** Locks the open day until commit (a write), so a movement and a closing do not cross. */
    async lockDay(companyId: string, id: string): Promise<void> {
      await db
        .updateTable('drawer_days')
        .set({ opened_at: sql`opened_at` })
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .where('closed_at', 'is', null)
        .execute();
    },
    async insertMovement(row: DrawerMovementRow): Promise<void> {
      await db.insertInto('drawer_movements').values(row).execute();
    },
    async listMovements(companyId: string, dayId: string): Promise<DrawerMovementRow[]> {
      return db
        .selectFrom('drawer_movements')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('day_id', '=', dayId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },

    /** What happened at the location in [from, to): payments not voided, refunds, documents issued. */
    async flows(companyId: string, locationId: string, from: string, to: string): Promise<DayFlows> {
      const [payments, refunds, byRate, byKind, docs] = await Promise.all([
        db
          .selectFrom('sale_payments as p')
          .innerJoin('sales as s', (j) => j.onRef('s.id', '=', 'p.sale_id').onRef('s.company_id', '=', 'p.company_id'))
          .select(['p.method', sql<number>`sum(p.amount_minor)`.as('amount'), sql<number>`count(*)`.as('count')])
          .where('p.company_id', '=', companyId)
          .where('s.location_id', '=', locationId)
          .where('s.mode', '=', 'live')
          .where('p.created_at', '>=', from)
          .where('p.created_at', '<', to)
          .where('p.voided_at', 'is', null)
          .groupBy('p.method')
          .execute(),
        db
          .selectFrom('refunds')
          .select(['method', sql<number>`sum(amount_minor)`.as('amount'), sql<number>`count(*)`.as('count')])
          .where('company_id', '=', companyId)
          .where('location_id', '=', locationId)
          .where('mode', '=', 'live')
          .where('created_at', '>=', from)
          .where('created_at', '<', to)
          .groupBy('method')
          .execute(),
        db
          .selectFrom('sale_lines as l')
          .innerJoin('sales as s', (j) =>
            j.onRef('s.id', '=', 'l.document_id').onRef('s.company_id', '=', 'l.company_id'),
          )
          .select([
            'l.tax_rate_bp',
            sql<number>`sum(l.net_minor)`.as('net'),
            sql<number>`sum(l.tax_minor)`.as('tax'),
            sql<number>`sum(l.total_minor)`.as('total'),
          ])
          .where('l.company_id', '=', companyId)
          .where('s.location_id', '=', locationId)
          .where('s.mode', '=', 'live')
          .where('s.invoice_number', 'is not', null)
          .where('s.issued_at', '>=', from)
          .where('s.issued_at', '<', to)
          .groupBy('l.tax_rate_bp')
          .orderBy('l.tax_rate_bp', 'desc')
          .execute(),
        db
          .selectFrom('sales')
          .select(['kind', sql<number>`count(*)`.as('count'), sql<number>`sum(total_minor)`.as('total')])
          .where('company_id', '=', companyId)
          .where('location_id', '=', locationId)
          .where('mode', '=', 'live')
          .where('invoice_number', 'is not', null)
          .where('issued_at', '>=', from)
          .where('issued_at', '<', to)
          .groupBy('kind')
          .execute(),
        db
          .selectFrom('sales')
          .select(['invoice_number', 'invoice_year', 'invoice_seq'])
          .where('company_id', '=', companyId)
          .where('location_id', '=', locationId)
          .where('mode', '=', 'live')
          .where('invoice_number', 'is not', null)
          .where('issued_at', '>=', from)
          .where('issued_at', '<', to)
          .orderBy('invoice_year')
          .orderBy('invoice_seq')
          .execute(),
      ]);
      return {
        payments: payments.map((r) => ({ method: r.method, amount: n(r.amount), count: n(r.count) })),
        refunds: refunds.map((r) => ({ method: r.method, amount: n(r.amount), count: n(r.count) })),
        byRate: byRate.map((r) => ({ rateBp: n(r.tax_rate_bp), net: n(r.net), tax: n(r.tax), total: n(r.total) })),
        byKind: byKind.map((r) => ({ kind: r.kind, count: n(r.count), total: n(r.total) })),
        documents: {
          first: docs[0]?.invoice_number ?? null,
          last: docs.at(-1)?.invoice_number ?? null,
          count: docs.length,
        },
      };
    },
  };
}
export type TillRepository = ReturnType<typeof createTillRepository>;
