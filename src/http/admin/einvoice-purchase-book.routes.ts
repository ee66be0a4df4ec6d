import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import { AppError } from '../../lib/errors.ts';
import { said } from '../request-messages.ts';
import { purchaseBookTable } from '../../modules/einvoice/index.ts';
import { ExportQuery, exportFormat, exportLocale, sendTable } from '../export-reply.ts';
import { Data, errorResponses } from '../schemas.ts';
import { Day, PurchaseInvoice } from './einvoice-purchases.routes.ts';

const security = [{ adminToken: [] }];

/** The book of received invoices (U-RA). */
export const purchaseBookRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
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
  };
