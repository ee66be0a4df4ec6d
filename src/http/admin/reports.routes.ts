import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type, type TSchema } from 'typebox';
import type { Container } from '../../container.ts';
import type { ExportLocale, ReportName, ReportQuery } from '../../modules/reports/index.ts';
import { centsAsMoney, errorResponses } from '../schemas.ts';
import { JsonOrSheet, exportFormat, exportLocale, sendTable } from '../export-reply.ts';
import {
  BookSchema,
  PaymentsReportSchema,
  ReceivablesQuerystring,
  ReceivablesSchema,
  ReportQuerystring,
  SalesReportSchema,
  VatQuerystring,
  VatReportSchema,
} from './reports.schemas.ts';

/** The accountant's reports: JSON for programs, CSV and XLSX for spreadsheets, one service behind each. */
export const reportsRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    const security = [{ adminToken: [] }];
    const tags = ['Admin'];

    /**
     * JSON as `{data}`, its cents as decimal money where `schema` marks money (the services sum
     * in cents; the API answers money one way), or the report's table as a file named after the
     * report and its range.
     */
    async function answer(
      reply: FastifyReply,
      companyId: string,
      name: ReportName,
      query: ReportQuery & { format?: 'json' | 'csv' | 'xlsx'; locale?: ExportLocale },
      schema: TSchema,
      json: () => Promise<unknown>,
    ) {
      const format = exportFormat(reply.request, query.format);
      if (format === 'json') return centsAsMoney({ data: await json() }, schema);
      const company = await c.reports.company(companyId);
      const locale = exportLocale(query.locale, company.locale);
      const table = await c.reports.table(companyId, name, query, locale);
      const range = name === 'receivables' ? query.to || 'today' : `${query.from}-${query.to}`;
      return sendTable(reply, table, format, locale, `${name}-${range}`);
    }

    app.get(
      '/reports/sales',
      {
        schema: {
          tags,
          security,
          operationId: 'adminReportSales',
          summary: 'Sales by period, location and operator, compared with the period before',
          description:
            "Invoices, cancellation invoices and credit notes issued from `from` to `to` (dates in the company's time zone, `to` inclusive), by `groupBy` (default `month`): counts, net, VAT and gross, each the sum of what the documents stored when issued. Corrections are negative, so totals are netted.",
          querystring: ReportQuerystring,
          response: { 200: JsonOrSheet('The report.', SalesReportSchema), ...errorResponses(400, 403) },
        },
      },
      async (request, reply) =>
        answer(reply, request.admin.companyId, 'sales', request.query, SalesReportSchema, () =>
          c.reports.sales(request.admin.companyId, request.query),
        ),
    );

    app.get(
      '/reports/vat',
      {
        schema: {
          tags,
          security,
          operationId: 'adminReportVat',
          summary: 'VAT per rate and period, or the book of issued invoices',
          description:
            "Base and tax per rate, from each document's stored lines (which add up to its printed tax summary), cancellations and credit notes netted. A German company's CSV/XLSX names the advance return's field per rate (81 at 19 %, 86 at 7 %). `view=book` lists every document as the Croatian book of issued invoices (knjiga izlaznih računa) does.",
          querystring: VatQuerystring,
          response: {
            200: JsonOrSheet('The report (`view=book`: the book).', Type.Union([VatReportSchema, BookSchema])),
            ...errorResponses(400, 403),
          },
        },
      },
      async (request, reply) => {
        const q = request.query;
        const companyId = request.admin.companyId;
        return q.view === 'book'
          ? answer(reply, companyId, 'book', q, BookSchema, () => c.reports.book(companyId, q))
          : answer(reply, companyId, 'vat', q, VatReportSchema, () => c.reports.vat(companyId, q));
      },
    );

    app.get(
      '/reports/payments',
      {
        schema: {
          tags,
          security,
          operationId: 'adminReportPayments',
          summary: 'Payments by method, day (default) and operator: the daily cash report',
          description:
            'Payments recorded in the range (received, by who recorded them) and payments voided in the range (voided, by who voided them), per period and method; `net` is received less voided: what should be in the drawer for `cash`.',
          querystring: ReportQuerystring,
          response: { 200: JsonOrSheet('The report.', PaymentsReportSchema), ...errorResponses(400, 403) },
        },
      },
      async (request, reply) =>
        answer(reply, request.admin.companyId, 'payments', request.query, PaymentsReportSchema, () =>
          c.reports.payments(request.admin.companyId, request.query),
        ),
    );

    app.get(
      '/reports/receivables',
      {
        schema: {
          tags,
          security,
          operationId: 'adminReportReceivables',
          summary: 'Unpaid and partly paid invoices by age, with the customer',
          description:
            'Every invoice with a balance (total less credit notes less payments), aged by days past its due date on `to` (default today): 0–30, 31–60, 61–90, over 90; per invoice and per customer.',
          querystring: ReceivablesQuerystring,
          response: { 200: JsonOrSheet('The report.', ReceivablesSchema), ...errorResponses(400, 403) },
        },
      },
      async (request, reply) => {
        const q = request.query;
        const companyId = request.admin.companyId;
        return answer(reply, companyId, 'receivables', { from: '', to: q.to ?? '', ...q }, ReceivablesSchema, () =>
          c.reports.receivables(companyId, { asOf: q.to, locationId: q.locationId }),
        );
      },
    );
  };
