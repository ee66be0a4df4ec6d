import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import { AppError } from '../../lib/errors.ts';
import { PAYMENT_METHODS, SALE_STATUSES, type SaleView } from '../../modules/sales/index.ts';
import { Data, Money, Nullable, Pagination, Timestamp, errorResponses } from '../schemas.ts';
import { PaymentBody } from '../requests/sales.ts';
import { newestFirstPage } from './pagination.ts';
import { LineOutput, TotalsOutput } from '../public/v1/lines.schema.ts';
import { FormatQuery, PdfOrJson, reservePrint, sendPdf, wantsPdf } from '../pdf-reply.ts';

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

export const Sale = Type.Object(
  {
    id: Type.String({ examples: ['sale_4fJ2kq9XbR0mW8tLz1cA'] }),
    number: Type.String({ examples: ['S-ZG1-2026-00007'] }),
    status: Type.Enum(SALE_STATUSES, {
      description: '`unpaid` → `partially_paid` → `paid`, as payments are recorded.',
    }),
    locationId: Type.String(),
    createdAt: Timestamp,
    source: Type.Object(
      {
        type: Type.Union([Type.Literal('quotation'), Type.Literal('order')]),
        id: Type.String(),
        number: Type.String(),
      },
      { additionalProperties: false, description: 'The quotation or web order it was converted from.' },
    ),
    customer: Type.Object(
      {
        id: Type.String(),
        kind: Type.String(),
        name: Type.String(),
        taxId: Nullable(Type.String()),
        email: Nullable(Type.String()),
        phone: Nullable(Type.String()),
        address: Nullable(
          Type.Object(
            { street: Type.String(), postalCode: Type.String(), city: Type.String(), country: Type.String() },
            { additionalProperties: false },
          ),
        ),
      },
      { additionalProperties: false, description: 'The directory customer as it was at conversion.' },
    ),
    note: Nullable(Type.String()),
    currency: Type.String(),
    repriced: Type.Boolean({
      description: 'Priced at the day of conversion, not as quoted (an expired quotation, converted by an admin).',
    }),
    lines: Type.Array(LineOutput),
    totals: TotalsOutput,
    paid: Money,
    balance: Money,
    payments: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          method: Type.Enum(PAYMENT_METHODS),
          amount: Money,
          createdAt: Timestamp,
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const presentSale = (s: SaleView) => ({ data: s });

/** Sales in the hub: the list, one (JSON or PDF), and payments. */
export const salesRoutes =
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
            },
            { additionalProperties: false },
          ),
          response: {
            200: Type.Object({ data: Type.Array(Sale), nextCursor: Nullable(Type.String()) }),
            ...errorResponses(400),
          },
        },
      },
      async (request) => {
        const { status, locationId, customerId, from, to } = request.query;
        const page = newestFirstPage(request.query);
        return page.page(
          await c.sales.list(
            request.admin.companyId,
            { status, locationId, customerId, from: instant(from, 'from'), to: instant(to, 'to') },
            page,
          ),
        );
      },
    );

    app.get(
      '/sales/:id',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminGetSale',
          summary: 'One sale: JSON, or PDF with `Accept: application/pdf` or `?format=pdf`',
          security,
          params: IdParams,
          querystring: FormatQuery,
          response: { 200: PdfOrJson('The sale.', Data(Sale)), ...errorResponses(404, 503) },
        },
      },
      async (request, reply) => {
        const sale = await c.sales.get(request.admin.companyId, request.params.id);
        if (!wantsPdf(request, request.query.format)) return presentSale(sale);
        return sendPdf(reply, await c.sales.renderPdf(request.admin.companyId, sale.id, reservePrint(c, reply)));
      },
    );

    app.post(
      '/sales/:id/payments',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminRecordSalePayment',
          summary: 'Record a payment',
          security,
          description:
            'Moves the sale to `partially_paid` or `paid`. An amount over the balance is a 400 naming `amount`.',
          params: IdParams,
          body: PaymentBody,
          response: { 201: Data(Sale), ...errorResponses(400, 404) },
        },
      },
      async (request, reply) => {
        const sale = await c.sales.recordPayment(
          request.admin.companyId,
          request.params.id,
          request.body,
          request.admin.userId,
        );
        return reply.status(201).send(presentSale(sale));
      },
    );
  };

/** A date-time filter as the ISO UTC text stored timestamps compare with. */
function instant(value: string | undefined, field: string): string | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) throw AppError.invalid({ [field]: ['Not a representable timestamp.'] });
  return new Date(ms).toISOString();
}
