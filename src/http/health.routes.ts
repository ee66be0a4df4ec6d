import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../container.ts';
import { AppError } from '../lib/errors.ts';

const Status = Type.Object({ status: Type.String() });

// Probes for orchestrators, not part of the API contract: kept out of the OpenAPI document.
export const healthRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get('/healthz', { schema: { hide: true, response: { 200: Status } } }, async () => ({ status: 'ok' }));

    app.get(
      '/readyz',
      { schema: { hide: true, response: { 200: Status, 503: Type.Ref('Problem') } } },
      async (request) => {
        try {
          await c.readiness.check();
          return { status: 'ready' };
        } catch (error) {
          request.log.warn({ err: error }, 'readiness check failed');
          throw new AppError('unavailable', 'The database does not answer.');
        }
      },
    );
  };
