import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import { AppError } from '../../lib/errors.ts';
import { said } from '../request-messages.ts';
import { PURCHASE_PAYMENT_METHODS, PURCHASE_STATUSES, REJECTION_TYPES } from '../../modules/einvoice/index.ts';
import { fileHeaders } from '../file-reply.ts';
import { Data, Money, MoneyInput, Nullable, Timestamp, errorResponses } from '../schemas.ts';

const security = [{ adminToken: [] }];
const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) }, { additionalProperties: false });
export const Day = Type.String({ format: 'date', description: 'YYYY-MM-DD' });

const Report = Type.Object(
  {
    status: Type.Enum(['pending', 'done', 'failed'] as const),
    attempts: Type.Integer(),
    lastError: Nullable(Type.String()),
    doneAt: Nullable(Timestamp),
  },
  { additionalProperties: false, description: 'The rejection reported through the exchange (outbox).' },
);

export const PurchaseInvoice = Type.Object(
  {
    id: Type.String(),
    source: Type.Enum(['exchange', 'upload'] as const),
    exchangeDocumentId: Nullable(Type.String()),
    syntax: Type.Enum(['ubl', 'cii'] as const),
    typeCode: Type.String({ description: 'UNTDID 1001: 380 invoice, 381 credit note, …' }),
    number: Type.String(),
    issueDate: Type.String(),
    dueDate: Nullable(Type.String()),
    currency: Type.String(),
    supplier: Type.Object(
      { name: Type.String(), oib: Nullable(Type.String()), vatId: Nullable(Type.String()) },
      { additionalProperties: false },
    ),
    totals: Type.Object(
      { net: Money, tax: Money, total: Money, payable: Money, paid: Money, due: Money },
      { additionalProperties: false },
    ),
    iban: Nullable(Type.String()),
    paymentReference: Nullable(Type.String()),
    status: Type.Enum(PURCHASE_STATUSES),
    rejection: Nullable(
      Type.Object(
        { type: Type.Enum(REJECTION_TYPES), reason: Type.String(), at: Timestamp, report: Nullable(Report) },
        { additionalProperties: false },
      ),
    ),
    decidedAt: Nullable(Timestamp),
    receivedAt: Timestamp,
    xmlSha256: Type.String({ description: 'SHA-256 of the original bytes, as kept.' }),
  },
  { additionalProperties: true },
);

/** Received (purchase) invoices: the list, one (JSON or its original XML), accept, reject, payments, and an upload of one received another way. Staff read them. */
export const purchaseInvoicesRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/purchase-invoices',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminListPurchaseInvoices',
          summary: 'Received e-invoices, newest issue date first (at most 200)',
          security,
          querystring: Type.Object(
            {
              status: Type.Optional(Type.Enum(PURCHASE_STATUSES)),
              supplier: Type.Optional(
                Type.String({ maxLength: 200, description: 'Name (part of it), OIB or VAT id.' }),
              ),
              from: Type.Optional(Day),
              to: Type.Optional(Day),
              limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 100 })),
            },
            { additionalProperties: false },
          ),
          response: { 200: Data(Type.Array(PurchaseInvoice)), ...errorResponses(400, 403) },
        },
      },
      async (request) => {
        const { limit, ...filter } = request.query;
        return { data: await c.purchaseInvoices.list(request.admin.companyId, filter, limit ?? 100) };
      },
    );

    app.get(
      '/purchase-invoices/:id',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminGetPurchaseInvoice',
          summary: 'A received e-invoice: its parsed lines, VAT, payments; `?format=xml` the original bytes',
          security,
          params: IdParams,
          querystring: Type.Object(
            { format: Type.Optional(Type.Enum(['json', 'xml'] as const)) },
            { additionalProperties: false },
          ),
          response: {
            200: {
              description: 'The invoice as JSON (`data`), or the original XML byte for byte.',
              content: {
                'application/json': { schema: Data(PurchaseInvoice) },
                'application/xml': { schema: Type.String() },
              },
            },
            ...errorResponses(400, 403, 404),
          },
        },
      },
      async (request, reply) => {
        if (request.query.format === 'xml') {
          const { number, bytes } = await c.purchaseInvoices.originalXml(request.admin.companyId, request.params.id);
          return fileHeaders(reply, 'uploaded', `${number}.xml`).type('application/xml').send(bytes);
        }
        return { data: await c.purchaseInvoices.get(request.admin.companyId, request.params.id) };
      },
    );

    app.post(
      '/purchase-invoices/:id/accept',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminAcceptPurchaseInvoice',
          summary: 'Accept (book) a received invoice',
          security,
          params: IdParams,
          response: { 200: Data(PurchaseInvoice), ...errorResponses(403, 404, 409) },
        },
      },
      async (request) => ({
        data: await c.purchaseInvoices.accept(request.admin.companyId, request.params.id, request.admin.userId),
      }),
    );

    app.post(
      '/purchase-invoices/:id/reject',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminRejectPurchaseInvoice',
          summary: 'Reject a received invoice; one that came through the exchange has the rejection reported there',
          description:
            'Reason type as EvidentirajOdbijanje takes it (specification v1.15 §5.1.2.6): `N` a data mismatch not affecting the VAT, `U` a mismatch affecting the VAT, `O` other; the text is required. Rejecting declares that no input VAT is claimed on it (Zakon o fiskalizaciji art. 52(3)).',
          security,
          params: IdParams,
          body: Type.Object(
            { type: Type.Enum(REJECTION_TYPES), reason: Type.String({ minLength: 1, maxLength: 1024 }) },
            { additionalProperties: false },
          ),
          response: { 200: Data(PurchaseInvoice), ...errorResponses(400, 403, 404, 409) },
        },
      },
      async (request) => ({
        data: await c.purchaseInvoices.reject(
          request.admin.companyId,
          request.params.id,
          request.admin.userId,
          request.body,
        ),
      }),
    );

    app.post(
      '/purchase-invoices/:id/payments',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminRecordPurchasePayment',
          summary: 'Record a payment made on a received invoice',
          security,
          params: IdParams,
          body: Type.Object(
            { amount: MoneyInput({ signed: true }), date: Day, method: Type.Enum(PURCHASE_PAYMENT_METHODS) },
            { additionalProperties: false },
          ),
          response: { 201: Data(PurchaseInvoice), ...errorResponses(400, 403, 404, 409) },
        },
      },
      async (request, reply) =>
        reply.status(201).send({
          data: await c.purchaseInvoices.recordPayment(
            request.admin.companyId,
            request.params.id,
            request.admin.userId,
            request.body,
          ),
        }),
    );

    app.register(async (plain) => {
      const uploads = plain.withTypeProvider<TypeBoxTypeProvider>();
      const limit = 20 * 1024 * 1024;
      uploads.addContentTypeParser(
        ['application/xml', 'text/xml'],
        { parseAs: 'buffer', bodyLimit: limit },
        (_request, body, done) => done(null, body),
      );
      uploads.post(
        '/purchase-invoices',
        {
          bodyLimit: limit,
          schema: {
            tags: ['Admin'],
            operationId: 'adminUploadPurchaseInvoice',
            summary: 'File an e-invoice received another way (e.g. an XRechnung by e-mail): the raw XML body',
            description:
              'UBL 2.1 Invoice or CreditNote, or CII D16B, as `application/xml`; kept byte for byte. The same bytes twice are a 409.',
            security,
            response: { 201: Data(PurchaseInvoice), ...errorResponses(400, 403, 409, 413, 415) },
          },
        },
        async (request, reply) => {
          if (!Buffer.isBuffer(request.body))
            throw new AppError('unsupported_media_type', said('error.purchase.rawBody'));
          const { view } = await c.purchaseInvoices.file(request.admin.companyId, {
            bytes: request.body,
            source: 'upload',
          });
          return reply
            .status(201)
            .header('location', `/api/v1/admin/purchase-invoices/${view.id}`)
            .send({ data: view });
        },
      );
    });
  };
