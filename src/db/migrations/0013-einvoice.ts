import type { Kysely } from 'kysely';
import type { Engine } from '../database.ts';

/**
 * What an EN 16931 e-invoice needs beyond the print (README "E-invoices"): a product's
 * classification (KPD 2025 in Croatia, HR-BR-25), a unit's UN/ECE Recommendation 20 code (null:
 * derived from the unit's name), a customer's electronic address and buyer reference (BT-49,
 * BT-10: the Leitweg-ID of a German public buyer), and the seller contact XRechnung asks for
 * (BG-6, BR-DE-2/5/6/7). All nullable: existing rows stay valid, and the e-invoice says which
 * one is missing.
 */
export async function up(db: Kysely<any>, _engine: Engine): Promise<void> {
  await db.schema.alterTable('products').addColumn('classification_code', 'text').execute();
  await db.schema.alterTable('units').addColumn('unit_code', 'text').execute();
  for (const column of ['endpoint_id', 'endpoint_scheme', 'buyer_reference'])
    await db.schema.alterTable('customers').addColumn(column, 'text').execute();
  for (const column of ['contact_name', 'contact_phone', 'contact_email'])
    await db.schema.alterTable('companies').addColumn(column, 'text').execute();
}
