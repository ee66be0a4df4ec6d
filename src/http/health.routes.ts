import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../container.ts';
import { AppError } from '../lib/errors.ts';
import { said } from './request-messages.ts';
import { metricsTokenGiven } from './plugins/metrics.ts';

const Status = Type.Object({ status: Type.String() });
const Ready = Type.Object({
  status: Type.String(),
  checks: Type.Optional(Type.Record(Type.String(), Type.String())),
});

/** A probe that finds the instance not ready tries again after this long. */
const RETRY_AFTER_SECONDS = 5;

// Probes for orchestrators, not part of the API contract: kept out of the OpenAPI document.
export const healthRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    // Liveness: the process answers. It stays 200 while the database is down, on purpose: a
    // restart would not bring the database back, and the process recovers by itself.
    app.get('/healthz', { schema: { hide: true, response: { 200: Status } } }, async () => ({ status: 'ok' }));

    // Readiness: send this instance traffic only when it can serve it (docs/operating.md, "Health probes and outages"). Which
    // check failed, and why, is told only to the operator (the metrics token), not to anyone.
    app.get(
      '/readyz',
      { schema: { hide: true, response: { 200: Ready, 503: Type.Ref('Problem') } } },
      async (request) => {
        let report: Awaited<ReturnType<Container['readiness']['check']>>;
        try {
          report = await c.readiness.check();
        } catch (error) {
          request.log.warn({ err: error }, 'readiness check failed');
          const detail = metricsTokenGiven(c, request) ? said('error.server.databaseSilent') : 'Not ready.';
          throw new AppError('unavailable', detail, undefined, RETRY_AFTER_SECONDS);
        }
        const operator = metricsTokenGiven(c, request);
        if (!report.ready) {
          const failed = Object.entries(report.checks).filter(([, v]) => v !== 'ok');
          request.log.warn({ checks: report.checks }, 'not ready');
          throw new AppError(
            'unavailable',
            operator ? `Not ready: ${failed.map(([k, v]) => `${k} ${v}`).join('; ')}.` : 'Not ready.',
            undefined,
            RETRY_AFTER_SECONDS,
          );
        }
        return operator ? { status: 'ready', checks: report.checks } : { status: 'ready' };
      },
    );
  };
