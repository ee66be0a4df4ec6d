import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import { errorResponses } from '../schemas.ts';
import { idempotentCreate } from '../idempotency.ts';
import { CounterSaleBody, toCounterSale } from '../requests/counter-sales.ts';
import { Sale, presentSale } from './sales.routes.ts';

/** A sale at the counter: the invoice issued and paid in one request. */
export const counterSalesRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/counter-sales',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminCreateCounterSale',
          summary: 'Sell at the counter: issue the invoice and record its payment',
          security: [{ adminToken: [] }],
          description:
            "The lines priced as a quotation's (with `discountPercent`), the invoice issued as a conversion issues it (legal number, fiscalised " +
            'in Croatia, `sale.created` with source `counter`) and paid in full by `paymentMethod` (`payment.recorded`). A walk-in customer ' +
            "unless `customerId` names a directory one. With cash, `tendered` (at least the total) gives the sale's `change`. Supports `Idempotency-Key`. " +
            'The receipt: `GET /sales/{id}?format=pdf&layout=receipt`.',
          headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String()) }),
          body: CounterSaleBody,
          response: {
            201: Type.Object({ data: Sale }),
            ...errorResponses(400, 404, 409),
          },
        },
      },
      async (request, reply) => {
        const actor = { companyId: request.admin.companyId, userId: request.admin.userId };
        const input = toCounterSale(request.body);
        const sale = await idempotentCreate(
          request,
          reply,
          c.idempotency,
          () => c.invoicing.sellAtCounter(actor, input),
          (id) => c.sales.get(actor.companyId, id),
        );
        return reply.status(201).header('location', `/api/v1/admin/sales/${sale.id}`).send(presentSale(sale));
      },
    );
  };
