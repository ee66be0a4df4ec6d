import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import { Data, Money, Nullable, Timestamp, errorResponses } from '../schemas.ts';
import { FormatQuery, PdfOrJson, reservePrint, sendIssued, sendPdf, wantsPdf } from '../pdf-reply.ts';

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

/** A sale's other documents: its account statement and its e-invoice. */
export const saleDocumentsRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    const security = [{ adminToken: [] }];

    const StatementEntry = Type.Object({
      at: Timestamp,
      kind: Type.Union(
        ['invoice', 'cancellation', 'credit_note', 'payment', 'payment_voided'].map((k) => Type.Literal(k)),
      ),
      reference: Type.String({ description: "The document's legal number, or the payment's id." }),
      amount: Money,
      balance: Money,
    });
    const Statement = Type.Object({
      saleId: Type.String(),
      invoiceNumber: Nullable(Type.String()),
      currency: Type.String(),
      customerName: Type.String(),
      status: Type.String(),
      total: Money,
      credited: Money,
      paid: Money,
      balance: Money,
      entries: Type.Array(StatementEntry),
    });

    app.get(
      '/sales/:id/statement',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminGetSaleStatement',
          summary: "An invoice's account statement: JSON, or PDF with `Accept: application/pdf` or `?format=pdf`",
          description:
            'What happened since the invoice was issued: payments and their voids, the cancellation and credit notes, each with the balance after it. The invoice itself stays as issued (`GET /sales/{id}`); the statement follows the money.',
          security,
          params: IdParams,
          querystring: FormatQuery,
          response: { 200: PdfOrJson('The account statement.', Data(Statement)), ...errorResponses(404, 503) },
        },
      },
      async (request, reply) => {
        const { companyId } = request.admin;
        if (!wantsPdf(request, request.query.format))
          return { data: await c.sales.statement(companyId, request.params.id) };
        await c.sales.get(companyId, request.params.id);
        return sendPdf(reply, await c.sales.renderStatementPdf(companyId, request.params.id, reservePrint(c, reply)));
      },
    );

    app.get(
      '/sales/:id/e-invoice',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminGetSaleEInvoice',
          summary: 'The invoice, cancellation invoice or credit note as an EN 16931 e-invoice (UBL 2.1 or CII D16B)',
          description:
            'The profile follows the company and the buyer: the Croatian CIUS 2025 for Croatian companies, XRechnung 3.0 for a German buyer with a buyer reference (Leitweg-ID), plain EN 16931 otherwise (header `E-Invoice-Profile`). ' +
            'Money as printed: the same lines and tax summary. A document that cannot be a valid e-invoice for its profile is a 409 whose `details` name every missing field (`lines[0].classificationCode`, `customer.taxId`, ...).',
          security,
          params: IdParams,
          querystring: Type.Object(
            { syntax: Type.Optional(Type.Union([Type.Literal('ubl'), Type.Literal('cii')], { default: 'ubl' })) },
            { additionalProperties: false },
          ),
          response: {
            200: {
              description: 'The e-invoice.',
              content: { 'application/xml': { schema: Type.String() } },
            },
            ...errorResponses(400, 404, 409),
          },
        },
      },
      async (request, reply) => {
        const syntax = request.query.syntax ?? 'ubl';
        const einvoice = await c.invoicing.file(request.admin.companyId, request.params.id, syntax);
        if (einvoice.profile) reply.header('e-invoice-profile', einvoice.profile);
        return sendIssued(
          request,
          reply,
          einvoice,
          `${einvoice.number}-${syntax}.xml`,
          'application/xml; charset=utf-8',
        );
      },
    );
  };
