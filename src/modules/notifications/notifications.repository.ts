import type { Engine, Executor } from '../../db/database.ts';
import { insertRows } from '../../db/written-statements.ts';
import { newestFirst, type NewestFirstPage } from '../../db/keyset.ts';
import { cappedCount } from '../../db/capped-count.ts';
import { NOTIFICATION_COLUMNS } from './notification-parts.ts';
import type { EmailMessageRow, NotificationRow } from './types.ts';

export function createNotificationsRepository(db: Executor, engine: Engine) {
  return {
    /** One e-mail into the outbox, in the caller's unit of work. */
    async insertEmail(row: EmailMessageRow): Promise<void> {
      await db.insertInto('email_messages').values(row).execute();
    },

    /** The e-mails of `ids` (a document's sendings show their state). */
    async findEmails(companyId: string, ids: readonly string[]): Promise<EmailMessageRow[]> {
      if (ids.length === 0) return [];
      return db
        .selectFrom('email_messages')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('id', 'in', [...ids])
        .execute();
    },

    async insertNotifications(rows: NotificationRow[]): Promise<void> {
      await insertRows(db, engine, 'notifications', NOTIFICATION_COLUMNS, rows);
    },

    async listForUser(companyId: string, userId: string, opts: NewestFirstPage & { unreadOnly: boolean }) {
      let query = db
        .selectFrom('notifications')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('user_id', '=', userId);
      if (opts.unreadOnly) query = query.where('read_at', 'is', null);
      return newestFirst(query, opts).execute();
    },

    async findForUser(companyId: string, userId: string, id: string): Promise<NotificationRow | undefined> {
      return db
        .selectFrom('notifications')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    async markRead(companyId: string, userId: string, id: string, at: string): Promise<void> {
      await db
        .updateTable('notifications')
        .set({ read_at: at })
        .where('company_id', '=', companyId)
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .where('read_at', 'is', null)
        .execute();
    },

    /** Unread ones, counted up to COUNT_CAP on the unread-only index: the header asks every 15 s. */
    async countUnread(companyId: string, userId: string): Promise<number> {
      return cappedCount(
        db,
        db
          .selectFrom('notifications')
          .select('id')
          .where('company_id', '=', companyId)
          .where('user_id', '=', userId)
          .where('read_at', 'is', null),
      );
    },

    async markAllRead(companyId: string, userId: string, at: string): Promise<void> {
      await db
        .updateTable('notifications')
        .set({ read_at: at })
        .where('company_id', '=', companyId)
        .where('user_id', '=', userId)
        .where('read_at', 'is', null)
        .execute();
    },

    /**
     * Takes up to `limit` due e-mails of one lane for `leaseMs`; a crashed sender's lease simply
     * runs out. Lanes are claimed apart, so the customers' never wait behind the staff's.
     */
    async claimDueEmails(
      now: string,
      leaseUntil: string,
      limit: number,
      lane: 'customer' | 'staff' = 'customer',
    ): Promise<EmailMessageRow[]> {
      const due = await db
        .selectFrom('email_messages')
        .select('id')
        .where('lane', '=', lane)
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', now)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
        .orderBy('next_attempt_at')
        .limit(limit)
        .execute();
      const claimed: EmailMessageRow[] = [];
      for (const { id } of due) {
        // Conditional update: of two senders racing for one row, only one changes it.
        const row = await db
          .updateTable('email_messages')
          .set({ locked_until: leaseUntil })
          .where('id', '=', id)
          .where('status', '=', 'pending')
          .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
          .returningAll()
          .executeTakeFirst();
        if (row) claimed.push(row);
      }
      return claimed;
    },

    /** Only while the sender's lease (the locked_until it claimed with) is still the row's. */
    async finishEmail(
      id: string,
      lease: string,
      patch: Pick<
        EmailMessageRow,
        'status' | 'attempts' | 'next_attempt_at' | 'last_error' | 'sent_at' | 'smtp_response'
      >,
    ): Promise<void> {
      await db
        .updateTable('email_messages')
        .set({ ...patch, locked_until: null })
        .where('id', '=', id)
        .where('locked_until', '=', lease)
        .execute();
    },

    async listEmails(companyId: string): Promise<EmailMessageRow[]> {
      return db
        .selectFrom('email_messages')
        .selectAll()
        .where('company_id', '=', companyId)
        .orderBy('created_at')
        .execute();
    },
  };
}
export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>;
