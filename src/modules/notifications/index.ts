export { createNotificationsService, type NotificationsService, type Notification } from './notifications.service.ts';
export { createEmailSender } from './email-sender.ts';
export { inquiryNotifications } from './inquiry-notifications.ts';
export {
  EMAIL_COLUMNS,
  NOTIFICATION_COLUMNS,
  type EmailMessageRow,
  type NotificationRow,
} from './notifications.repository.ts';
