import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ExportQuery, JsonOrSheet, everyPage, exportFormat, exportLocale, sendTable } from '../export-reply.ts';
import { quotationsListTable } from '../../modules/reports/index.ts';
import { translator } from '../../modules/i18n/index.ts';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import { AppError } from '../../lib/errors.ts';
import { QUOTATION_STATUSES, type QuotationView } from '../../modules/quotations/index.ts';
import { Data, Nullable, Pagination, Timestamp, errorResponses } from '../schemas.ts';
import { ConvertPaymentMethod } from '../requests/sales.ts';
import { CancelBody } from '../requests/documents.ts';
import { newestFirstPage } from './pagination.ts';
import { DirectoryCustomer, presentAdminQuotation, Quotation } from '../public/v1/quotes.routes.ts';
import { baseUrl } from '../base-url.ts';
import { FormatQuery, PdfOrJson, reservePrint, sendPdf, wantsPdf } from '../pdf-reply.ts';
import { idempotentCreate } from '../idempotency.ts';
import { PERMISSIONS } from '../access.ts';
import { Sale, presentSale } from './sales.routes.ts';

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

/** The quotation as the hub sees it: the public shape plus its state and links. */
export const AdminQuotation = Type.Object(
  {
    ...Quotation.properties,
    status: Type.Enum(QUOTATION_STATUSES, {
      description: '`approved` (as created by the API) → `converted` | `cancelled`.',
    }),
    directoryCustomer: DirectoryCustomer,
    expired: Type.Boolean({
      description: 'Past `expiresAt`; derived, never a stored state. Only an admin converts it, with `reprice`.',
    }),
    saleId: Nullable(Type.String({ description: 'The sale it was converted to.' })),
    cancelledAt: Nullable(Timestamp),
    cancellationReason: Nullable(Type.String()),
  },
  { additionalProperties: false },
);

const ConversionPreview = Type.Object(
  {
    status: Type.String(),
    expired: Type.Boolean(),
    lines: Type.Array(
      Type.Object(
        {
          position: Type.Integer(),
          productId: Type.String(),
          unitId: Type.String(),
          productName: Type.String(),
          unitName: Type.String(),
          quantity: Type.String(),
          note: Nullable(Type.String()),
          quotedUnitPrice: Type.String(),
          currentUnitPrice: Nullable(
            Type.String({ description: 'null when the product or the unit is gone from the catalog.' }),
          ),
          change: Type.Enum(['unchanged', 'price_changed', 'tax_changed', 'product_removed', 'unit_removed'] as const),
        },
        { additionalProperties: false },
      ),
    ),
    quotedTotal: Type.String(),
    currentTotal: Nullable(
      Type.String({ description: "At today's prices; null when some line can no longer be priced." }),
    ),
  },
  { additionalProperties: false },
);

/** The hub's quotation: the admin shape (with the directory customer) and its state. */
export function presentHubQuotation(q: QuotationView, base: string) {
  return {
    data: {
      ...presentAdminQuotation(q, base).data,
      expired: q.expired,
      saleId: q.saleId,
      cancelledAt: q.cancelledAt,
      cancellationReason: q.cancellationReason,
    },
  };
}

/** Quotations in the hub: the list, one (JSON or PDF), and the ways out of `approved`. */
export const quotationsRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    const security = [{ adminToken: [] }];

    app.get(
      '/quotations',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminListQuotations',
          summary: 'Quotations, newest first',
          security,
          description:
            '`q` matches the start of the number (case-insensitive: `q-zg1-2026-000`) or the start of the customer name as sent, ' +
            'case and diacritics folded (`ana kov` finds "Ana Kovač"; a word in the middle does not match).',
          querystring: Type.Object(
            {
              ...Pagination,
              status: Type.Optional(Type.Enum(QUOTATION_STATUSES)),
              q: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
              locationId: Type.Optional(Type.String({ maxLength: 64 })),
              mode: Type.Optional(
                Type.Union([Type.Literal('live'), Type.Literal('test')], {
                  description: '`live` (the default) or `test`: data made with test keys, never both.',
                }),
              ),
              ...ExportQuery,
            },
            { additionalProperties: false },
          ),
          response: {
            200: JsonOrSheet(
              'A page of quotations; with `format=csv|xlsx`, every quotation the filters select (at most 20,000), without paging.',
              Type.Object({ data: Type.Array(AdminQuotation), nextCursor: Nullable(Type.String()) }),
            ),
            ...errorResponses(400),
          },
        },
      },
      async (request, reply) => {
        const { status, q, locationId, mode } = request.query;
        const companyId = request.admin.companyId;
        const base = baseUrl(c.config, request);
        const list = async (query: { limit?: number; cursor?: string }) => {
          const page = newestFirstPage(query);
          const rows = await c.quotations.list(companyId, page, { status, q, locationId, mode });
          return page.page(rows.map((row) => presentHubQuotation(row, base).data));
        };
        const format = exportFormat(request, request.query.format);
        if (format === 'json') return list(request.query);
        const rows = await everyPage(list);
        const company = await c.reports.company(companyId);
        const locale = exportLocale(request.query.locale, company.locale);
        const tr = translator(locale);
        const table = quotationsListTable(rows, locale, company.timeZone, (s) =>
          tr(`status.quotation.${s}` as 'status.quotation.approved'),
        );
        return sendTable(reply, table, format, locale, 'quotations');
      },
    );

    app.get(
      '/quotations/:id',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminGetQuotation',
          summary: 'One quotation: JSON, or PDF with `Accept: application/pdf` or `?format=pdf`',
          security,
          params: IdParams,
          querystring: FormatQuery,
          response: { 200: PdfOrJson('The quotation.', Data(AdminQuotation)), ...errorResponses(404, 503) },
        },
      },
      async (request, reply) => {
        const quotation = await c.quotations.get(request.admin.companyId, request.params.id);
        if (!wantsPdf(request, request.query.format)) return presentHubQuotation(quotation, baseUrl(c.config, request));
        return sendPdf(
          reply,
          await c.quotations.renderPdf(request.admin.companyId, quotation.id, reservePrint(c, reply)),
        );
      },
    );

    app.get(
      '/quotations/:id/conversion',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminPreviewQuotationConversion',
          summary: 'What converting would give: quoted and current prices, line by line',
          security,
          params: IdParams,
          response: { 200: Data(ConversionPreview), ...errorResponses(404) },
        },
      },
      async (request) => ({ data: await c.quotations.conversionPreview(request.admin.companyId, request.params.id) }),
    );

    app.post(
      '/quotations/:id/convert',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminConvertQuotation',
          summary: 'Convert an approved quotation into a sale',
          security,
          description:
            'Needs a directory customer (409 `customer_required`), an `approved` quotation (409 `quotation_not_open`) and an unexpired one ' +
            "(409 `quotation_expired`) unless an admin sends `reprice: true`, which prices every line at today's catalog price (a line whose product " +
            'or unit is gone is a 409 naming it). Issues the invoice: its legal number, `paymentMethod` (default `bank_transfer`), the caller as operator. Supports `Idempotency-Key`. Fires `sale.created`.',
          params: IdParams,
          headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String()) }),
          body: Type.Optional(
            Type.Object(
              {
                reprice: Type.Optional(
                  Type.Boolean({ default: false, description: "Admins only: price the lines at today's prices." }),
                ),
                paymentMethod: ConvertPaymentMethod,
              },
              { additionalProperties: false },
            ),
          ),
          response: { 201: Data(Sale), ...errorResponses(400, 403, 404, 409, 422) },
        },
      },
      async (request, reply) => {
        const reprice = request.body?.reprice === true;
        if (reprice && !(PERMISSIONS['quotations:reprice'] as readonly string[]).includes(request.admin.role)) {
          throw new AppError(
            'forbidden',
            `Converting at today's prices needs the ${PERMISSIONS['quotations:reprice'].join(' or ')} role.`,
          );
        }
        const actor = { companyId: request.admin.companyId, userId: request.admin.userId };
        const sale = await idempotentCreate(
          request,
          reply,
          c.idempotency,
          () => c.quotations.convert(actor, request.params.id, { reprice, paymentMethod: request.body?.paymentMethod }),
          (id) => c.sales.get(actor.companyId, id),
        );
        return reply.status(201).header('location', `/api/v1/admin/sales/${sale.id}`).send(presentSale(sale));
      },
    );

    app.post(
      '/quotations/:id/cancel',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminCancelQuotation',
          summary: 'Cancel an approved quotation',
          security,
          params: IdParams,
          body: CancelBody,
          response: { 200: Data(AdminQuotation), ...errorResponses(400, 404, 409) },
        },
      },
      async (request) => {
        await c.quotations.cancel(request.admin.companyId, request.params.id, request.body.reason);
        return presentHubQuotation(
          await c.quotations.get(request.admin.companyId, request.params.id),
          baseUrl(c.config, request),
        );
      },
    );
  };
