import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.ts';
import { columnTypes } from './column-types.ts';

/**
 * When an inquiry went out in a staff digest (0024's e-mail digests); null until then. A digest
 * used to take the inquiries created in a time span ending two seconds before it ran, but an
 * inquiry takes its time before its group commit, and under load a commit can come later than
 * that: the inquiry then fell behind the span and was never e-mailed. A digest now takes every
 * committed inquiry not yet digested and marks it, in one statement.
 */
export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  const t = columnTypes(engine);
  await db.schema.alterTable('inquiries').addColumn('digested_at', t.timestamp).execute();
  // What the span-taking digests already covered (up to their company's covered_until), and every
  // inquiry of a company that never had a digest (e-mailed one by one before 0024, or never),
  // counts as digested: a digest now looks back an hour, and must not send those again.
  await sql`
    update inquiries set digested_at = created_at
    where not exists (
      select 1 from inquiry_digests d
      where d.company_id = inquiries.company_id and d.covered_until < inquiries.created_at
    )`.execute(db);
}
