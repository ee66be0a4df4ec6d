import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import { Data, Nullable, Pagination, Timestamp, errorResponses } from '../schemas.ts';
import { newestFirstPage } from './pagination.ts';

const Notification = Type.Object(
  {
    id: Type.String(),
    kind: Type.String(),
    title: Type.String(),
    body: Type.String(),
    subject: Nullable(Type.Object({ type: Type.String(), id: Type.String() })),
    readAt: Nullable(Timestamp),
    createdAt: Timestamp,
  },
  { additionalProperties: false },
);

/** The calling user's own notifications. */
export const notificationsRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    const security = [{ adminToken: [] }];
    app.get(
      '/notifications',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminListNotifications',
          summary: 'My notifications, newest first',
          security,
          querystring: Type.Object(
            { ...Pagination, unread: Type.Optional(Type.Boolean({ description: 'Only unread ones.' })) },
            { additionalProperties: false },
          ),
          response: {
            200: Type.Object({ data: Type.Array(Notification), nextCursor: Nullable(Type.String()) }),
            ...errorResponses(400),
          },
        },
      },
      async (request) => {
        const page = newestFirstPage(request.query);
        const rows = await c.notifications.listForUser(request.admin.companyId, request.admin.userId, {
          unreadOnly: request.query.unread === true,
          limit: page.limit,
          before: page.before,
        });
        return page.page(rows);
      },
    );

    app.post(
      '/notifications/:id/read',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminReadNotification',
          summary: 'Mark one of my notifications read',
          security,
          params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
          response: { 200: Data(Notification), ...errorResponses(404) },
        },
      },
      async (request) => ({
        data: await c.notifications.markRead(request.admin.companyId, request.admin.userId, request.params.id),
      }),
    );
  };
