import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import type { SendingView, SentDocumentType } from '../../modules/mailing/index.ts';
import { Data, Nullable, Timestamp, errorResponses } from '../schemas.ts';
import { SendBody } from '../requests/mail.ts';
import { baseUrl } from '../base-url.ts';

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

export const Sending = Type.Object(
  {
    id: Type.String({ examples: ['snd_4fJ2kq9XbR0mW8tLz1cA'] }),
    documentType: Type.Enum(['quotation', 'sale'] as const),
    documentId: Type.String(),
    to: Type.String(),
    locale: Type.String({ description: "The e-mail's and the PDF's language." }),
    message: Nullable(Type.String()),
    sentBy: Type.Object({ id: Type.String(), name: Type.String() }, { additionalProperties: false }),
    createdAt: Timestamp,
    status: Type.Enum(['pending', 'sent', 'failed'] as const, {
      description:
        '`pending`: queued, or waiting for a retry while the mail server is unreachable; `sent`: the SMTP server took it; `failed`: refused for good.',
    }),
    attempts: Type.Integer({ minimum: 0 }),
    sentAt: Nullable(Timestamp),
    serverAnswer: Nullable(
      Type.String({ description: "The SMTP server's answer: its acceptance, or the last attempt's error." }),
    ),
    eInvoice: Nullable(
      Type.Object(
        {
          attached: Type.Boolean({ description: "True: the sale's e-invoice (UBL XML) went with the PDF." }),
          missing: Type.Array(Type.String(), {
            description:
              "When not attached: the fields the e-invoice's profile still lacked (as the e-invoice's 409 names them).",
          }),
        },
        {
          additionalProperties: false,
          description:
            'A sale to a business buyer (a business, or a customer with a tax id): its e-invoice goes with the PDF when the document can be a valid e-invoice, and the PDF goes alone otherwise. Null for a consumer or a quotation.',
        },
      ),
    ),
    sha256: Nullable(
      Type.Object(
        {
          pdf: Type.String({ description: 'SHA-256 (hex) of the PDF as issued that the e-mail carries.' }),
          eInvoice: Nullable(Type.String({ description: 'SHA-256 (hex) of the e-invoice XML it carries.' })),
        },
        {
          additionalProperties: false,
          description: "A sale's files as issued that the sending carries (its hashes); null for a quotation.",
        },
      ),
    ),
  },
  { additionalProperties: false },
);

const present = (s: SendingView) => s;

/** Sending quotations and sales (invoices, cancellations, credit notes) by e-mail, and their sendings. */
export const sendingsRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    const security = [{ adminToken: [] }];
    const kinds: Array<{ type: SentDocumentType; path: string; send: string; list: string; name: string }> = [
      {
        type: 'quotation',
        path: 'quotations',
        send: 'adminSendQuotation',
        list: 'adminListQuotationSendings',
        name: 'quotation',
      },
      {
        type: 'sale',
        path: 'sales',
        send: 'adminSendSale',
        list: 'adminListSaleSendings',
        name: 'sale (invoice, cancellation or credit note)',
      },
    ];
    for (const kind of kinds) {
      app.post(
        `/${kind.path}/:id/send`,
        {
          schema: {
            tags: ['Admin'],
            operationId: kind.send,
            summary: `Send the ${kind.name} to the customer by e-mail`,
            description:
              'Queues the e-mail with the PDF attached, in `locale` (default: the directory customer’s language, else the company’s), from the company’s template; answers 202 with the sending. ' +
              (kind.type === 'sale'
                ? 'A business buyer’s e-mail also carries the e-invoice (`{number}-ubl.xml`, application/xml, as `GET /sales/{id}/e-invoice` gives it) when the document can be a valid e-invoice; otherwise the PDF goes alone and the sending’s `eInvoice.missing` names what was lacking. '
                : '') +
              'The outbox sends it and retries while the mail server is unreachable; the sending’s `status` tells how it went. ' +
              (kind.type === 'quotation'
                ? 'The e-mail carries a link to the customer’s page, where they accept or decline. Only an `approved` quotation is sent (409 `quotation_not_open`). '
                : '') +
              '503 `unavailable` when the server has no SMTP configured.',
            security,
            params: IdParams,
            body: Type.Optional(SendBody),
            response: { 202: Data(Sending), ...errorResponses(400, 404, 409, 503) },
          },
        },
        async (request, reply) => {
          const sending = await c.documentMail.send(
            { companyId: request.admin.companyId, userId: request.admin.userId },
            { type: kind.type, id: request.params.id },
            request.body ?? {},
            baseUrl(c.config, request),
          );
          return reply.status(202).send({ data: present(sending) });
        },
      );
      app.get(
        `/${kind.path}/:id/sendings`,
        {
          schema: {
            tags: ['Admin'],
            operationId: kind.list,
            summary: `The ${kind.name}'s sendings by e-mail, oldest first`,
            security,
            params: IdParams,
            response: { 200: Data(Type.Array(Sending)), ...errorResponses(404) },
          },
        },
        async (request) => {
          const { companyId } = request.admin;
          // The document first: another company's id is "not found", never an empty list.
          if (kind.type === 'quotation') await c.quotations.get(companyId, request.params.id);
          else await c.sales.get(companyId, request.params.id);
          return { data: (await c.documentMail.listSendings(companyId, kind.type, request.params.id)).map(present) };
        },
      );
    }
  };
