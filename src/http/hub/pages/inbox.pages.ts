import type { FastifyPluginAsync } from 'fastify';
import type { Container } from '../../../container.ts';
import { inquiriesPages } from './inquiries.page.ts';
import { notificationsPages } from './notifications.page.ts';

/** What comes in: inquiries and the user's notifications (Today is registered on its own). */
export const inboxPages =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    await app.register(inquiriesPages(c));
    await app.register(notificationsPages(c));
  };
