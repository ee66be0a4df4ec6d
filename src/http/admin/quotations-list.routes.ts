import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ExportQuery, JsonOrSheet, listOrSheet } from '../export-reply.ts';
import { quotationsListTable } from '../../modules/reports/index.ts';
import { translator } from '../../modules/i18n/index.ts';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import { QUOTATION_STATUSES } from '../../modules/quotations/index.ts';
import { Data, Nullable, Pagination, errorResponses } from '../schemas.ts';
import { newestFirstPage } from './pagination.ts';
import { baseUrl } from '../base-url.ts';
import { FormatQuery, PdfOrJson, reservePrint, sendPdf, wantsPdf } from '../pdf-reply.ts';
import { idempotentCreate } from '../idempotency.ts';
import { QuotationRevisionBody, StaffQuotationBody, toStaffQuotation } from '../requests/quotations.ts';
import { AdminQuotation, presentHubQuotation } from './quotations.schemas.ts';

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

/** Quotations: the list (JSON, CSV or XLSX), one (JSON or PDF), a new one and a revision of one. */
export const quotationsListRoutes =
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
        return listOrSheet(request, reply, {
          page: async (query) => {
            const page = newestFirstPage(query);
            const rows = await c.quotations.list(companyId, page, { status, q, locationId, mode });
            return page.page(rows.map((row) => presentHubQuotation(row, base).data));
          },
          firstPage: request.query,
          company: () => c.reports.company(companyId),
          table: (rows, locale, timeZone) => {
            const tr = translator(locale);
            return quotationsListTable(rows, locale, timeZone, (s) =>
              tr(`status.quotation.${s}` as 'status.quotation.approved'),
            );
          },
          name: 'quotations',
        });
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
  };
