import { sql, type ColumnDataType, type Kysely } from 'kysely';
import type { Engine } from '../database.ts';
import { columnTypes } from './column-types.ts';

/**
 * A sale becomes an invoice a shop may hand over: its legal number and the facts the law asks
 * for (issue time, delivery and due dates, payment method, operator), the kind of document
 * (invoice, cancellation, credit note) and the invoice a correction corrects; payments are
 * voided, never deleted; the settings the legal number and the print need (per company, per
 * location, per user) and the reason a 0 % rate is exempt.
 */
export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  const t = columnTypes(engine);
  const add = async (table: string, column: string, type: ColumnDataType) => {
    await db.schema.alterTable(table).addColumn(column, type).execute();
  };

  await db.schema
    .alterTable('companies')
    .addColumn('fiscal_enabled', t.bool, (c) => c.notNull().defaultTo(t.falseValue))
    .execute();
  await db.schema
    .alterTable('companies')
    .addColumn('vat_registered', t.bool, (c) => c.notNull().defaultTo(t.trueValue))
    .execute();
  await db.schema
    .alterTable('companies')
    .addColumn('fiscal_sequence_mode', 'text', (c) => c.notNull().defaultTo('premises'))
    .execute();
  await add('locations', 'fiscal_premises', 'text');
  await add('locations', 'fiscal_device', 'text');
  await add('users', 'operator_oib', 'text');
  await add('tax_rates', 'exemption_reason', 'text');

  await db.schema
    .alterTable('sales')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('invoice'))
    .execute();
  for (const column of [
    'invoice_number',
    'fiscal_premises',
    'fiscal_device',
    'delivery_date',
    'due_date',
    'payment_method',
    'operator_name',
    'operator_oib',
    'corrects_sale_id',
    'correction_reason',
    'exemption_reason',
  ])
    await add('sales', column, 'text');
  await add('sales', 'invoice_seq', 'integer');
  await add('sales', 'invoice_year', 'integer');
  await add('sales', 'issued_at', t.timestamp);
  await add('sales', 'cancelled_at', t.timestamp);
  await db.schema
    .alterTable('sales')
    .addColumn('credited_minor', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  // Sales written before invoices existed were issued when they were made.
  await db
    .updateTable('sales')
    .set({ issued_at: sql.ref('created_at') })
    .execute();
  // A legal number is used once per year (series restart each January); NULLs are distinct in
  // both engines, so legacy sales without a legal number do not collide.
  await db.schema
    .createIndex('sales_company_invoice_number_key')
    .on('sales')
    .columns(['company_id', 'invoice_year', 'invoice_number'])
    .unique()
    .execute();
  await db.schema
    .createIndex('sales_company_corrects_idx')
    .on('sales')
    .columns(['company_id', 'corrects_sale_id'])
    .execute();
  // One cancellation per invoice, whatever races: the database refuses a second.
  await db.schema
    .createIndex('sales_one_cancellation_key')
    .on('sales')
    .columns(['company_id', 'corrects_sale_id'])
    .unique()
    .where(sql.ref('kind'), '=', 'cancellation')
    .execute();

  await add('sale_lines', 'corrects_line_id', 'text');

  await add('sale_payments', 'voided_at', t.timestamp);
  await add('sale_payments', 'voided_by', 'text');
  await add('sale_payments', 'void_reason', 'text');
}
