import type { IdGenerator } from '../../lib/ids.ts';
import type { Recipient } from '../companies/index.ts';
import type { NotificationRow } from '../notifications/index.ts';
import type { InquiryRow } from './types.ts';

/**
 * What support staff are told about a new inquiry in the hub: one notification each. Their
 * e-mail is a digest of many inquiries (inquiry-digests.ts), not one per inquiry.
 */
export function inquiryNotifications(
  inquiry: InquiryRow,
  recipients: readonly Recipient[],
  opts: { now: string; newId: IdGenerator },
): NotificationRow[] {
  const from = inquiry.name ? `${inquiry.name} <${inquiry.email}>` : inquiry.email;
  const title = `New inquiry: ${inquiry.subject}`;
  const body = `${from} wrote about "${inquiry.topic}".`;
  // The kind names the message; the hub says it in each reader's language with these.
  const params = JSON.stringify({ subject: inquiry.subject, from, topic: inquiry.topic });

  return recipients.map(
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
}
