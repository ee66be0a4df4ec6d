import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import { Data, Nullable, Pagination, Timestamp, errorResponses } from '../schemas.ts';
import { newestFirstPage } from './pagination.ts';
import { AppError } from '../../lib/errors.ts';
import type { UserRole } from '../../modules/companies/index.ts';
import { PERMISSIONS, can, needsRole } from '../access.ts';

const Inquiry = Type.Object(
  {
    id: Type.String(),
    locationId: Type.String(),
    topic: Type.String(),
    subject: Type.String(),
    message: Type.String(),
    email: Type.String(),
    phone: Type.String(),
    name: Nullable(Type.String()),
    productPhotoUrl: Nullable(Type.String()),
    createdAt: Timestamp,
  },
  { additionalProperties: false },
);

export const inquiriesRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    const security = [{ adminToken: [] }];
    app.get(
      '/inquiries',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminListInquiries',
          summary: 'Inquiries, newest first',
          security,
          querystring: Type.Object(
            {
              ...Pagination,
              mode: Type.Optional(
                Type.Union([Type.Literal('live'), Type.Literal('test')], {
                  description: '`live` (the default) or `test`: data made with test keys, never both.',
                }),
              ),
              folder: Type.Optional(
                Type.Union([Type.Literal('inbox'), Type.Literal('spam')], {
                  description: '`inbox` (the default) or `spam`: what spam protection held back.',
                }),
              ),
            },
            { additionalProperties: false },
          ),
          response: {
            200: Type.Object({ data: Type.Array(Inquiry), nextCursor: Nullable(Type.String()) }),
            ...errorResponses(400, 403),
          },
        },
      },
      async (request) => {
        const page = newestFirstPage(request.query);
        const { mode, folder } = request.query;
        if (folder === 'spam' && !can(request.admin.role as UserRole, 'inquiries:spam'))
          throw new AppError('forbidden', needsRole(PERMISSIONS['inquiries:spam']));
        return page.page(
          await c.inquiries.list(request.admin.companyId, page, {
            ...(mode ? { mode } : {}),
            ...(folder ? { folder } : {}),
          }),
        );
      },
    );

    app.get(
      '/inquiries/:id',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminGetInquiry',
          summary: 'One inquiry',
          security,
          params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
          response: { 200: Data(Inquiry), ...errorResponses(403, 404) },
        },
      },
      async (request) => {
        const inquiry = await c.inquiries.get(request.admin.companyId, request.params.id);
        // Held as spam, it is not there for a role without the spam folder (staff).
        if (inquiry.spamReason !== null && !can(request.admin.role as UserRole, 'inquiries:spam'))
          throw AppError.notFound('Inquiry');
        return { data: inquiry };
      },
    );

    app.post(
      '/inquiries/:id/release',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminReleaseInquiry',
          summary:
            'Release an inquiry from the spam folder (a false positive): its admin and support users are told then',
          security,
          params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
          response: { 200: Data(Inquiry), ...errorResponses(403, 404) },
        },
      },
      async (request) => ({ data: await c.inquiries.release(request.admin.companyId, request.params.id) }),
    );
  };
