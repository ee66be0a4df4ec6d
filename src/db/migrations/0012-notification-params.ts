import type { Kysely } from 'kysely';
import type { Engine } from '../database.ts';

/**
 * A notification is said in its reader's language: its kind is the message's key, and its
 * parameters (the inquiry's subject, the webhook's target…) are kept as JSON beside it, so the
 * hub renders it for each reader. The English title and body are still written (the admin API
 * sends them); rows from before this have no parameters and are shown as they were written.
 */
export async function up(db: Kysely<any>, _engine: Engine): Promise<void> {
  await db.schema.alterTable('notifications').addColumn('message_params', 'text').execute();
}
