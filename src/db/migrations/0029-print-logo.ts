import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.ts';
import { columnTypes } from './column-types.ts';

/**
 * The logo of the print template (issue 34): each uploaded image kept once by its SHA-256 and never
 * changed, the company naming the one in use. A document's snapshot of issue carries the company
 * as it was, logo hash included, so an issued document prints the logo it was issued with even
 * after the shop changes or removes it.
 */
export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  const t = columnTypes(engine);
  await db.schema.alterTable('companies').addColumn('logo_sha256', 'text').execute();
  await db.schema
    .createTable('company_logos')
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('bytes', engine === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('company_logos_pkey', ['company_id', 'sha256'])
    .execute();
  if (engine === 'sqlite') {
    await sql
      .raw(`CREATE TRIGGER company_logos_frozen BEFORE UPDATE ON company_logos FOR EACH ROW
            BEGIN SELECT RAISE(ABORT, 'company logo: it cannot change'); END`)
      .execute(db);
    return;
  }
  await sql
    .raw(`CREATE TRIGGER company_logos_frozen BEFORE UPDATE ON company_logos FOR EACH ROW
          EXECUTE FUNCTION refuse_issued_change()`)
    .execute(db);
}
