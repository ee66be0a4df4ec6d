import type { IdGenerator } from '../../lib/ids.ts';
import type { Recipient } from '../companies/index.ts';
import type { EmailMessageRow, NotificationRow } from '../notifications/index.ts';
import type { InquiryRow } from './inquiries.repository.ts';

/** What support staff are told about a new inquiry: one hub notification each, and an e-mail when mail is on. */
export function inquiryNotifications(
  inquiry: InquiryRow,
  recipients: readonly Recipient[],
  opts: { now: string; newId: IdGenerator; withEmail: boolean },
): { notifications: NotificationRow[]; emails: EmailMessageRow[] } {
  const from = inquiry.name ? `${inquiry.name} <${inquiry.email}>` : inquiry.email;
  const title = `New inquiry: ${inquiry.subject}`;
  const body = `${from} wrote about "${inquiry.topic}".`;
  // The kind names the message; the hub says it in each reader's language with these.
  const params = JSON.stringify({ subject: inquiry.subject, from, topic: inquiry.topic });

  const notifications = recipients.map(
    (user): NotificationRow => ({
      id: opts.newId('notification'),
      company_id: inquiry.company_id,
      user_id: user.id,
      kind: 'inquiry.created',
      title,
      body,
      subject_type: 'inquiry',
      subject_id: inquiry.id,
      read_at: null,
      created_at: opts.now,
      message_params: params,
    }),
  );
  if (!opts.withEmail) return { notifications, emails: [] };

  const text = [
    `A customer sent an inquiry from the website.`,
    '',
    `Topic:   ${inquiry.topic}`,
    `Subject: ${inquiry.subject}`,
    `From:    ${from}`,
    `Phone:   ${inquiry.phone}`,
    ...(inquiry.product_photo_url ? [`Product photo: ${inquiry.product_photo_url}`] : []),
    '',
    inquiry.message,
    '',
    `Inquiry ${inquiry.id}`,
  ].join('\n');
  const emails = recipients.map(
    (user): EmailMessageRow => ({
      id: opts.newId('email'),
      company_id: inquiry.company_id,
      to_address: user.email,
      subject: title,
      text_body: text,
      status: 'pending',
      attempts: 0,
      next_attempt_at: opts.now,
      locked_until: null,
      last_error: null,
      sent_at: null,
      created_at: opts.now,
    }),
  );
  return { notifications, emails };
}
