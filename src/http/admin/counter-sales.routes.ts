import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import { Nullable, errorResponses } from '../schemas.ts';
import { idempotentCreate } from '../idempotency.ts';
import { AbortBasketBody, CounterSaleBody, toAbortBasket, toCounterSale } from '../requests/counter-sales.ts';
import { Sale, TseRecordSchema, presentSale } from './sales.schemas.ts';

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

    app.post(
      '/counter-sales/abort',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminAbortCounterBasket',
          summary: 'Give up a basket at the counter: in Germany its own TSE transaction, finished as aborted',
          security: [{ adminToken: [] }],
          description:
            "The basket's lines priced as a sale would be; for a German company with a TSE the transaction is started and finished " +
            'as CANCELLED (DSFinV-K `AVBelegabbruch`). No document is issued. `data` is null where the company has no TSE.',
          body: AbortBasketBody,
          response: { 201: Type.Object({ data: Nullable(TseRecordSchema) }), ...errorResponses(400, 404) },
        },
      },
      async (request, reply) => {
        const record = await c.invoicing.abortAtCounter(
          { companyId: request.admin.companyId },
          toAbortBasket(request.body),
        );
        return reply.status(201).send({ data: record });
      },
    );
  };
