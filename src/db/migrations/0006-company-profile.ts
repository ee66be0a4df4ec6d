import type { Kysely } from 'kysely';
import type { Engine } from '../database.ts';

/**
 * The company profile a print and a payment code need: a postal address in parts (HUB-3 prints
 * street and place on separate fields), the country, and the bank account. The free-text
 * address so far becomes the street line, where it reads as before.
 */
export async function up(db: Kysely<any>, _engine: Engine): Promise<void> {
  await db.schema.alterTable('companies').addColumn('address_street', 'text').execute();
  await db.schema.alterTable('companies').addColumn('address_postal_code', 'text').execute();
  await db.schema.alterTable('companies').addColumn('address_city', 'text').execute();
  await db.schema.alterTable('companies').addColumn('country', 'text').execute();
  await db.schema.alterTable('companies').addColumn('bank_iban', 'text').execute();
  await db.schema.alterTable('companies').addColumn('bank_bic', 'text').execute();
  await db.schema.alterTable('companies').addColumn('bank_holder', 'text').execute();
  await db
    .updateTable('companies')
    .set((eb) => ({ address_street: eb.ref('address') }))
    .execute();
  await db.schema.alterTable('companies').dropColumn('address').execute();
}
