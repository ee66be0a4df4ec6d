import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import { Data, errorResponses } from '../schemas.ts';
import { PaymentBody, RefundBody } from '../requests/sales.ts';
import { CancelBody } from '../requests/documents.ts';
import { Sale, presentSale } from './sales.schemas.ts';

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
const PaymentParams = Type.Object({ id: Type.String({ maxLength: 64 }), pid: Type.String({ maxLength: 64 }) });

/** Money on a sale: payments, their voids, and refunds of what a correction owes back. */
export const salePaymentsRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    const security = [{ adminToken: [] }];

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

    app.post(
      '/sales/:id/payments/:pid/void',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminVoidSalePayment',
          summary: 'Void a payment recorded by mistake',
          security,
          description:
            'The payment is kept, marked with who voided it, when and why, and no longer counts: balance and status are recomputed. Fires `payment.voided`. A payment already voided is a 409.',
          params: PaymentParams,
          body: CancelBody,
          response: { 200: Data(Sale), ...errorResponses(400, 404, 409) },
        },
      },
      async (request) =>
        presentSale(
          await c.sales.voidPayment(
            request.admin.companyId,
            request.params.id,
            request.params.pid,
            request.body.reason,
            request.admin.userId,
          ),
        ),
    );

    app.post(
      '/sales/:id/refunds',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminRefundSale',
          summary: 'Give back money owed on a corrected invoice',
          security,
          description:
            "For money owed back (a negative `balance`) after a cancellation or credit note that recorded no refund: the storno was issued before the money went back, or the customer is refunded by transfer later. Recorded against the invoice's newest correction with its method and who gave it; the invoice's `paid` falls by it (a cash refund comes out of the correction's location's drawer). `amount` defaults to all that is owed back; more is a 400 naming `amount`. 409 when nothing is owed back. Fires `refund.recorded`. Answers the invoice with its `refunds`.",
          params: IdParams,
          body: RefundBody,
          response: { 201: Data(Sale), ...errorResponses(400, 404, 409) },
        },
      },
      async (request, reply) => {
        const sale = await c.invoicing.refund(
          request.admin.companyId,
          request.params.id,
          request.body,
          request.admin.userId,
        );
        return reply.status(201).send(presentSale(sale));
      },
    );
  };
