import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { SaleTotalsRow } from './sale-totals.ts';

const KEY = [
  'company_id',
  'mode',
  'grain',
  'day',
  'location_id',
  'operator_id',
  'kind',
  'tax_rate_bp',
  'exemption',
] as const;

/** The running totals' writes: what issuing adds, and what deleting test data takes away. */
export function createSaleTotalsRepository(db: Executor) {
  return {
    /**
     * Adds a document's rows to its day's and month's totals in one statement. On PostgreSQL a concurrent
     * issuer adding to the same row waits for this transaction's row lock and then adds to the
     * committed sum (ON CONFLICT re-reads it), so no addition is lost; SQLite has one writer.
     */
    async add(rows: readonly SaleTotalsRow[]): Promise<void> {
      if (rows.length === 0) return;
      await db
        .insertInto('sale_totals')
        .values([...rows])
        .onConflict((oc) =>
          oc.columns([...KEY]).doUpdateSet({
            documents: sql`sale_totals.documents + excluded.documents`,
            net_minor: sql`sale_totals.net_minor + excluded.net_minor`,
            tax_minor: sql`sale_totals.tax_minor + excluded.tax_minor`,
            total_minor: sql`sale_totals.total_minor + excluded.total_minor`,
            operator_name: sql`coalesce(excluded.operator_name, sale_totals.operator_name)`,
          }),
        )
        .execute();
    },
    /** The test documents' totals, deleted with the test documents (within their unit of work). */
    async deleteTest(companyId: string): Promise<void> {
      await db.deleteFrom('sale_totals').where('company_id', '=', companyId).where('mode', '=', 'test').execute();
    },
  };
}
export type SaleTotalsRepository = ReturnType<typeof createSaleTotalsRepository>;
