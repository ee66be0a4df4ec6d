export {
  createNotificationsService,
  type AdminNoticeRepos,
  type NotificationsService,
  type Notification,
} from './notifications.service.ts';
export { createEmailSender, type MailAttachment, type AttachmentRenderer } from './email-sender.ts';
export {
  notificationParts,
  type EmailMessageRow,
  type EmailOutbox,
  type NotificationsRepository,
  type NotificationRow,
} from './notifications.repository.ts';
