import type { Executor } from '../../db/database.ts';
import { newestFirst, type NewestFirstPage } from '../../db/keyset.ts';
import type { EmailMessagesTable, NotificationsTable } from '../../db/schema.ts';

export type NotificationRow = NotificationsTable;
export type EmailMessageRow = EmailMessagesTable;

// A batch of inquiries for a company with many support users makes many rows; one statement
// binds at most 32 766 values on SQLite (65 535 on PostgreSQL), i.e. ~2 700 rows of 12 columns.
const ROWS_PER_STATEMENT = 1000;
function* chunks<T>(rows: T[]): Generator<T[]> {
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) yield rows.slice(i, i + ROWS_PER_STATEMENT);
}

export function createNotificationsRepository(db: Executor) {
  return {
    async insertNotifications(rows: NotificationRow[]): Promise<void> {
      for (const chunk of chunks(rows)) await db.insertInto('notifications').values(chunk).execute();
    },

    async listForUser(companyId: string, userId: string, opts: NewestFirstPage & { unreadOnly: boolean }) {
      let query = db.selectFrom('notifications').selectAll().where('company_id', '=', companyId).where('user_id', '=', userId);
      if (opts.unreadOnly) query = query.where('read_at', 'is', null);
      return newestFirst(query, opts).execute();
    },

    async findForUser(companyId: string, userId: string, id: string): Promise<NotificationRow | undefined> {
      return db.selectFrom('notifications').selectAll()
        .where('company_id', '=', companyId).where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
    },

    async markRead(companyId: string, userId: string, id: string, at: string): Promise<void> {
      await db.updateTable('notifications').set({ read_at: at })
        .where('company_id', '=', companyId).where('user_id', '=', userId).where('id', '=', id).where('read_at', 'is', null)
        .execute();
    },

    async insertEmails(rows: EmailMessageRow[]): Promise<void> {
      for (const chunk of chunks(rows)) await db.insertInto('email_messages').values(chunk).execute();
    },

    /** Takes up to `limit` due e-mails for `leaseMs`; a crashed sender's lease simply runs out. */
    async claimDueEmails(now: string, leaseUntil: string, limit: number): Promise<EmailMessageRow[]> {
      const due = await db.selectFrom('email_messages').select('id')
        .where('status', '=', 'pending').where('next_attempt_at', '<=', now)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
        .orderBy('next_attempt_at').limit(limit).execute();
      const claimed: EmailMessageRow[] = [];
      for (const { id } of due) {
        // Conditional update: of two senders racing for one row, only one changes it.
        const row = await db.updateTable('email_messages').set({ locked_until: leaseUntil })
          .where('id', '=', id).where('status', '=', 'pending')
          .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
          .returningAll().executeTakeFirst();
        if (row) claimed.push(row);
      }
      return claimed;
    },

    /** Only while the sender's lease (the locked_until it claimed with) is still the row's. */
    async finishEmail(id: string, lease: string, patch: Pick<EmailMessageRow, 'status' | 'attempts' | 'next_attempt_at' | 'last_error' | 'sent_at'>): Promise<void> {
      await db.updateTable('email_messages').set({ ...patch, locked_until: null }).where('id', '=', id).where('locked_until', '=', lease).execute();
    },

    async listEmails(companyId: string): Promise<EmailMessageRow[]> {
      return db.selectFrom('email_messages').selectAll().where('company_id', '=', companyId).orderBy('created_at').execute();
    },
  };
}
export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>;
