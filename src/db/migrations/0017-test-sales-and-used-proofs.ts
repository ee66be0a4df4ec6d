import type { Kysely } from 'kysely';
import type { Engine } from '../database.ts';
import { columnTypes } from './column-types.ts';

/**
 * Test mode reaches sales, and a proof of work is spent once across processes (issue 24).
 *
 * A test quotation or web order converts into a test sale: the sale carries the mode of its
 * source, so lists, numbering and the "delete test data" action tell the two apart as they do
 * for the documents it came from. Corrections and payments belong to their sale and follow it.
 *
 * A solved ALTCHA challenge is remembered in the database until it expires, so a replay to
 * another instance, or after a restart, is refused as it is by the process that first saw it.
 */
export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  const t = columnTypes(engine);
  await db.schema
    .alterTable('sales')
    .addColumn('mode', 'text', (c) => c.notNull().defaultTo('live'))
    .execute();
  await db.schema
    .createTable('used_proofs')
    .addColumn('signature', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .execute();
  // Pruning deletes the expired ones: a range on this index.
  await db.schema.createIndex('used_proofs_expires_idx').on('used_proofs').column('expires_at').execute();
}
