export {
  createNotificationsService,
  type AdminNoticeRepos,
  type NotificationsService,
  type Notification,
} from './notifications.service.ts';
export { createEmailSender, type MailAttachment, type AttachmentRenderer } from './email-sender.ts';
export { notificationParts } from './notification-parts.ts';
export type { EmailMessageRow, EmailOutbox, NotificationRow, SentEmails } from './types.ts';
