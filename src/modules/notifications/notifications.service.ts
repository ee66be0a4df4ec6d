import { AppError } from '../../lib/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import type { Store } from '../../db/store.ts';
import type { CompanyDirectory } from '../companies/index.ts';
import type { NotificationsRepository } from './notifications.repository.ts';
import type { NotificationRow } from './types.ts';

/** What telling a company's admins takes, in the caller's unit of work: who they are, and their notifications. */
export type AdminNoticeRepos = {
  companies: Pick<CompanyDirectory, 'listUsersWithRoles' | 'findCompany'>;
  notifications: Pick<NotificationsRepository, 'insertNotifications' | 'insertEmail'>;
};

/**
 * Which notices also go out by e-mail, and how each reads in a language (the hub's words and
 * links, wired in the composition root): the shop is told by mail of what it must act on.
 */
export interface NoticeMailer {
  mails(kind: string): boolean;
  render(note: Note, locale: string): { subject: string; text: string; html: string };
}

export interface Notification {
  id: string;
  kind: string;
  title: string;
  body: string;
  subject: { type: string; id: string } | null;
  readAt: string | null;
  createdAt: string;
  /** The parameters of the message its kind names, for saying it in the reader's language; null on older ones. */
  params: Record<string, string> | null;
}

interface Note {
  kind: string;
  title: string;
  body: string;
  params: Record<string, string>;
  subject?: { type: string; id: string };
}

export function createNotificationsService(deps: {
  store: Store<{ notifications: NotificationsRepository }>;
  clock: Clock;
  newId: IdGenerator;
  /** Notices also mailed (staff lane); absent or without SMTP: the hub alone. */
  mailer?: NoticeMailer | null;
  onEmailQueued?: () => void;
}) {
  const { store, clock } = deps;
  return {
    async listForUser(
      companyId: string,
      userId: string,
      opts: { unreadOnly: boolean; limit: number; before?: { createdAt: string; id: string } },
    ) {
      return (await store.repos.notifications.listForUser(companyId, userId, opts)).map(toNotification);
    },

    async markRead(companyId: string, userId: string, id: string): Promise<Notification> {
      const existing = await store.repos.notifications.findForUser(companyId, userId, id);
      if (!existing) throw AppError.notFound('Notification');
      await store.repos.notifications.markRead(companyId, userId, id, clock.now().toISOString());
      return toNotification((await store.repos.notifications.findForUser(companyId, userId, id))!);
    },

    /** The header badge's number, up to COUNT_CAP (src/db/capped-count.ts). */
    async countUnread(companyId: string, userId: string): Promise<number> {
      return store.repos.notifications.countUnread(companyId, userId);
    },

    async markAllRead(companyId: string, userId: string): Promise<void> {
      await store.repos.notifications.markAllRead(companyId, userId, clock.now().toISOString());
    },

    /** Tells every admin of the company, in the caller's transaction (a failing webhook, for one). */
    async notifyAdmins(repos: AdminNoticeRepos, companyId: string, note: Note) {
      await this.notifyRoles(repos, companyId, note, ['admin']);
    },

    /** Tells every user of these roles (a customer's answer reaches the counter too), in the caller's transaction. */
    async notifyRoles(repos: AdminNoticeRepos, companyId: string, note: Note, roles: readonly string[]) {
      const users = await repos.companies.listUsersWithRoles(companyId, roles);
      const now = clock.now().toISOString();
      await repos.notifications.insertNotifications(
        users.map((user) => ({
          id: deps.newId('notification'),
          company_id: companyId,
          user_id: user.id,
          kind: note.kind,
          title: note.title,
          body: note.body,
          subject_type: note.subject?.type ?? null,
          subject_id: note.subject?.id ?? null,
          read_at: null,
          created_at: now,
          message_params: JSON.stringify(note.params),
        })),
      );
      const mailer = deps.mailer;
      if (!mailer?.mails(note.kind) || users.length === 0) return;
      // Each recipient in their own language (the company's when they chose none), in this transaction.
      const company = await repos.companies.findCompany(companyId);
      const rendered = new Map<string, ReturnType<NoticeMailer['render']>>();
      for (const user of users) {
        if (user.disabled_at) continue;
        const locale = user.locale ?? company?.locale ?? 'en';
        let mail = rendered.get(locale);
        if (!mail) {
          mail = mailer.render(note, locale);
          rendered.set(locale, mail);
        }
        await repos.notifications.insertEmail({
          id: deps.newId('email'),
          company_id: companyId,
          to_address: user.email,
          subject: mail.subject,
          text_body: mail.text,
          html_body: mail.html,
          lane: 'staff',
          status: 'pending',
          attempts: 0,
          next_attempt_at: now,
          locked_until: null,
          last_error: null,
          sent_at: null,
          created_at: now,
        });
      }
      deps.onEmailQueued?.();
    },
  };
}
export type NotificationsService = ReturnType<typeof createNotificationsService>;

function toNotification(row: NotificationRow): Notification {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    body: row.body,
    subject: row.subject_type && row.subject_id ? { type: row.subject_type, id: row.subject_id } : null,
    readAt: row.read_at,
    createdAt: row.created_at,
    params: row.message_params === null ? null : (JSON.parse(row.message_params) as Record<string, string>),
  };
}
