import type { Kysely } from 'kysely';
import type { Engine } from '../database.ts';
import { columnTypes } from './column-types.ts';

// Quotations, web orders and the per-location counters that number them.
export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  const t = columnTypes(engine);

  await db.schema
    .createTable('number_sequences')
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('location_id', 'text', (c) => c.notNull().references('locations.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('last_value', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('number_sequences_pkey', ['location_id', 'kind', 'year'])
    .execute();

  await db.schema
    .createTable('quotations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('location_id', 'text', (c) => c.notNull().references('locations.id'))
    .addColumn('api_key_id', 'text')
    .addColumn('number', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('customer_name', 'text', (c) => c.notNull())
    .addColumn('customer_email', 'text')
    .addColumn('customer_phone', 'text')
    .addColumn('directory_customer_id', 'text')
    .addColumn('note', 'text')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('prices_include_tax', t.bool, (c) => c.notNull())
    .addColumn('include_datasheets', t.bool, (c) => c.notNull())
    .addColumn('net_minor', 'bigint', (c) => c.notNull())
    .addColumn('tax_minor', 'bigint', (c) => c.notNull())
    .addColumn('total_minor', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('quotations_company_number_key', ['company_id', 'number'])
    .execute();
  await db.schema
    .createIndex('quotations_company_created_idx')
    .on('quotations')
    .columns(['company_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('orders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('location_id', 'text', (c) => c.notNull().references('locations.id'))
    .addColumn('api_key_id', 'text')
    .addColumn('number', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('customer_name', 'text', (c) => c.notNull())
    .addColumn('customer_email', 'text', (c) => c.notNull())
    .addColumn('customer_phone', 'text', (c) => c.notNull())
    .addColumn('customer_address', 'text')
    .addColumn('note', 'text')
    .addColumn('external_reference', 'text')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('prices_include_tax', t.bool, (c) => c.notNull())
    .addColumn('net_minor', 'bigint', (c) => c.notNull())
    .addColumn('tax_minor', 'bigint', (c) => c.notNull())
    .addColumn('total_minor', 'bigint', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('orders_company_number_key', ['company_id', 'number'])
    .execute();
  await db.schema
    .createIndex('orders_company_created_idx')
    .on('orders')
    .columns(['company_id', 'created_at', 'id'])
    .execute();

  for (const [table, parent] of [
    ['quotation_lines', 'quotations'],
    ['order_lines', 'orders'],
  ] as const) {
    await db.schema
      .createTable(table)
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
      .addColumn('document_id', 'text', (c) => c.notNull().references(`${parent}.id`))
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
    await db.schema.createIndex(`${table}_document_idx`).on(table).columns(['document_id', 'position']).execute();
  }
}
