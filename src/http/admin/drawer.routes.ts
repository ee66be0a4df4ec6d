import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import { Data, Money, Nullable, Timestamp, errorResponses } from '../schemas.ts';
import { CloseDrawerBody, DrawerMovementBody, OpenDrawerBody } from '../requests/drawer.ts';
import { PdfOrJson, reservePrint, sendPdf, wantsPdf } from '../pdf-reply.ts';
import { ExportQuery, JsonOrSheet, exportFormat, exportLocale, sendTable } from '../export-reply.ts';
import { AppError } from '../../lib/errors.ts';
import { said } from '../request-messages.ts';

const Params = Type.Object({ id: Type.String({ maxLength: 64 }) });
const DayParams = Type.Object({
  id: Type.String({ maxLength: 64 }),
  date: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'The day, YYYY-MM-DD where the company is.' }),
});
const Count = Type.Object(
  { count: Type.Integer(), total: Money },
  { additionalProperties: false, description: 'How many documents of the kind and their total.' },
);

export const DayReportSchema = Type.Object(
  {
    locationId: Type.String(),
    premises: Type.String({
      description:
        "The till: the location's fiscal premises label (its code when it has none), as its invoice numbers write it.",
    }),
    device: Type.String({
      description:
        "The till: the location's device label (`1` when it has none). A second till in one shop is a second location with the same premises and another device.",
    }),
    date: Type.String({ description: 'YYYY-MM-DD where the company is, the day the drawer was opened.' }),
    currency: Type.String(),
    openedAt: Timestamp,
    openedBy: Nullable(Type.String()),
    closedAt: Nullable(Timestamp),
    closedBy: Nullable(Type.String()),
    float: Money,
    cashIn: Money,
    cashOut: Money,
    cashSales: Type.String({ ...Money, description: 'Cash payments at the location while the drawer was open.' }),
    cashRefunds: Type.String({ ...Money, description: 'Cash given back with cancellations and credit notes.' }),
    expected: Type.String({ ...Money, description: 'float + cashIn − cashOut + cashSales − cashRefunds.' }),
    counted: Nullable(Money),
    difference: Nullable(Type.String({ ...Money, description: 'counted − expected; negative: cash missing.' })),
    denominations: Nullable(
      Type.Array(Type.Object({ value: Money, count: Type.Integer(), amount: Money }, { additionalProperties: false })),
    ),
    byMethod: Type.Array(
      Type.Object({ method: Type.String(), sales: Money, refunds: Money }, { additionalProperties: false }),
    ),
    byRate: Type.Array(
      Type.Object(
        { rate: Type.String({ description: 'Percent, e.g. `25.00`.' }), net: Money, tax: Money, total: Money },
        { additionalProperties: false },
      ),
    ),
    invoices: Count,
    cancellations: Count,
    creditNotes: Count,
    documents: Type.Object(
      { first: Nullable(Type.String()), last: Nullable(Type.String()), count: Type.Integer() },
      { additionalProperties: false, description: 'The legal numbers of the first and last document issued.' },
    ),
    movements: Type.Array(
      Type.Object(
        {
          kind: Type.Union([Type.Literal('in'), Type.Literal('out')]),
          amount: Money,
          reason: Type.String(),
          at: Timestamp,
          by: Nullable(Type.String()),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

/** The cash drawer of each location: open with a float, cash in and out, close with a count, the day report. */
export const drawerRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    const security = [{ adminToken: [] }];
    const actor = (request: { admin: { companyId: string; userId: string | null } }) => ({
      companyId: request.admin.companyId,
      userId: request.admin.userId,
    });

    app.post(
      '/locations/:id/drawer/open',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminOpenDrawer',
          summary: "Open the location's cash drawer for today with a float",
          description: '409 when the drawer is open already, or today was closed already. Counter staff and admins.',
          security,
          params: Params,
          body: OpenDrawerBody,
          response: { 201: Data(DayReportSchema), ...errorResponses(400, 404, 409) },
        },
      },
      async (request, reply) => {
        const report = await c.till.open(actor(request), request.params.id, request.body);
        return reply.status(201).send({ data: report });
      },
    );

    app.post(
      '/locations/:id/drawer/movements',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminMoveDrawerCash',
          summary: 'Put cash into the open drawer or take it out, with a reason',
          description: 'Answers the day so far. 409 when the drawer is not open.',
          security,
          params: Params,
          body: DrawerMovementBody,
          response: { 201: Data(DayReportSchema), ...errorResponses(400, 404, 409) },
        },
      },
      async (request, reply) => {
        const report = await c.till.move(actor(request), request.params.id, request.body);
        return reply.status(201).send({ data: report });
      },
    );

    app.post(
      '/locations/:id/drawer/close',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminCloseDrawer',
          summary: 'Close the drawer with the cash counted: answers the day report',
          description:
            'The count as `counted`, or by denomination (`denominations`: `{"50.00": 2, "0.20": 3}`), or both when they agree. ' +
            'The day report is written whole and never changes afterwards. Fires `drawer.closed`. 409 when the drawer is not open.',
          security,
          params: Params,
          body: CloseDrawerBody,
          response: { 201: Data(DayReportSchema), ...errorResponses(400, 404, 409) },
        },
      },
      async (request, reply) => {
        const report = await c.till.close(actor(request), request.params.id, request.body);
        return reply
          .status(201)
          .header('location', `/api/v1/admin/locations/${request.params.id}/drawer/days/${report.date}`)
          .send({ data: report });
      },
    );

    app.get(
      '/locations/:id/drawer',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminGetDrawer',
          summary: 'The open day of the drawer: float, movements, expected cash so far',
          description: '404 when the drawer is not open.',
          security,
          params: Params,
          response: { 200: Data(DayReportSchema), ...errorResponses(404) },
        },
      },
      async (request) => ({ data: await c.till.current(request.admin.companyId, request.params.id) }),
    );

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
