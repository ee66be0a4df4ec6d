import { sql, type Kysely } from 'kysely';
import { searchKey } from '../../lib/search-key.ts';
import type { Engine } from '../database.ts';
import { columnTypes } from './column-types.ts';

// Sales (converted quotations and web orders), their lines and payments; the states and links
// quotations and orders gain; the indexes of the hub's lists. Every index starts with the tenant.
export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  const t = columnTypes(engine);

  for (const table of ['quotations', 'orders'] as const) {
    await db.schema.alterTable(table).addColumn('sale_id', 'text').execute();
    await db.schema.alterTable(table).addColumn('cancelled_at', t.timestamp).execute();
    await db.schema.alterTable(table).addColumn('cancellation_reason', 'text').execute();
    await db.schema
      .alterTable(table)
      .addColumn('customer_name_key', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema
      .createIndex(`${table}_company_status_created_idx`)
      .on(table)
      .columns(['company_id', 'status', 'created_at', 'id'])
      .execute();
    await db.schema
      .createIndex(`${table}_company_location_created_idx`)
      .on(table)
      .columns(['company_id', 'location_id', 'created_at', 'id'])
      .execute();
    // Prefix searches (`q`): PostgreSQL uses an index for LIKE 'prefix%' only with pattern ops
    // (or the C collation); SQLite compares the ASCII keys by range on a plain index.
    const ops = engine === 'postgres' ? sql` text_pattern_ops` : sql``;
    await sql`create index ${sql.id(`${table}_company_name_key_idx`)} on ${sql.id(table)} (company_id, customer_name_key${ops})`.execute(
      db,
    );
    // SQLite's unique (company_id, number) serves the number prefix already.
    if (engine === 'postgres')
      await sql`create index ${sql.id(`${table}_company_number_prefix_idx`)} on ${sql.id(table)} (company_id, number${ops})`.execute(
        db,
      );
    // Rows written before this migration: their names folded once here.
    const rows = await db.selectFrom(table).select(['id', 'customer_name']).execute();
    for (const row of rows)
      await db
        .updateTable(table)
        .set({ customer_name_key: searchKey(row.customer_name as string) })
        .where('id', '=', row.id)
        .execute();
  }
  await db.schema.alterTable('orders').addColumn('accepted_at', t.timestamp).execute();

  await db.schema
    .createTable('sales')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('location_id', 'text', (c) => c.notNull().references('locations.id'))
    .addColumn('number', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('source_type', 'text', (c) => c.notNull())
    .addColumn('source_id', 'text', (c) => c.notNull())
    .addColumn('source_number', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'text', (c) => c.notNull())
    .addColumn('customer_kind', 'text', (c) => c.notNull())
    .addColumn('customer_name', 'text', (c) => c.notNull())
    .addColumn('customer_tax_id', 'text')
    .addColumn('customer_email', 'text')
    .addColumn('customer_phone', 'text')
    .addColumn('customer_address', 'text')
    .addColumn('note', 'text')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('prices_include_tax', t.bool, (c) => c.notNull())
    .addColumn('repriced', t.bool, (c) => c.notNull())
    .addColumn('net_minor', 'bigint', (c) => c.notNull())
    .addColumn('tax_minor', 'bigint', (c) => c.notNull())
    .addColumn('total_minor', 'bigint', (c) => c.notNull())
    .addColumn('paid_minor', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('sales_company_number_key', ['company_id', 'number'])
    // A document converts once: the database refuses a second sale even if a check were missed.
    .addUniqueConstraint('sales_company_source_key', ['company_id', 'source_type', 'source_id'])
    .execute();
  await db.schema
    .createIndex('sales_company_created_idx')
    .on('sales')
    .columns(['company_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('sales_company_status_created_idx')
    .on('sales')
    .columns(['company_id', 'status', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('sales_company_location_created_idx')
    .on('sales')
    .columns(['company_id', 'location_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('sales_company_customer_created_idx')
    .on('sales')
    .columns(['company_id', 'customer_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('sale_lines')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('document_id', 'text', (c) => c.notNull().references('sales.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('product_id', 'text', (c) => c.notNull())
    .addColumn('unit_id', 'text', (c) => c.notNull())
    .addColumn('product_name', 'text', (c) => c.notNull())
    .addColumn('product_code', 'text')
    .addColumn('unit_name', 'text', (c) => c.notNull())
    .addColumn('quantity_milli', 'bigint', (c) => c.notNull())
    .addColumn('unit_price_minor', 'bigint', (c) => c.notNull())
    .addColumn('tax_rate_bp', 'integer', (c) => c.notNull())
    .addColumn('net_minor', 'bigint', (c) => c.notNull())
    .addColumn('tax_minor', 'bigint', (c) => c.notNull())
    .addColumn('total_minor', 'bigint', (c) => c.notNull())
    .addColumn('note', 'text')
    .execute();
  await db.schema
    .createIndex('sale_lines_document_idx')
    .on('sale_lines')
    .columns(['document_id', 'position'])
    .execute();

  await db.schema
    .createTable('sale_payments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('sale_id', 'text', (c) => c.notNull().references('sales.id'))
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('amount_minor', 'bigint', (c) => c.notNull())
    .addColumn('recorded_by', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sale_payments_sale_idx')
    .on('sale_payments')
    .columns(['company_id', 'sale_id', 'created_at'])
    .execute();
}
