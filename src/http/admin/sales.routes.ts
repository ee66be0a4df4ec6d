import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import { Data, Nullable, Pagination, errorResponses } from '../schemas.ts';
import { newestFirstPage } from './pagination.ts';
import { presentAdminQuotation } from '../public/v1/quotes.routes.ts';
import { baseUrl } from '../base-url.ts';

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

/** Web orders and quotations as the hub sees them. */
export const salesRoutes = (c: Container): FastifyPluginAsyncTypebox => async (app) => {
  const security = [{ adminToken: [] }];

  app.get('/orders', {
    schema: {
      tags: ['Admin'], operationId: 'adminListOrders', summary: 'Web orders, newest first', security,
      querystring: Type.Object(Pagination, { additionalProperties: false }),
      response: { 200: Type.Object({ data: Type.Array(Type.Ref('Order')), nextCursor: Nullable(Type.String()) }), ...errorResponses(400) },
    },
  }, async (request) => {
    const page = newestFirstPage(request.query);
    return page.page(await c.orders.list(request.admin.companyId, page));
  });

  app.get('/orders/:id', {
    schema: { tags: ['Admin'], operationId: 'adminGetOrder', summary: 'One web order', security, params: IdParams, response: { 200: Data(Type.Ref('Order')), ...errorResponses(404) } },
  }, async (request) => ({ data: await c.orders.get(request.admin.companyId, request.params.id) }));

  app.get('/quotations/:id', {
    schema: { tags: ['Admin'], operationId: 'adminGetQuotation', summary: 'One quotation', security, params: IdParams, response: { 200: Data(Type.Ref('Quotation')), ...errorResponses(404) } },
  }, async (request) => presentAdminQuotation(await c.quotations.get(request.admin.companyId, request.params.id), baseUrl(c.config, request)));
};
