import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.ts';
import { columnTypes } from './column-types.ts';

/**
 * An inquiry can be marked handled in the hub (when, by whom). The hub's first questions are
 * "which inquiries are still open" and "how many unread notifications have I": both are
 * answered from partial indexes holding only the open rows, so the answer costs the same with a
 * million handled inquiries or read notifications behind it (the header asks every 15 s).
 */
export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  const t = columnTypes(engine);
  await db.schema.alterTable('inquiries').addColumn('handled_at', t.timestamp).execute();
  await db.schema.alterTable('inquiries').addColumn('handled_by', 'text').execute();
  await db.schema
    .createIndex('inquiries_company_open_idx')
    .on('inquiries')
    .columns(['company_id', 'created_at', 'id'])
    .where(sql.ref('handled_at'), 'is', null)
    .execute();
  await db.schema
    .createIndex('notifications_user_unread_idx')
    .on('notifications')
    .columns(['company_id', 'user_id', 'created_at'])
    .where(sql.ref('read_at'), 'is', null)
    .execute();
}
