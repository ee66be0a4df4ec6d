import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import { Data, Nullable, Timestamp, errorResponses } from '../schemas.ts';
import { ReplyBody } from '../requests/mail.ts';

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

export const InquiryReply = Type.Object(
  {
    id: Type.String(),
    message: Type.String(),
    author: Type.Object({ id: Type.String(), name: Type.String() }, { additionalProperties: false }),
    createdAt: Timestamp,
    emailStatus: Type.Enum(['pending', 'sent', 'failed'] as const),
    lastError: Nullable(Type.String()),
  },
  { additionalProperties: false },
);

/** Replies written by staff and reopening: an inquiry answered where everyone sees it, not in a private mailbox. */
export const inquiryRepliesRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    const security = [{ adminToken: [] }];
    app.post(
      '/inquiries/:id/replies',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminReplyToInquiry',
          summary: 'Reply to an inquiry by e-mail',
          description:
            'E-mails the reply to the inquirer (Reply-To: the shop’s address from the e-mail settings, else the author’s), keeps it on the inquiry with its author, and marks the inquiry handled. 503 when the server has no SMTP.',
          security,
          params: IdParams,
          body: ReplyBody,
          response: { 201: Data(InquiryReply), ...errorResponses(400, 404, 409, 503) },
        },
      },
      async (request, reply) => {
        const actor = { companyId: request.admin.companyId, userId: request.admin.userId };
        const made = await c.inquiryReplies.reply(actor, request.params.id, request.body.message);
        return reply.status(201).send({ data: made });
      },
    );
    app.get(
      '/inquiries/:id/replies',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminListInquiryReplies',
          summary: 'An inquiry’s replies, oldest first',
          security,
          params: IdParams,
          response: { 200: Data(Type.Array(InquiryReply)), ...errorResponses(404) },
        },
      },
      async (request) => {
        await c.inquiries.get(request.admin.companyId, request.params.id);
        return { data: await c.inquiries.replies(request.admin.companyId, request.params.id) };
      },
    );
    app.post(
      '/inquiries/:id/reopen',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminReopenInquiry',
          summary: 'Open a handled inquiry again',
          security,
          params: IdParams,
          response: { 204: Type.Null(), ...errorResponses(404) },
        },
      },
      async (request, reply) => {
        await c.inquiries.reopen(request.admin.companyId, request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
