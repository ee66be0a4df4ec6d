import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ExportQuery, JsonOrSheet, everyPage, exportFormat, exportLocale, sendTable } from '../export-reply.ts';
import { quotationsListTable } from '../../modules/reports/index.ts';
import { translator } from '../../modules/i18n/index.ts';
import { said } from '../request-messages.ts';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import { AppError } from '../../lib/errors.ts';
import { QUOTATION_STATUSES, type QuotationView } from '../../modules/quotations/index.ts';
import { Data, Money, MoneyOf, Nullable, Pagination, Quantity, Timestamp, errorResponses } from '../schemas.ts';
import { ConvertPaymentMethod, IssueDetails } from '../requests/sales.ts';
import { CancelBody } from '../requests/documents.ts';
import { newestFirstPage } from './pagination.ts';
import { DirectoryCustomer, presentAdminQuotation, Quotation } from '../public/v1/quotes.routes.ts';
import { baseUrl } from '../base-url.ts';
import { FormatQuery, PdfOrJson, reservePrint, sendPdf, wantsPdf } from '../pdf-reply.ts';
import { idempotentCreate } from '../idempotency.ts';
import { PERMISSIONS } from '../access.ts';
import { Sale, presentSale } from './sales.routes.ts';
import { QuotationRevisionBody, StaffQuotationBody, toStaffQuotation } from '../requests/quotations.ts';

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

/** The quotation as the hub sees it: the public shape plus its state and links. */
export const AdminQuotation = Type.Object(
  {
    ...Quotation.properties,
    status: Type.Enum(QUOTATION_STATUSES, {
      description:
        '`approved` (as created by the API) → `accepted` | `declined` (the customer on their page) → `converted` | `cancelled`; `approved` and `accepted` convert and cancel.',
    }),
    directoryCustomer: DirectoryCustomer,
    expired: Type.Boolean({
      description: 'Past `expiresAt`; derived, never a stored state. Only an admin converts it, with `reprice`.',
    }),
    saleId: Nullable(Type.String({ description: 'The sale it was converted to.' })),
    cancelledAt: Nullable(Timestamp),
    cancellationReason: Nullable(Type.String()),
    revision: Type.Integer({
      minimum: 1,
      description: '1 for a new quotation; a revision keeps the id and suffixes the number (`Q-ZG1-2026-00042-2`).',
    }),
    revisedAt: Nullable(Timestamp),
    createdBy: Nullable(Type.String({ description: 'The hub user who made it; null when an API key did.' })),
  },
  { additionalProperties: false },
);

const RevisionSummary = Type.Object(
  {
    revision: Type.Integer({ minimum: 1 }),
    number: Type.String({ examples: ['Q-ZG1-2026-00042'] }),
    createdAt: Timestamp,
    total: MoneyOf('Total with tax.'),
    replacedAt: Nullable(Timestamp),
    replacedBy: Nullable(Type.String({ description: 'The user whose revision replaced it.' })),
    current: Type.Boolean(),
  },
  { additionalProperties: false },
);

const RevisionDetail = Type.Object(
  {
    revision: Type.Integer({ minimum: 1 }),
    number: Type.String(),
    createdAt: Timestamp,
    lines: Type.Array(Quotation.properties.lines.items),
    totals: Quotation.properties.totals,
  },
  { additionalProperties: false },
);

const RevisionParams = Type.Object({ id: Type.String({ maxLength: 64 }), revision: Type.Integer({ minimum: 1 }) });

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
          quantity: Quantity,
          note: Nullable(Type.String()),
          quotedUnitPrice: Money,
          currentUnitPrice: Nullable(MoneyOf('null when the product or the unit is gone from the catalog.')),
          discountPercent: Type.String({ description: "The quoted discount, kept at today's prices." }),
          quotedLineTotal: MoneyOf('The line with tax, as quoted (after its discount).'),
          currentLineTotal: Nullable(MoneyOf("The line with tax at today's price and the same discount.")),
          change: Type.Enum(['unchanged', 'price_changed', 'tax_changed', 'product_removed', 'unit_removed'] as const),
        },
        { additionalProperties: false },
      ),
    ),
    quotedTotal: Money,
    currentTotal: Nullable(MoneyOf("At today's prices; null when some line can no longer be priced.")),
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
      revision: q.revision,
      revisedAt: q.revisedAt,
      createdBy: q.createdBy,
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

    app.post(
      '/quotations',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminCreateQuotation',
          summary: 'Make a quotation for a customer (the hub\'s "New quotation")',
          security,
          description:
            'The public `POST /quotes` body, plus a directory customer (`customerId`) or a typed one (`customer`), a discount per line ' +
            '(`lines[].discountPercent`) and the location (`locationId`, default the first). Priced, numbered and printed as the public API does, ' +
            'the caller recorded as its maker (`createdBy`). Supports `Idempotency-Key`. Fires `quote.created`.',
          headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String()) }),
          querystring: FormatQuery,
          body: StaffQuotationBody,
          response: { 201: PdfOrJson('The quotation.', Data(AdminQuotation)), ...errorResponses(400, 404, 409, 503) },
        },
      },
      async (request, reply) => {
        const actor = { companyId: request.admin.companyId, userId: request.admin.userId };
        const input = toStaffQuotation(request.body);
        const pdf = input.format === 'pdf' || (input.format === undefined && wantsPdf(request, request.query.format));
        const slot = pdf ? reservePrint(c, reply) : null;
        const quotation = await idempotentCreate(
          request,
          reply,
          c.idempotency,
          () => c.quotations.createByStaff(actor, input),
          (id) => c.quotations.get(actor.companyId, id),
        );
        reply.status(201).header('location', `/api/v1/admin/quotations/${quotation.id}`);
        if (slot) return sendPdf(reply, await c.quotations.renderPdf(actor.companyId, quotation.id, slot));
        return presentHubQuotation(quotation, baseUrl(c.config, request));
      },
    );

    app.put(
      '/quotations/:id',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminReviseQuotation',
          summary: 'Revise an open quotation: same id, new lines, the number with a revision suffix',
          security,
          description:
            'Only an open quotation: `approved` (not converted or cancelled; 409 `quotation_not_open`) and unexpired (409 `quotation_expired`). ' +
            'The body says the whole quotation again (as `POST /quotations`, at its own location). The quotation keeps its id, so a link to it ' +
            'shows the newest; its number gains the revision (`Q-ZG1-2026-00042-2`, `-3`, …); the revision it replaces stays readable ' +
            '(`GET /quotations/{id}/revisions`). A concurrent conversion or revision wins and this is a 409. Fires `quote.revised`.',
          params: IdParams,
          body: QuotationRevisionBody,
          response: { 200: Data(AdminQuotation), ...errorResponses(400, 404, 409) },
        },
      },
      async (request) => {
        const actor = { companyId: request.admin.companyId, userId: request.admin.userId };
        const quotation = await c.quotations.reviseByStaff(actor, request.params.id, toStaffQuotation(request.body));
        return presentHubQuotation(quotation, baseUrl(c.config, request));
      },
    );

    app.get(
      '/quotations/:id/revisions',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminListQuotationRevisions',
          summary: 'Every revision of a quotation, the first first and the current one last',
          security,
          params: IdParams,
          response: { 200: Data(Type.Array(RevisionSummary)), ...errorResponses(404) },
        },
      },
      async (request) => ({ data: await c.quotations.revisions(request.admin.companyId, request.params.id) }),
    );

    app.get(
      '/quotations/:id/revisions/:revision',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminGetQuotationRevision',
          summary: 'An earlier revision as it was: JSON, or its PDF with `Accept: application/pdf` or `?format=pdf`',
          security,
          params: RevisionParams,
          querystring: FormatQuery,
          response: { 200: PdfOrJson('The revision.', Data(RevisionDetail)), ...errorResponses(404, 503) },
        },
      },
      async (request, reply) => {
        const { id, revision } = request.params;
        const companyId = request.admin.companyId;
        if (wantsPdf(request, request.query.format))
          return sendPdf(reply, await c.quotations.renderRevisionPdf(companyId, id, revision, reservePrint(c, reply)));
        const found = await c.quotations.revision(companyId, id, revision);
        return {
          data: {
            ...found,
            lines: found.lines.map(({ hasDatasheet: _h, ...line }) => line),
          },
        };
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
                ...IssueDetails,
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
            said('error.reprice.roles', { roles: PERMISSIONS['quotations:reprice'].join(' or ') }),
          );
        }
        const actor = { companyId: request.admin.companyId, userId: request.admin.userId };
        const sale = await idempotentCreate(
          request,
          reply,
          c.idempotency,
          () =>
            c.quotations.convert(actor, request.params.id, {
              reprice,
              paymentMethod: request.body?.paymentMethod,
              deliveryDate: request.body?.deliveryDate ?? null,
              orderReference: request.body?.orderReference ?? null,
            }),
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
