export { createNotificationsService, type NotificationsService, type Notification } from './notifications.service.ts';
export { createEmailSender } from './email-sender.ts';
