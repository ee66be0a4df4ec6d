export {
  createNotificationsService,
  type AdminNoticeRepos,
  type NotificationsService,
  type Notification,
} from './notifications.service.ts';
export { createEmailSender } from './email-sender.ts';
export {
  notificationParts,
  type EmailMessageRow,
  type NotificationRow,
} from './notifications.repository.ts';
