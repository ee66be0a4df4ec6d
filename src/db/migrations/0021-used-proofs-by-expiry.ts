import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.ts';
import { columnTypes } from './column-types.ts';

/**
 * Spent proofs of work keyed by (the challenge's expiry, its signature) instead of the
 * signature alone.
 *
 * A signature is a random hash, so an index on it alone takes each spend into a different leaf
 * page: a burst of web-form inquiries dirtied one index page per proof, in the commit every
 * inquiry waits for, and the contact form from a web page ran at half the rate of the same form
 * from a server (bench/README.md "Spent proofs in the database"). Led by the expiry that the
 * challenge carries (signed, so the same for every replay of one solution), spends arrive in
 * about the order the challenges were made and land at the right edge of one B-tree; pruning
 * deletes from its left edge. On SQLite the table is that B-tree (WITHOUT ROWID): no second one.
 *
 * Rows spent before this migration were kept until the spend's time plus the challenge lifetime,
 * not the challenge's own expiry; they are copied as they are and still expire, but a replay of
 * one of them (a solution spent in the ten minutes before the upgrade) is no longer matched.
 * A proof of work guards against floods, not one message, so that window is accepted.
 */
export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  const t = columnTypes(engine);
  await db.schema
    .createTable('used_proofs_by_expiry')
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('signature', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('used_proofs_by_expiry_pkey', ['expires_at', 'signature'])
    .$call((b) => (engine === 'sqlite' ? b.modifyEnd(sql`without rowid`) : b))
    .execute();
  await db
    .insertInto('used_proofs_by_expiry')
    .columns(['expires_at', 'signature'])
    .expression(db.selectFrom('used_proofs').select(['expires_at', 'signature']))
    .execute();
  await db.schema.dropTable('used_proofs').execute();
  await db.schema.alterTable('used_proofs_by_expiry').renameTo('used_proofs').execute();
}
