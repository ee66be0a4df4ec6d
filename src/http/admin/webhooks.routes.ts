import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Container } from '../../container.ts';
import { webhookEndpointsRoutes } from './webhook-endpoints.routes.ts';
import { webhookDeliveriesRoutes } from './webhook-deliveries.routes.ts';

/** Webhook endpoints (company-wide) and their delivery log, a file each. Admins only. */
export const webhooksRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    await app.register(webhookEndpointsRoutes(c));
    await app.register(webhookDeliveriesRoutes(c));
  };
