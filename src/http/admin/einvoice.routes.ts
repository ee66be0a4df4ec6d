import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import { AppError } from '../../lib/errors.ts';
import { said } from '../request-messages.ts';
import {
  EXCHANGE_PROVIDERS,
  PURCHASE_PAYMENT_METHODS,
  PURCHASE_STATUSES,
  REJECTION_TYPES,
  purchaseBookTable,
} from '../../modules/einvoice/index.ts';
import { fileHeaders } from '../file-reply.ts';
import { ExportQuery, exportFormat, exportLocale, sendTable } from '../export-reply.ts';
import { Data, Money, MoneyInput, Nullable, Timestamp, errorResponses } from '../schemas.ts';

const security = [{ adminToken: [] }];
const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) }, { additionalProperties: false });
const Day = Type.String({ format: 'date', description: 'YYYY-MM-DD' });

const ExchangeSettings = Type.Object(
  {
    configured: Type.Boolean({ description: 'An exchange is set up: received invoices are polled.' }),
    provider: Nullable(Type.Enum(EXCHANGE_PROVIDERS)),
    username: Nullable(Type.String()),
    companyId: Nullable(Type.String({ description: "The company's OIB as registered with the intermediary." })),
    softwareId: Nullable(Type.String()),
    businessUnit: Nullable(Type.String()),
    baseUrl: Nullable(Type.String()),
    inbox: Type.Object(
      {
        checkedAt: Nullable(Timestamp),
        error: Nullable(Type.String({ description: 'Why the last poll of the inbox failed; null after a good one.' })),
      },
      { additionalProperties: false },
    ),
    updatedAt: Nullable(Timestamp),
  },
  { additionalProperties: false, description: 'The password is never returned.' },
);

const ExchangeBody = Type.Object(
  {
    provider: Type.Enum(EXCHANGE_PROVIDERS),
    username: Type.String({ maxLength: 200 }),
    password: Type.Optional(
      Type.String({ maxLength: 500, description: 'Required the first time; left out, the stored one is kept.' }),
    ),
    companyId: Type.String({ maxLength: 20, description: "The company's OIB (CompanyId at moj-eRačun)." }),
    softwareId: Type.String({ maxLength: 100, description: 'The SoftwareId the intermediary gave this software.' }),
    businessUnit: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
    baseUrl: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 300,
          description: "https only; default the provider's production address (moj-eRačun: https://www.moj-eracun.hr).",
        }),
      ),
    ),
  },
  { additionalProperties: false },
);

const Report = Type.Object(
  {
    status: Type.Enum(['pending', 'done', 'failed'] as const),
    attempts: Type.Integer(),
    lastError: Nullable(Type.String()),
    doneAt: Nullable(Timestamp),
  },
  { additionalProperties: false, description: 'The rejection reported through the exchange (outbox).' },
);

const PurchaseInvoice = Type.Object(
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

/** The e-invoice exchange's settings and received (purchase) invoices. Admins; staff read received invoices. */
export const einvoiceRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/einvoice/exchange',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminGetExchange',
          summary: "The company's e-invoice exchange (information intermediary): its settings, never the password",
          security,
          response: { 200: Data(ExchangeSettings), ...errorResponses(403) },
        },
      },
      async (request) => ({ data: await c.exchangeSettings.get(request.admin.companyId) }),
    );

    app.put(
      '/einvoice/exchange',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminSetExchange',
          summary: 'Set up the e-invoice exchange: moj-eRačun credentials, the password stored sealed',
          security,
          body: ExchangeBody,
          response: { 200: Data(ExchangeSettings), ...errorResponses(400, 403) },
        },
      },
      async (request) => ({ data: await c.exchangeSettings.save(request.admin.companyId, request.body) }),
    );

    app.delete(
      '/einvoice/exchange',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminDeleteExchange',
          summary: 'Forget the e-invoice exchange and its sealed password',
          security,
          response: { 204: Type.Null(), ...errorResponses(403, 404) },
        },
      },
      async (request, reply) => {
        await c.exchangeSettings.remove(request.admin.companyId);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/einvoice/exchange/check',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminCheckExchange',
          summary: 'One authenticated call to the intermediary: address, TLS and credentials',
          security,
          response: {
            200: Data(
              Type.Object(
                { ok: Type.Boolean(), baseUrl: Type.String(), millis: Type.Integer(), message: Type.String() },
                { additionalProperties: false },
              ),
            ),
            ...errorResponses(403, 409),
          },
        },
      },
      async (request) => ({ data: await c.exchangeSettings.check(request.admin.companyId) }),
    );

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

    app.get(
      '/reports/purchases',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminReportPurchases',
          summary: 'The book of received invoices (U-RA): by issue date, VAT per rate; JSON, CSV or XLSX',
          security,
          querystring: Type.Object({ from: Day, to: Day, ...ExportQuery }, { additionalProperties: false }),
          response: {
            200: {
              description: 'The book: JSON (`data`), CSV or XLSX.',
              content: {
                'application/json': { schema: Data(Type.Array(PurchaseInvoice)) },
                'text/csv': { schema: Type.String() },
                'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { schema: Type.String() },
              },
            },
            ...errorResponses(400, 403),
          },
        },
      },
      async (request, reply) => {
        const { from, to } = request.query;
        if (to < from) throw AppError.invalid({ to: [said('error.report.range')] });
        const companyId = request.admin.companyId;
        const book = await c.purchaseInvoices.book(companyId, from, to);
        const format = exportFormat(request, request.query.format);
        if (format === 'json') return { data: book };
        const company = await c.reports.company(companyId);
        const locale = exportLocale(request.query.locale, company.locale);
        return sendTable(reply, purchaseBookTable(book, locale), format, locale, `purchases-${from}-${to}`);
      },
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
