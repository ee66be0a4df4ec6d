import type { Kysely } from 'kysely';
import type { Engine } from '../database.ts';
import { columnTypes } from './column-types.ts';

/**
 * Staff e-mails about inquiries are coalesced, and kept out of the customers' way.
 *
 * - `email_messages.lane`: `customer` (documents, inquiry replies: what a customer waits for) or
 *   `staff` (inquiry digests). Each lane is claimed and sent apart, so a flood of the one never
 *   delays the other; existing rows are customers' (the default), which only sends them sooner.
 * - `email_messages.html_body`: the digest's HTML part beside its plain text.
 * - `inquiry_digests`: per company, whether a digest of new inquiries is due (`due_at`), up to
 *   which creation time the last one covered, and when it was sent, so there is at most one per
 *   recipient per window instead of one e-mail per inquiry and recipient.
 */
export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  const t = columnTypes(engine);
  await db.schema
    .alterTable('email_messages')
    .addColumn('lane', 'text', (c) => c.notNull().defaultTo('customer'))
    .execute();
  await db.schema.alterTable('email_messages').addColumn('html_body', 'text').execute();
  await db.schema
    .createIndex('email_messages_lane_due_idx')
    .on('email_messages')
    .columns(['lane', 'status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createTable('inquiry_digests')
    .addColumn('company_id', 'text', (c) => c.primaryKey().references('companies.id'))
    .addColumn('due_at', t.timestamp)
    .addColumn('covered_until', t.timestamp, (c) => c.notNull())
    .addColumn('last_sent_at', t.timestamp)
    .execute();
  await db.schema.createIndex('inquiry_digests_due_idx').on('inquiry_digests').column('due_at').execute();
}
