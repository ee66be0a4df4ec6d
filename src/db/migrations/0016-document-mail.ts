import type { Kysely } from 'kysely';
import type { Engine } from '../database.ts';
import { columnTypes } from './column-types.ts';

/**
 * Documents sent by e-mail from the hub, the customer's answer to a quotation, and inquiries
 * answered in the hub (issue 22, items 3–5).
 *
 * An e-mail of the outbox may now carry a reply-to address and its attachments as a recipe (which
 * document, in which language, with datasheets or not): the sender renders the PDF when it sends,
 * so the outbox row stays small and a retry sends the same document. The SMTP server's answer on
 * success is kept beside the error it gives on failure. Each sending of a document is a row that
 * names the e-mail it went out as; its state is that e-mail's. A quotation's customer link is
 * kept only as a hash of its token; the customer's answer is a row of its own, one per
 * quotation (its key), so two answers cannot both be taken.
 */
export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  const t = columnTypes(engine);
  await db.schema.alterTable('email_messages').addColumn('reply_to', 'text').execute();
  await db.schema.alterTable('email_messages').addColumn('attachments', 'text').execute();
  await db.schema.alterTable('email_messages').addColumn('smtp_response', 'text').execute();

  await db.schema
    .createTable('document_sendings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('document_type', 'text', (c) => c.notNull())
    .addColumn('document_id', 'text', (c) => c.notNull())
    .addColumn('email_id', 'text', (c) => c.notNull().references('email_messages.id'))
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('message', 'text')
    .addColumn('sent_by', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('document_sendings_document_idx')
    .on('document_sendings')
    .columns(['company_id', 'document_type', 'document_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('mail_templates')
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('mail_templates_pkey', ['company_id', 'locale'])
    .execute();

  // The shop's address customers answer to (Reply-To): the e-mails go out from SMTP_FROM.
  await db.schema
    .createTable('mail_settings')
    .addColumn('company_id', 'text', (c) => c.primaryKey().references('companies.id'))
    .addColumn('reply_to', 'text')
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('quotation_links')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('quotation_id', 'text', (c) => c.notNull().references('quotations.id'))
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('quotation_links_quotation_idx')
    .on('quotation_links')
    .columns(['company_id', 'quotation_id'])
    .execute();

  await db.schema
    .createTable('quotation_answers')
    .addColumn('quotation_id', 'text', (c) => c.primaryKey().references('quotations.id'))
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('answer', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('reference', 'text')
    .addColumn('note', 'text')
    .addColumn('answered_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('inquiry_replies')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('inquiry_id', 'text', (c) => c.notNull().references('inquiries.id'))
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('author_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('email_id', 'text', (c) => c.references('email_messages.id'))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('inquiry_replies_inquiry_idx')
    .on('inquiry_replies')
    .columns(['company_id', 'inquiry_id', 'created_at'])
    .execute();
}
