import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import { Data, errorResponses } from '../schemas.ts';
import { CreditNoteBody, InvoiceCancelBody, toCreditNote } from '../requests/sales.ts';
import type { UserRole } from '../../modules/companies/index.ts';
import { mayCancelInvoice } from '../access.ts';
import { Sale, presentSale } from './sales.schemas.ts';

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

/** Corrections of an issued invoice: its cancellation (storno) and credit notes. */
export const saleCorrectionsRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    const security = [{ adminToken: [] }];

    app.post(
      '/sales/:id/cancel',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminCancelSale',
          summary: 'Cancel an invoice: issue its cancellation invoice (storno)',
          security,
          description:
            'Issues a sale of kind `cancellation`: every line negated, its own number in the same series, naming the invoice, fiscalised like an invoice. ' +
            'The invoice becomes `cancelled`. Fires `sale.cancelled`. 409 when it is already cancelled, is itself a correction, or has credit notes. Admins cancel any invoice; staff only one they issued, on the day it was issued (403 otherwise).',
          params: IdParams,
          body: InvoiceCancelBody,
          response: { 201: Data(Sale), ...errorResponses(400, 403, 404, 409) },
        },
      },
      async (request, reply) => {
        const { companyId, userId, role } = request.admin;
        const [sale, company] = await Promise.all([
          c.sales.get(companyId, request.params.id),
          c.companies.getCompany(companyId),
        ]);
        mayCancelInvoice({ role: role as UserRole, userId }, sale, company.timezone, c.clock.now());
        const storno = await c.invoicing.cancel(
          request.admin.companyId,
          request.params.id,
          request.body.reason,
          request.admin.userId,
          request.body.refund,
        );
        return reply.status(201).header('location', `/api/v1/admin/sales/${storno.id}`).send(presentSale(storno));
      },
    );

    app.post(
      '/sales/:id/credit-notes',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminCreateCreditNote',
          summary: 'Issue a credit note for part of an invoice (goods returned)',
          security,
          description:
            "Issues a sale of kind `credit_note` with the lines and quantities given, negated, numbered and fiscalised like an invoice; the invoice's balance falls by its total. " +
            'More of a line than was invoiced less earlier credit notes is a 400 naming `lines[i].quantity`. Fires `credit_note.created`. Admins only.',
          params: IdParams,
          body: CreditNoteBody,
          response: { 201: Data(Sale), ...errorResponses(400, 403, 404, 409) },
        },
      },
      async (request, reply) => {
        const note = await c.invoicing.creditNote(
          request.admin.companyId,
          request.params.id,
          toCreditNote(request.body),
          request.admin.userId,
        );
        return reply.status(201).header('location', `/api/v1/admin/sales/${note.id}`).send(presentSale(note));
      },
    );
  };
