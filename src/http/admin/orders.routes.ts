import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import { Data, Nullable, Pagination, Timestamp, errorResponses } from '../schemas.ts';
import { newestFirstPage } from './pagination.ts';
import { Order } from '../public/v1/orders.routes.ts';
import { DirectoryCustomer } from '../public/v1/quotes.routes.ts';
import { ORDER_STATUSES } from '../../modules/orders/index.ts';
import { idempotentCreate } from '../idempotency.ts';
import { ConvertPaymentMethod, IssueDetails } from '../requests/sales.ts';
import { CancelBody } from '../requests/documents.ts';
import { Sale, presentSale } from './sales.schemas.ts';

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

/** A web order as the hub sees it: the public shape plus its state and links. */
export const AdminOrder = Type.Object(
  {
    ...Order.properties,
    status: Type.Enum(ORDER_STATUSES, {
      description: '`received` → `accepted` → `converted`; `cancelled` from either open state.',
    }),
    directoryCustomer: DirectoryCustomer,
    acceptedAt: Nullable(Timestamp),
    saleId: Nullable(Type.String({ description: 'The sale it was converted to.' })),
    cancelledAt: Nullable(Timestamp),
    cancellationReason: Nullable(Type.String()),
  },
  { additionalProperties: false },
);

/** Web orders in the hub: the list, one, and their way through `received` → `accepted` → `converted` | `cancelled`. */
export const ordersRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    const security = [{ adminToken: [] }];

    app.get(
      '/orders',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminListOrders',
          summary: 'Web orders, newest first',
          security,
          description:
            '`q` matches as on `GET /quotations`: the start of the number, or the start of the folded customer name.',
          querystring: Type.Object(
            {
              ...Pagination,
              status: Type.Optional(Type.Enum(ORDER_STATUSES)),
              q: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
              locationId: Type.Optional(Type.String({ maxLength: 64 })),
              mode: Type.Optional(
                Type.Union([Type.Literal('live'), Type.Literal('test')], {
                  description: '`live` (the default) or `test`: data made with test keys, never both.',
                }),
              ),
            },
            { additionalProperties: false },
          ),
          response: {
            200: Type.Object({ data: Type.Array(AdminOrder), nextCursor: Nullable(Type.String()) }),
            ...errorResponses(400),
          },
        },
      },
      async (request) => {
        const { status, q, locationId, mode } = request.query;
        const page = newestFirstPage(request.query);
        return page.page(await c.orders.list(request.admin.companyId, page, { status, q, locationId, mode }));
      },
    );

    app.get(
      '/orders/:id',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminGetOrder',
          summary: 'One web order',
          security,
          params: IdParams,
          response: { 200: Data(AdminOrder), ...errorResponses(404) },
        },
      },
      async (request) => ({ data: await c.orders.get(request.admin.companyId, request.params.id) }),
    );

    app.post(
      '/orders/:id/accept',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminAcceptOrder',
          summary: 'Accept a received web order',
          security,
          description: 'Fires `order.status_changed`. 409 `order_not_open` unless the order is `received`.',
          params: IdParams,
          response: { 200: Data(AdminOrder), ...errorResponses(404, 409) },
        },
      },
      async (request) => {
        await c.orders.accept(request.admin.companyId, request.params.id);
        return { data: await c.orders.get(request.admin.companyId, request.params.id) };
      },
    );

    app.post(
      '/orders/:id/cancel',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminCancelOrder',
          summary: 'Cancel a received or accepted web order',
          security,
          description: 'Fires `order.status_changed`. 409 `order_not_open` once it is converted or cancelled.',
          params: IdParams,
          body: CancelBody,
          response: { 200: Data(AdminOrder), ...errorResponses(400, 404, 409) },
        },
      },
      async (request) => {
        await c.orders.cancel(request.admin.companyId, request.params.id, request.body.reason);
        return { data: await c.orders.get(request.admin.companyId, request.params.id) };
      },
    );

    app.post(
      '/orders/:id/convert',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminConvertOrder',
          summary: 'Convert an accepted web order into a sale',
          security,
          description:
            'Needs a directory customer (409 `customer_required`) and an `accepted` order (409 `order_not_open`). Supports `Idempotency-Key`. ' +
            'Fires `order.status_changed` and `sale.created`.',
          params: IdParams,
          headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String()) }),
          body: Type.Optional(
            Type.Object({ paymentMethod: ConvertPaymentMethod, ...IssueDetails }, { additionalProperties: false }),
          ),
          response: { 201: Data(Sale), ...errorResponses(400, 404, 409, 422) },
        },
        // No body at all is as good as `{}`: the payment method then takes its default.
        preValidation: async (request) => {
          request.body ??= {};
        },
      },
      async (request, reply) => {
        const actor = { companyId: request.admin.companyId, userId: request.admin.userId };
        const sale = await idempotentCreate(
          request,
          reply,
          c.idempotency,
          () =>
            c.orders.convert(actor, request.params.id, {
              paymentMethod: request.body?.paymentMethod,
              deliveryDate: request.body?.deliveryDate ?? null,
              orderReference: request.body?.orderReference ?? null,
            }),
          (id) => c.sales.get(actor.companyId, id),
        );
        return reply.status(201).header('location', `/api/v1/admin/sales/${sale.id}`).send(presentSale(sale));
      },
    );
  };
