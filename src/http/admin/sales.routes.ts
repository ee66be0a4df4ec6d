import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Container } from '../../container.ts';
import { saleCorrectionsRoutes } from './sales-corrections.routes.ts';
import { saleDocumentsRoutes } from './sales-documents.routes.ts';
import { salesListRoutes } from './sales-list.routes.ts';
import { salePaymentsRoutes } from './sales-payments.routes.ts';

/** Sales in the hub, a file per resource: the list and one sale; its statement and e-invoice; payments and refunds; cancellation and credit notes. */
export const salesRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    await app.register(salesListRoutes(c));
    await app.register(saleDocumentsRoutes(c));
    await app.register(salePaymentsRoutes(c));
    await app.register(saleCorrectionsRoutes(c));
  };
