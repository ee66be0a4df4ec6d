import type { Kysely } from 'kysely';
import type { Engine } from '../database.ts';

/**
 * A customer's language, and a product's barcode (issue 22's follow-up).
 *
 * `customers.language` is `hr`, `de` or `en`; null means the company's language, so every
 * customer made before keeps getting what they got.
 *
 * `products.barcode` is a GTIN (EAN-8, UPC-A, EAN-13, GTIN-14) as its digits. Within a company
 * one barcode names one product: a partial unique index over the rows that have one. Both
 * engines take the WHERE of a partial index (and both treat NULLs as distinct anyway); the
 * predicate keeps the many products without a barcode out of the index altogether.
 */
export async function up(db: Kysely<any>, _engine: Engine): Promise<void> {
  await db.schema.alterTable('customers').addColumn('language', 'text').execute();
  await db.schema.alterTable('products').addColumn('barcode', 'text').execute();
  await db.schema
    .createIndex('products_company_barcode_key')
    .on('products')
    .columns(['company_id', 'barcode'])
    .unique()
    .where('barcode', 'is not', null)
    .execute();
}
