import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../../container.ts';
import type { OrderView } from '../../../modules/orders/index.ts';
import { idempotentCreate } from '../../idempotency.ts';
import { Data, Email, Id, Nullable, Phone, Text, Timestamp, errorResponses, Name } from '../../schemas.ts';
import { LineOutput, Lines, TotalsOutput, toLineRequests } from './lines.schema.ts';
import { DirectoryCustomer } from './quotes.routes.ts';

export const OrderBody = Type.Object(
  {
    customer: Type.Object(
      {
        name: Name(200),
        email: Email,
        phone: Phone,
        address: Type.Optional(Text(1000, { examples: ['Ilica 1, 10000 Zagreb'] })),
      },
      { additionalProperties: false },
    ),
    lines: Lines,
    note: Type.Optional(Type.String({ maxLength: 2000 })),
    externalReference: Type.Optional(
      Text(200, { description: 'Your own order id, echoed in the webhook.', examples: ['WEB-10023'] }),
    ),
  },
  { additionalProperties: false },
);

export const Order = Type.Object(
  {
    id: Id('ord'),
    number: Type.String({ examples: ['O-ZG1-2026-00007'] }),
    status: Type.String({ examples: ['received'] }),
    locationId: Type.String(),
    createdAt: Timestamp,
    customer: Type.Object(
      { name: Type.String(), email: Type.String(), phone: Type.String(), address: Nullable(Type.String()) },
      { additionalProperties: false },
    ),
    directoryCustomer: Type.Optional(DirectoryCustomer),
    note: Nullable(Type.String()),
    externalReference: Nullable(Type.String()),
    currency: Type.String(),
    lines: Type.Array(LineOutput),
    totals: TotalsOutput,
  },
  { additionalProperties: false, $id: 'Order' },
);

/** The public order: without the directory customer, which only the admin API shows (see DirectoryCustomer). */
export const presentOrder = ({ directoryCustomer: _assigned, ...o }: OrderView) => ({ data: o });

export const ordersRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/orders',
      {
        schema: {
          tags: ['Public'],
          operationId: 'createOrder',
          summary: 'Place a web order',
          description:
            "Prices and stores the order at the key's location with status `received` and fires `order.created`. Supports `Idempotency-Key`.",
          security: [{ apiKey: [] }],
          headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String()) }),
          body: OrderBody,
          response: { 201: Data(Type.Ref('Order')), ...errorResponses(400, 409, 413, 415, 422) },
        },
      },
      async (request, reply) => {
        const { lines, ...rest } = request.body;
        const order = await idempotentCreate(
          request,
          reply,
          c.idempotency,
          () => c.orders.create(request.caller, { ...rest, lines: toLineRequests(lines) }),
          (id) => c.orders.get(request.caller.companyId, id),
        );
        return reply.status(201).header('location', `/api/v1/public/orders/${order.id}`).send(presentOrder(order));
      },
    );

    app.get(
      '/orders/:id',
      {
        schema: {
          tags: ['Public'],
          operationId: 'getOrder',
          summary: 'Read a web order',
          security: [{ apiKey: [] }],
          params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
          response: { 200: Data(Type.Ref('Order')), ...errorResponses(404) },
        },
      },
      async (request) =>
        presentOrder(
          await c.orders.get(
            request.caller.companyId,
            request.params.id,
            request.caller.locationId,
            request.caller.mode,
          ),
        ),
    );
  };
