import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.ts';
import { columnTypes } from './column-types.ts';

/**
 * Croatian fiscalisation: each company's FINA certificate (key and certificate sealed with the
 * secrets key, like webhook secrets), and the fiscal outbox: one row per issued document,
 * written in the issuing transaction, so a receipt handed out is never without the request
 * that will fiscalise it. The worker's question "what is due" reads only the pending rows.
 */
export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  const t = columnTypes(engine);
  await db.schema
    .createTable('fiscal_certificates')
    .addColumn('company_id', 'text', (c) => c.primaryKey().references('companies.id'))
    .addColumn('sealed', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('oib', 'text', (c) => c.notNull())
    .addColumn('not_before', t.timestamp, (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('uploaded_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('fiscal_requests')
    .addColumn('document_id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('facts', 'text', (c) => c.notNull())
    .addColumn('zki', 'text', (c) => c.notNull())
    .addColumn('qr_time', 'text', (c) => c.notNull())
    .addColumn('total_minor', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', t.timestamp, (c) => c.notNull())
    .addColumn('locked_until', t.timestamp)
    .addColumn('jir', 'text')
    .addColumn('error_code', 'text')
    .addColumn('error_message', 'text')
    .addColumn('last_error', 'text')
    .addColumn('issued_at', t.timestamp, (c) => c.notNull())
    .addColumn('fiscalised_at', t.timestamp)
    .addColumn('overdue_notified_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('fiscal_requests_due_idx')
    .on('fiscal_requests')
    .columns(['next_attempt_at'])
    .where(sql.ref('status'), '=', 'pending')
    .execute();
  await db.schema
    .createIndex('fiscal_requests_company_open_idx')
    .on('fiscal_requests')
    .columns(['company_id', 'issued_at'])
    .where(sql.ref('status'), '!=', 'fiscalised')
    .execute();
}
