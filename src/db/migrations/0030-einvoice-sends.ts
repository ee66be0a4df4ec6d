import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.ts';
import { columnTypes } from './column-types.ts';

/**
 * Fiskalizacija 2.0, the outbound half (issue 33): `einvoice_sends`, one row per issued document
 * (invoice, cancellation, credit note) that went to a Croatian business as an e-invoice through
 * the company's exchange instead of a receipt to CIS (Zakon o fiskalizaciji NN 89/2025 art. 38,
 * 47). Written in the issuing transaction with the `send` call of `exchange_messages`; the
 * exchange worker moves it on: the intermediary's document id, delivery, the issuer's
 * fiscalisation (EvidentirajERacun) and the buyer's rejection with its reason.
 */
export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  const t = columnTypes(engine);
  await db.schema
    .createTable('einvoice_sends')
    .addColumn('sale_id', 'text', (c) => c.primaryKey().references('sales.id').onDelete('cascade'))
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('document_id', 'text')
    .addColumn('delivered_at', t.timestamp)
    .addColumn('fiscal_status', 'text', (c) => c.notNull().defaultTo('unknown'))
    .addColumn('fiscal_message', 'text')
    .addColumn('rejection_type', 'text')
    .addColumn('rejection_reason', 'text')
    .addColumn('rejected_at', t.timestamp)
    .addColumn('last_error', 'text')
    .addColumn('checked_at', t.timestamp)
    .addColumn('notified_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('einvoice_sends_company_status_idx')
    .on('einvoice_sends')
    .columns(['company_id', 'status', 'created_at'])
    .execute();
  // The worker's status poll: the documents still on their way, oldest check first.
  await db.schema
    .createIndex('einvoice_sends_open_idx')
    .on('einvoice_sends')
    .columns(['checked_at'])
    .where(sql.ref('status'), 'in', ['queued', 'sent', 'delivered'])
    .execute();
}
