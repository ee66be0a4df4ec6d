import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Container } from '../../container.ts';
import { quotationConversionRoutes } from './quotation-conversion.routes.ts';
import { quotationRevisionsRoutes } from './quotation-revisions.routes.ts';
import { quotationsListRoutes } from './quotations-list.routes.ts';

/** Quotations in the hub, a file per resource: the quotations themselves; their revisions; the ways out of `approved`. */
export const quotationsRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    await app.register(quotationsListRoutes(c));
    await app.register(quotationRevisionsRoutes(c));
    await app.register(quotationConversionRoutes(c));
  };
