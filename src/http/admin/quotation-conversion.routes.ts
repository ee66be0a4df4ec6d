import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { said } from '../request-messages.ts';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import { AppError } from '../../lib/errors.ts';
import { Data, Money, MoneyOf, Nullable, Quantity, errorResponses } from '../schemas.ts';
import { ConvertPaymentMethod, IssueDetails } from '../requests/sales.ts';
import { CancelBody } from '../requests/documents.ts';
import { baseUrl } from '../base-url.ts';
import { idempotentCreate } from '../idempotency.ts';
import { PERMISSIONS } from '../access.ts';
import { Sale, presentSale } from './sales.schemas.ts';
import { AdminQuotation, presentHubQuotation } from './quotations.schemas.ts';

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

const ConversionPreview = Type.Object(
  {
    status: Type.String(),
    expired: Type.Boolean(),
    lines: Type.Array(
      Type.Object(
        {
          position: Type.Integer(),
          productId: Type.String(),
          unitId: Type.String(),
          productName: Type.String(),
          unitName: Type.String(),
          quantity: Quantity,
          note: Nullable(Type.String()),
          quotedUnitPrice: Money,
          currentUnitPrice: Nullable(MoneyOf('null when the product or the unit is gone from the catalog.')),
          discountPercent: Type.String({ description: "The quoted discount, kept at today's prices." }),
          quotedLineTotal: MoneyOf('The line with tax, as quoted (after its discount).'),
          currentLineTotal: Nullable(MoneyOf("The line with tax at today's price and the same discount.")),
          change: Type.Enum(['unchanged', 'price_changed', 'tax_changed', 'product_removed', 'unit_removed'] as const),
        },
        { additionalProperties: false },
      ),
    ),
    quotedTotal: Money,
    currentTotal: Nullable(MoneyOf("At today's prices; null when some line can no longer be priced.")),
  },
  { additionalProperties: false },
);

/** The ways out of `approved`: the conversion preview at today's prices, the conversion to a sale, and cancellation. */
export const quotationConversionRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    const security = [{ adminToken: [] }];

    app.get(
      '/quotations/:id/conversion',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminPreviewQuotationConversion',
          summary: 'What converting would give: quoted and current prices, line by line',
          security,
          params: IdParams,
          response: { 200: Data(ConversionPreview), ...errorResponses(404) },
        },
      },
      async (request) => ({ data: await c.quotations.conversionPreview(request.admin.companyId, request.params.id) }),
    );

    app.post(
      '/quotations/:id/convert',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminConvertQuotation',
          summary: 'Convert an approved quotation into a sale',
          security,
          description:
            'Needs a directory customer (409 `customer_required`), an `approved` quotation (409 `quotation_not_open`) and an unexpired one ' +
            "(409 `quotation_expired`) unless an admin sends `reprice: true`, which prices every line at today's catalog price (a line whose product " +
            'or unit is gone is a 409 naming it). Issues the invoice: its legal number, `paymentMethod` (default `bank_transfer`), the caller as operator. Supports `Idempotency-Key`. Fires `sale.created`.',
          params: IdParams,
          headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String()) }),
          body: Type.Optional(
            Type.Object(
              {
                reprice: Type.Optional(
                  Type.Boolean({ default: false, description: "Admins only: price the lines at today's prices." }),
                ),
                paymentMethod: ConvertPaymentMethod,
                ...IssueDetails,
              },
              { additionalProperties: false },
            ),
          ),
          response: { 201: Data(Sale), ...errorResponses(400, 403, 404, 409, 422) },
        },
      },
      async (request, reply) => {
        const reprice = request.body?.reprice === true;
        if (reprice && !(PERMISSIONS['quotations:reprice'] as readonly string[]).includes(request.admin.role)) {
          throw new AppError(
            'forbidden',
            said('error.reprice.roles', { roles: PERMISSIONS['quotations:reprice'].join(' or ') }),
          );
        }
        const actor = { companyId: request.admin.companyId, userId: request.admin.userId };
        const sale = await idempotentCreate(
          request,
          reply,
          c.idempotency,
          () =>
            c.quotations.convert(actor, request.params.id, {
              reprice,
              paymentMethod: request.body?.paymentMethod,
              deliveryDate: request.body?.deliveryDate ?? null,
              orderReference: request.body?.orderReference ?? null,
            }),
          (id) => c.sales.get(actor.companyId, id),
        );
        return reply.status(201).header('location', `/api/v1/admin/sales/${sale.id}`).send(presentSale(sale));
      },
    );

    app.post(
      '/quotations/:id/cancel',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminCancelQuotation',
          summary: 'Cancel an approved quotation',
          security,
          params: IdParams,
          body: CancelBody,
          response: { 200: Data(AdminQuotation), ...errorResponses(400, 404, 409) },
        },
      },
      async (request) => {
        await c.quotations.cancel(request.admin.companyId, request.params.id, request.body.reason);
        return presentHubQuotation(
          await c.quotations.get(request.admin.companyId, request.params.id),
          baseUrl(c.config, request),
        );
      },
    );
  };
