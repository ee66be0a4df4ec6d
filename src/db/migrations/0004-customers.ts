import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.ts';
import { columnTypes } from './column-types.ts';

/**
 * The customer directory, and the directory customer a web order is assigned (quotations have
 * had the column since 0002). Search runs on the *_key columns, written by the service in a
 * normalised form, each behind an index that starts with the tenant so one company's lookups
 * stay a short range scan however many customers the other companies hold. Keys compare by
 * code point (PostgreSQL's "C" collation, SQLite's default BINARY) so a prefix is a plain range
 * [prefix, next prefix) on both engines.
 */
export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  const t = columnTypes(engine);
  const key = engine === 'postgres' ? sql`text collate "C"` : sql`text`;

  await db.schema
    .createTable('customers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', key, (c) => c.notNull())
    .addColumn('tax_id', 'text')
    .addColumn('tax_id_key', key)
    .addColumn('email', 'text')
    .addColumn('email_key', key)
    .addColumn('phone', 'text')
    .addColumn('phone_key', key)
    .addColumn('address_street', 'text')
    .addColumn('address_postal_code', 'text')
    .addColumn('address_city', 'text')
    .addColumn('address_country', 'text')
    .addColumn('note', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  // NULLs are distinct in a unique index on both engines: customers without a tax id never clash.
  await db.schema
    .createIndex('customers_company_tax_id_key')
    .on('customers')
    .columns(['company_id', 'tax_id_key'])
    .unique()
    .execute();
  for (const column of ['name_key', 'email_key', 'phone_key']) {
    await db.schema
      .createIndex(`customers_company_${column}_idx`)
      .on('customers')
      .columns(['company_id', column, 'id'])
      .execute();
  }

  await db.schema.alterTable('orders').addColumn('directory_customer_id', 'text').execute();
}
