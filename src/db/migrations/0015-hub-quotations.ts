import type { Kysely } from 'kysely';
import type { Engine } from '../database.ts';
import { columnTypes } from './column-types.ts';

/**
 * Quotations made and revised in the hub, and counter sales (issue 22).
 *
 * - Every document line may carry a discount in basis points of a percent (10.5 % = 1050); the
 *   line's amounts are stored after it, so totals stay the sums of the stored lines. Sales copy
 *   their lines from quotations and orders, so all three line tables gain it.
 * - A quotation records the hub user who made it, and its revision (1 for a new one). A revision
 *   keeps the quotation's id and replaces its lines; the revision before it is kept whole in
 *   `quotation_revisions` (the row and its lines as JSON: read back, printed, never changed).
 * - A counter sale records the cash the customer handed over, so the receipt prints the change.
 */
export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  const t = columnTypes(engine);
  for (const table of ['quotation_lines', 'order_lines', 'sale_lines'])
    await db.schema
      .alterTable(table)
      .addColumn('discount_bp', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  await db.schema.alterTable('quotations').addColumn('created_by', 'text').execute();
  await db.schema
    .alterTable('quotations')
    .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable('quotations').addColumn('revised_at', t.timestamp).execute();
  await db.schema
    .createTable('quotation_revisions')
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('quotation_id', 'text', (c) => c.notNull().references('quotations.id'))
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('number', 'text', (c) => c.notNull())
    .addColumn('total_minor', 'bigint', (c) => c.notNull())
    /** When this revision was made (the quotation's creation for revision 1). */
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    /** The quotation row and its lines as they were, JSON. */
    .addColumn('snapshot', 'text', (c) => c.notNull())
    /** When and by whom it was replaced by the next revision. */
    .addColumn('replaced_at', t.timestamp, (c) => c.notNull())
    .addColumn('replaced_by', 'text')
    .addPrimaryKeyConstraint('quotation_revisions_pkey', ['company_id', 'quotation_id', 'revision'])
    .execute();
  await db.schema.alterTable('sales').addColumn('tendered_minor', 'bigint').execute();
}
