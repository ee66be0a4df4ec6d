import { allColumns, type TableRows } from '../../db/written-statements.ts';
import type { EmailMessageRow, NotificationRow } from './types.ts';

/** The columns every e-mail has; the batched inquiry e-mails leave the rest (0016) null. */
type BaseEmailRow = Omit<EmailMessageRow, 'reply_to' | 'attachments' | 'smtp_response' | 'lane' | 'html_body'>;

// Written out (written-statements.ts): a group-committed batch of inquiries inserts many at once.
export const NOTIFICATION_COLUMNS = allColumns<NotificationRow>()([
  'id',
  'company_id',
  'user_id',
  'kind',
  'title',
  'body',
  'subject_type',
  'subject_id',
  'read_at',
  'created_at',
  'message_params',
]);
const EMAIL_COLUMNS = allColumns<BaseEmailRow>()([
  'id',
  'company_id',
  'to_address',
  'subject',
  'text_body',
  'status',
  'attempts',
  'next_attempt_at',
  'locked_until',
  'last_error',
  'sent_at',
  'created_at',
]);

/**
 * Notifications and their e-mails as this module's parts of a statement that writes them with
 * another module's rows (insertTogether): a batch of inquiries commits with who is told of it in
 * one statement, while the tables and their columns stay this module's.
 */
export function notificationParts(
  notifications: readonly NotificationRow[],
  emails: readonly EmailMessageRow[],
): TableRows[] {
  return [
    { table: 'notifications', columns: NOTIFICATION_COLUMNS, rows: notifications },
    { table: 'email_messages', columns: EMAIL_COLUMNS, rows: emails },
  ];
}
