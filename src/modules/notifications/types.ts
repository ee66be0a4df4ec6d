import type { EmailMessagesTable, NotificationsTable } from '../../db/schema.ts';
import type { NotificationsRepository } from './notifications.repository.ts';

export type NotificationRow = NotificationsTable;
export type EmailMessageRow = EmailMessagesTable;

/** What another module needs of this one to queue an e-mail in its own unit of work. */
export type EmailOutbox = Pick<NotificationsRepository, 'insertEmail'>;

/** The state of e-mails another module queued (a document's sendings show theirs). */
export type SentEmails = Pick<NotificationsRepository, 'findEmails'>;
