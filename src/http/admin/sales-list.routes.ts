import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import { AppError } from '../../lib/errors.ts';
import { MONEY_SCALE, parseScaled } from '../../lib/money.ts';
import { SALE_STATUSES } from '../../modules/sales/index.ts';
import { Data, Nullable, Pagination, errorResponses } from '../schemas.ts';
import { newestFirstPage } from './pagination.ts';
import { PdfOrJson, reservePrint, sendIssued, wantsPdf } from '../pdf-reply.ts';
import { ExportQuery, JsonOrSheet, listOrSheet } from '../export-reply.ts';
import { salesListTable } from '../../modules/reports/index.ts';
import { translator } from '../../modules/i18n/index.ts';
import { said } from '../request-messages.ts';
import { Sale, presentSale } from './sales.schemas.ts';

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

/** Sales: the list (JSON, CSV or XLSX) and one sale (JSON or its PDF). */
export const salesListRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    const security = [{ adminToken: [] }];

    app.get(
      '/sales',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminListSales',
          summary: 'Sales, newest first',
          security,
          querystring: Type.Object(
            {
              ...Pagination,
              status: Type.Optional(Type.Enum(SALE_STATUSES)),
              locationId: Type.Optional(Type.String({ maxLength: 64 })),
              customerId: Type.Optional(Type.String({ maxLength: 64 })),
              from: Type.Optional(Type.String({ format: 'date-time', description: 'Created at or after.' })),
              to: Type.Optional(Type.String({ format: 'date-time', description: 'Created before.' })),
              q: Type.Optional(
                Type.String({
                  maxLength: 100,
                  description:
                    "The start of the number or the legal number (`12/ZG1`), a part of the customer's name, or at least four digits of their tax id (OIB).",
                }),
              ),
              amount: Type.Optional(
                Type.String({
                  pattern: '^\\d+(\\.\\d{1,2})?$',
                  maxLength: 20,
                  description: 'The gross total exactly, such as `333.79`.',
                }),
              ),
              mode: Type.Optional(
                Type.Union([Type.Literal('live'), Type.Literal('test')], {
                  description: '`live` (the default) or `test`: sales converted from test documents, never both.',
                }),
              ),
              ...ExportQuery,
            },
            { additionalProperties: false },
          ),
          response: {
            200: JsonOrSheet(
              'A page of sales; with `format=csv|xlsx`, every sale the filters select (at most 20,000), without paging.',
              Type.Object({ data: Type.Array(Sale), nextCursor: Nullable(Type.String()) }),
            ),
            ...errorResponses(400),
          },
        },
      },
      async (request, reply) => {
        const { status, locationId, customerId, from, to, mode, q, amount } = request.query;
        const companyId = request.admin.companyId;
        const filter = {
          status,
          locationId,
          customerId,
          from: instant(from, 'from'),
          to: instant(to, 'to'),
          mode,
          ...(q?.trim() ? { q } : {}),
          ...(amount === undefined ? {} : { totalMinor: Number(parseScaled(amount, MONEY_SCALE)) }),
        };
        return listOrSheet(request, reply, {
          page: async (query) => {
            const page = newestFirstPage(query);
            return page.page(await c.sales.list(companyId, filter, page));
          },
          firstPage: request.query,
          company: () => c.reports.company(companyId),
          table: (rows, locale, timeZone) => {
            const tr = translator(locale);
            return salesListTable(rows, locale, timeZone, (s) => tr(`status.sale.${s}` as 'status.sale.paid'));
          },
          name: 'sales',
        });
      },
    );

    app.get(
      '/sales/:id',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminGetSale',
          summary: 'One sale: JSON, or PDF with `Accept: application/pdf` or `?format=pdf`',
          description:
            "A German company's invoice PDF is a Factur-X / ZUGFeRD (EN 16931) PDF/A-3 with the CII XML embedded as `factur-x.xml` whenever the document is a valid e-invoice (header `E-Invoice-Embedded: factur-x.xml`); `?format=facturx` asks for that hybrid PDF for any company, and is a 409 naming the missing fields when the document cannot be one.",
          security,
          params: IdParams,
          querystring: Type.Object(
            {
              format: Type.Optional(Type.Union([Type.Literal('pdf'), Type.Literal('json'), Type.Literal('facturx')])),
              layout: Type.Optional(
                Type.Union([Type.Literal('a4'), Type.Literal('receipt')], {
                  description: 'The PDF on A4 (default) or on an 80 mm receipt roll: the same content.',
                }),
              ),
            },
            { additionalProperties: false },
          ),
          response: { 200: PdfOrJson('The sale.', Data(Sale)), ...errorResponses(404, 503) },
        },
      },
      async (request, reply) => {
        const sale = await c.sales.get(request.admin.companyId, request.params.id);
        const format = request.query.format;
        if (format !== 'facturx' && !wantsPdf(request, format)) return presentSale(sale);
        // As issued: stored at its first read, the same bytes (and ETag) ever after.
        const issued = await c.invoicing.file(
          request.admin.companyId,
          sale.id,
          format === 'facturx' ? 'facturx' : request.query.layout === 'receipt' ? 'receipt' : 'a4',
          { slot: () => reservePrint(c, reply) },
        );
        if (issued.hybrid) reply.header('e-invoice-embedded', 'factur-x.xml');
        return sendIssued(request, reply, issued, `${issued.number}.pdf`, 'application/pdf');
      },
    );
  };

/** A date-time filter as the ISO UTC text stored timestamps compare with. */
function instant(value: string | undefined, field: string): string | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) throw AppError.invalid({ [field]: [said('error.timestamp.range')] });
  return new Date(ms).toISOString();
}
