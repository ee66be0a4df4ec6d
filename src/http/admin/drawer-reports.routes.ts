import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import { Data, errorResponses } from '../schemas.ts';
import { PdfOrJson, reservePrint, sendPdf, wantsPdf } from '../pdf-reply.ts';
import { ExportQuery, JsonOrSheet, exportFormat, exportLocale, sendTable } from '../export-reply.ts';
import { AppError } from '../../lib/errors.ts';
import { said } from '../request-messages.ts';
import { DayReportSchema } from './drawer.schemas.ts';

const DayParams = Type.Object({
  id: Type.String({ maxLength: 64 }),
  date: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'The day, YYYY-MM-DD where the company is.' }),
});

/** The drawers' day reports: one day (JSON or PDF), every drawer open and closed, and the closed days as a table. */
export const drawerReportsRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    const security = [{ adminToken: [] }];

    app.get(
      '/locations/:id/drawer/days/:date',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminGetDrawerDay',
          summary: 'A day report: JSON, or PDF with `?format=pdf` (`layout=a4|receipt`)',
          description: 'A closed day as written at closing; the open day so far.',
          security,
          params: DayParams,
          querystring: Type.Object(
            {
              format: Type.Optional(Type.Union([Type.Literal('pdf'), Type.Literal('json')])),
              layout: Type.Optional(Type.Union([Type.Literal('a4'), Type.Literal('receipt')])),
            },
            { additionalProperties: false },
          ),
          response: { 200: PdfOrJson('The day report.', Data(DayReportSchema)), ...errorResponses(404, 503) },
        },
      },
      async (request, reply) => {
        const { companyId } = request.admin;
        const { id, date } = request.params;
        if (!wantsPdf(request, request.query.format)) return { data: await c.till.day(companyId, id, date) };
        return sendPdf(
          reply,
          await c.till.renderDay(companyId, id, date, request.query.layout ?? 'a4', reservePrint(c, reply)),
        );
      },
    );

    app.get(
      '/drawers',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminListDrawers',
          summary: "Every location's drawer: those open now, and the days closed in a period",
          description: 'Admins. `from` and `to` (YYYY-MM-DD) bound the closed days; today when absent.',
          security,
          querystring: Type.Object(
            {
              from: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' })),
              to: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' })),
            },
            { additionalProperties: false },
          ),
          response: {
            200: Data(
              Type.Object(
                { open: Type.Array(DayReportSchema), closed: Type.Array(DayReportSchema) },
                { additionalProperties: false },
              ),
            ),
            ...errorResponses(400),
          },
        },
      },
      async (request) => {
        const { companyId } = request.admin;
        const today = await c.till.today(companyId);
        const [open, closed] = await Promise.all([
          c.till.openDrawers(companyId),
          c.till.closedDays(companyId, request.query.from ?? today, request.query.to ?? today),
        ]);
        return { data: { open, closed } };
      },
    );

    app.get(
      '/reports/drawers',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminDrawerReport',
          summary: 'The closed cash drawer days of a period: JSON, CSV or XLSX',
          description:
            'A row a location and day, as closed: float, cash in and out, cash sales and refunds, expected, counted, difference, card and transfer takings and refunds, the documents. The same table is in the month archive (`/exports/month`), with each day as closed (JSON) and printed.',
          security,
          querystring: Type.Object(
            {
              from: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
              to: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
              locationId: Type.Optional(Type.String({ maxLength: 64 })),
              ...ExportQuery,
            },
            { additionalProperties: false },
          ),
          response: {
            200: JsonOrSheet('The closed days.', Data(Type.Array(DayReportSchema))),
            ...errorResponses(400),
          },
        },
      },
      async (request, reply) => {
        const { companyId } = request.admin;
        const { from, to, locationId } = request.query;
        if (to < from) throw AppError.invalid({ to: [said('error.report.range')] });
        const format = exportFormat(request, request.query.format);
        if (format === 'json') return { data: await c.till.closedDays(companyId, from, to, locationId) };
        const company = await c.companies.getCompany(companyId);
        const locale = exportLocale(request.query.locale, company.locale);
        const table = await c.till.table(companyId, from, to, locale, locationId);
        return sendTable(reply, table, format, locale, `drawers-${from}-${to}`);
      },
    );
  };
