import type { Kysely } from 'kysely';
import type { Engine } from '../database.ts';

/**
 * Croatian fiscal details (issue 32): the ZKI's signature hash as a company setting (SHA-1, the
 * specification's, unless changed), the operator's label a receipt prints in place of the
 * personal OIB (Zakon o fiskalizaciji čl. 8), and the location a hub user last sold or quoted
 * at, so the counter and new quotations open there again.
 */
export async function up(db: Kysely<any>, _engine: Engine): Promise<void> {
  await db.schema
    .alterTable('companies')
    .addColumn('fiscal_zki_hash', 'text', (c) => c.notNull().defaultTo('sha1'))
    .execute();
  await db.schema.alterTable('users').addColumn('operator_label', 'text').execute();
  await db.schema.alterTable('users').addColumn('hub_location_id', 'text').execute();
}
