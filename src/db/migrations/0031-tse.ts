import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.ts';
import { columnTypes } from './column-types.ts';

/**
 * Germany's technical security device (KassenSichV, issue 35): a company's cloud TSE account
 * (fiskaly SIGN DE: API key, its secret sealed like the CIS certificate), each device's TSS and
 * client (one per location: the Kasse), and one row per TSE transaction (a sale, a storno, an
 * aborted basket), written in the unit of work that issues the document it signs. A row whose
 * TSE could not be reached is `failed` ("TSE ausgefallen") and waits in the same table, the
 * outbox the worker retries the cancellation of the unfinished transaction from.
 */
export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  const t = columnTypes(engine);
  await db.schema
    .createTable('tse_accounts')
    .addColumn('company_id', 'text', (c) => c.primaryKey().references('companies.id'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('api_key', 'text', (c) => c.notNull())
    .addColumn('sealed_secret', 'text', (c) => c.notNull())
    .addColumn('base_url', 'text', (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('tse_devices')
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('location_id', 'text', (c) => c.notNull())
    .addColumn('tss_id', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('tss_serial', 'text', (c) => c.notNull())
    .addColumn('client_serial', 'text', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('algorithm', 'text', (c) => c.notNull())
    .addColumn('time_format', 'text', (c) => c.notNull())
    .addColumn('sealed_admin_pin', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('tse_devices_pkey', ['company_id', 'location_id'])
    .execute();

  await db.schema
    .createTable('tse_transactions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('location_id', 'text', (c) => c.notNull())
    .addColumn('document_id', 'text')
    .addColumn('tx_id', 'text', (c) => c.notNull())
    .addColumn('receipt_type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('process_type', 'text', (c) => c.notNull())
    .addColumn('process_data', 'text', (c) => c.notNull())
    .addColumn('number', 'bigint')
    .addColumn('signature_counter', 'bigint')
    .addColumn('time_start', t.timestamp)
    .addColumn('time_end', t.timestamp)
    .addColumn('signature', 'text')
    .addColumn('algorithm', 'text')
    .addColumn('time_format', 'text')
    .addColumn('public_key', 'text')
    .addColumn('tss_serial', 'text')
    .addColumn('client_serial', 'text')
    .addColumn('qr_code', 'text')
    .addColumn('error', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('tse_transactions_document_idx')
    .on('tse_transactions')
    .columns(['company_id', 'document_id'])
    .execute();
  await db.schema
    .createIndex('tse_transactions_period_idx')
    .on('tse_transactions')
    .columns(['company_id', 'location_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('tse_transactions_failed_idx')
    .on('tse_transactions')
    .columns(['company_id', 'created_at'])
    .where(sql.ref('status'), '=', 'failed')
    .execute();
}
