import type { IdGenerator } from '../../lib/ids.ts';
import type { Repositories } from '../../db/store.ts';
import type { InquiryRow } from './inquiries.repository.ts';
import { inquiryNotifications } from '../notifications/inquiry-notifications.ts';
import type { EmailMessageRow, NotificationRow } from '../notifications/notifications.repository.ts';

// Who hears about a new inquiry; staff users do not.
const RECIPIENT_ROLES = ['admin', 'support'] as const;

/**
 * Writes a batch of inquiries with a notification for every admin and support user of each
 * inquiry's company (and their e-mails when mail is on), inside the caller's transaction.
 * Returns how many e-mails were queued.
 */
export async function writeInquiries(repos: Repositories, rows: InquiryRow[], opts: { newId: IdGenerator; withEmail: boolean }): Promise<number> {
  await repos.inquiries.insertMany(rows);
  const recipients = Map.groupBy(
    await repos.companies.listUsersWithRolesOf([...new Set(rows.map((r) => r.company_id))], RECIPIENT_ROLES),
    (user) => user.company_id,
  );
  const notifications: NotificationRow[] = [];
  const emails: EmailMessageRow[] = [];
  for (const row of rows) {
    const made = inquiryNotifications(row, recipients.get(row.company_id) ?? [], { now: row.created_at, newId: opts.newId, withEmail: opts.withEmail });
    notifications.push(...made.notifications);
    emails.push(...made.emails);
  }
  await repos.notifications.insertNotifications(notifications);
  await repos.notifications.insertEmails(emails);
  return emails.length;
}
