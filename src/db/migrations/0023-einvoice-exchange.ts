import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.ts';
import { columnTypes } from './column-types.ts';

/**
 * Fiskalizacija 2.0 (issue 33), the parts that need no invoice lifecycle:
 * - `einvoice_exchanges`: a company's information intermediary (moj-eRačun first), its
 *   password sealed with the secrets key like the fiscal certificate;
 * - `purchase_invoices`: received e-invoices, the original XML bytes kept as they came
 *   (Zakon o fiscalizaciji NN 89/2025 art. 35: six years, in the original form), guarded on both
 *   engines against any update of those bytes or their digest; the parsed facts beside them;
 * - `purchase_invoice_payments`: payments made on them;
 * - `exchange_messages`: the exchange's outbox, one row per call a change causes (a rejection
 *   reported, later a send or a payment reported), written in the transaction of that change.
 */
export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  const t = columnTypes(engine);
  const bytes = engine === 'postgres' ? 'bytea' : 'blob';
  await db.schema
    .createTable('einvoice_exchanges')
    .addColumn('company_id', 'text', (c) => c.primaryKey().references('companies.id'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('sealed_password', 'text', (c) => c.notNull())
    .addColumn('exchange_company_id', 'text', (c) => c.notNull())
    .addColumn('software_id', 'text', (c) => c.notNull())
    .addColumn('business_unit', 'text')
    .addColumn('base_url', 'text', (c) => c.notNull())
    .addColumn('inbox_checked_at', t.timestamp)
    .addColumn('inbox_error', 'text')
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('purchase_invoices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('exchange_document_id', 'text')
    .addColumn('syntax', 'text', (c) => c.notNull())
    .addColumn('original_xml', bytes, (c) => c.notNull())
    .addColumn('xml_sha256', 'text', (c) => c.notNull())
    .addColumn('type_code', 'text', (c) => c.notNull())
    .addColumn('number', 'text', (c) => c.notNull())
    .addColumn('issue_date', 'text', (c) => c.notNull())
    .addColumn('due_date', 'text')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('supplier_name', 'text', (c) => c.notNull())
    .addColumn('supplier_oib', 'text')
    .addColumn('supplier_vat_id', 'text')
    .addColumn('net_minor', 'bigint', (c) => c.notNull())
    .addColumn('tax_minor', 'bigint', (c) => c.notNull())
    .addColumn('total_minor', 'bigint', (c) => c.notNull())
    .addColumn('payable_minor', 'bigint', (c) => c.notNull())
    .addColumn('iban', 'text')
    .addColumn('payment_reference', 'text')
    .addColumn('parsed', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('rejection_type', 'text')
    .addColumn('rejection_reason', 'text')
    .addColumn('decided_at', t.timestamp)
    .addColumn('decided_by', 'text')
    .addColumn('paid_minor', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('received_at', t.timestamp, (c) => c.notNull())
    .execute();
  // One row per exchange document: a second poll of the same inbox files nothing twice.
  await db.schema
    .createIndex('purchase_invoices_exchange_doc_idx')
    .on('purchase_invoices')
    .columns(['company_id', 'exchange_document_id'])
    .unique()
    .where(sql.ref('exchange_document_id'), 'is not', null)
    .execute();
  await db.schema
    .createIndex('purchase_invoices_company_issue_idx')
    .on('purchase_invoices')
    .columns(['company_id', 'issue_date', 'id'])
    .execute();

  if (engine === 'postgres') {
    await sql`create function purchase_invoices_original_frozen() returns trigger language plpgsql as $$
      begin
        if new.original_xml is distinct from old.original_xml or new.xml_sha256 is distinct from old.xml_sha256 then
          raise exception 'purchase_invoices: the original XML of a received invoice is never changed';
        end if;
        return new;
      end $$`.execute(db);
    await sql`create trigger purchase_invoices_original_frozen before update on purchase_invoices
      for each row execute function purchase_invoices_original_frozen()`.execute(db);
  } else {
    await sql`create trigger purchase_invoices_original_frozen before update of original_xml, xml_sha256 on purchase_invoices
      when new.original_xml is not old.original_xml or new.xml_sha256 is not old.xml_sha256
      begin select raise(abort, 'purchase_invoices: the original XML of a received invoice is never changed'); end`.execute(
      db,
    );
  }

  await db.schema
    .createTable('purchase_invoice_payments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('purchase_invoice_id', 'text', (c) => c.notNull().references('purchase_invoices.id'))
    .addColumn('amount_minor', 'bigint', (c) => c.notNull())
    .addColumn('paid_on', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('recorded_by', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('purchase_invoice_payments_invoice_idx')
    .on('purchase_invoice_payments')
    .columns(['company_id', 'purchase_invoice_id'])
    .execute();

  await db.schema
    .createTable('exchange_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', t.timestamp, (c) => c.notNull())
    .addColumn('locked_until', t.timestamp)
    .addColumn('last_error', 'text')
    .addColumn('answer', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('done_at', t.timestamp)
    .execute();
  await db.schema
    .createIndex('exchange_messages_due_idx')
    .on('exchange_messages')
    .columns(['next_attempt_at'])
    .where(sql.ref('status'), '=', 'pending')
    .execute();
  await db.schema
    .createIndex('exchange_messages_subject_idx')
    .on('exchange_messages')
    .columns(['company_id', 'subject_id'])
    .execute();
}
