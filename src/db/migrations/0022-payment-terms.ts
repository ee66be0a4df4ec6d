import type { Kysely } from 'kysely';

/**
 * Payment terms (issue 32 item 4): the days a bank transfer is given, per company (its default,
 * null: 15 days as before) and per customer (null: the company's). An invoice's due date (BT-9)
 * is fixed from them when it is issued.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('companies').addColumn('payment_terms_days', 'integer').execute();
  await db.schema.alterTable('customers').addColumn('payment_terms_days', 'integer').execute();
}
