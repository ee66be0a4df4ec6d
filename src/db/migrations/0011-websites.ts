import type { Kysely } from 'kysely';
import type { Engine } from '../database.ts';
import { columnTypes } from './column-types.ts';

/**
 * Websites that call the API from the browser, and a test mode (issue 24).
 *
 * API keys gain a kind (`secret` for servers, `publishable` for web pages) and a mode (`live`,
 * `test`); a publishable key's allowed origins are also rows of their own, so a CORS preflight
 * (which carries no key) asks one indexed question: does any live publishable key allow this
 * origin? Every record an API key can create carries the mode it was made in, so live and test
 * never see each other, and test data can be deleted together.
 */
export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  const t = columnTypes(engine);
  await db.schema
    .alterTable('api_keys')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('secret'))
    .execute();
  await db.schema
    .alterTable('api_keys')
    .addColumn('mode', 'text', (c) => c.notNull().defaultTo('live'))
    .execute();
  await db.schema
    .alterTable('api_keys')
    .addColumn('allowed_origins', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema
    .createTable('api_key_origins')
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('api_key_id', 'text', (c) => c.notNull().references('api_keys.id'))
    .addPrimaryKeyConstraint('api_key_origins_pkey', ['origin', 'api_key_id'])
    .execute();

  // Why an inquiry was held back as spam (a failed proof of work); null for every other one.
  await db.schema.alterTable('inquiries').addColumn('spam_reason', 'text').execute();

  for (const table of ['inquiries', 'quotations', 'orders', 'webhook_events'])
    await db.schema
      .alterTable(table)
      .addColumn('mode', 'text', (c) => c.notNull().defaultTo('live'))
      .execute();

  // An inquiry's product photo as the server fetched it once (staff see it from Portico, not
  // from the sender's server), or why it could not be fetched.
  await db.schema
    .createTable('inquiry_photos')
    .addColumn('inquiry_id', 'text', (c) => c.primaryKey().references('inquiries.id'))
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('content_type', 'text')
    .addColumn('bytes', engine === 'postgres' ? 'bytea' : 'blob')
    .addColumn('failure', 'text')
    .addColumn('fetched_at', t.timestamp, (c) => c.notNull())
    .execute();
}
