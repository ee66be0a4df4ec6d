import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Container } from '../container.ts';
import type { Config } from '../config/config.ts';
import { AppError } from '../lib/errors.ts';
import { problemFor, toAppError, STATUS_BY_CODE } from './errors.ts';
import { buildValidator } from './validation.ts';
import { refuseNul } from './no-nul.ts';
import { requestLogger } from './request-logger.ts';
import { Problem } from './schemas.ts';
import { healthRoutes } from './health.routes.ts';
import { publicV1 } from './public/v1/index.ts';
import { Quotation } from './public/v1/quotes.routes.ts';
import { Order } from './public/v1/orders.routes.ts';
import { Product } from './public/v1/catalog.routes.ts';
import { adminV1 } from './admin/index.ts';

export const BODY_LIMIT = 1024 * 1024;
const REQUEST_ID = /^[\w.:-]{1,128}$/;

export type App = FastifyInstance;

/**
 * A client may not hold a connection for ever: not by sending its request slowly (even one
 * already answered, say with a 401, whose body still trickles in), nor by going silent.
 */
function connectionLimits(config: Config) {
  const timeouts = {
    requestTimeout: config.httpRequestTimeoutMs,
    headersTimeout: config.httpHeadersTimeoutMs,
    keepAliveTimeout: config.httpIdleTimeoutMs,
    // Node looks for overdue requests only this often (30 s by default), so a limit would be
    // exceeded by up to that much; once a second costs a walk over the open connections.
    connectionsCheckingInterval: Math.min(1000, Math.floor(config.httpHeadersTimeoutMs / 4)),
  };
  return {
    requestTimeout: timeouts.requestTimeout,
    keepAliveTimeout: timeouts.keepAliveTimeout,
    connectionTimeout: config.httpIdleTimeoutMs,
    http: timeouts,
  };
}

/** The HTTP shell: parsing, errors, docs and the two APIs. Everything else is in the container. */
export async function buildApp(c: Container): Promise<App> {
  const app = Fastify({
    loggerInstance: c.logger,
    childLoggerFactory: requestLogger,
    bodyLimit: BODY_LIMIT,
    trustProxy: c.config.trustProxy,
    // A caller's X-Request-Id is kept (when sane) so its logs and ours share one id.
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // Fastify types this hook for its own Ajv wrapper; ours returns the same (schema) => validate shape.
    schemaController: { compilersFactory: { buildValidator: buildValidator as never } },
    return503OnClosing: true,
    ...connectionLimits(c.config),
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.server.maxConnections = c.config.httpMaxConnections;

  // JSON only: a text/plain body is a 415, not a string that fails validation later.
  app.removeContentTypeParser('text/plain');
  refuseNul(app);
  // Shared by the public and the admin API, referenced by $id; registered once at the root.
  for (const schema of [Problem, Quotation, Order, Product]) app.addSchema(schema);

  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });

  app.setErrorHandler(async (error, request, reply) => {
    const appError = toAppError(error);
    const status = STATUS_BY_CODE[appError.code];
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    else if (appError.code === 'rate_limited') request.log.info({ code: appError.code }, 'rate limited');
    return reply.status(status).type('application/problem+json').send(problemFor(appError, request.id));
  });

  app.setNotFoundHandler(async (request, reply) => {
    const error = new AppError('not_found', `No route for ${request.method} ${request.url.split('?')[0]}.`);
    return reply.status(404).type('application/problem+json').send(problemFor(error, request.id));
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Portico API',
        version: '1.0.0',
        description: 'Public web API of the Portico back office: inquiries, quotations (PDF or JSON), web orders and the exposed catalog; plus the admin API used by the hub. Errors are RFC 9457 problem details with a stable `code`.',
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
        contact: { name: 'Portico', email: 'developers@portico.example' },
      },
      servers: [{ url: c.config.publicBaseUrl ?? `http://localhost:${c.config.port}`, description: 'This instance' }],
      tags: [
        { name: 'Public', description: 'Called by a company website with a location API key.' },
        { name: 'Admin', description: 'Called by the hub with a personal admin token.' },
      ],
      components: {
        securitySchemes: {
          apiKey: { type: 'http', scheme: 'bearer', description: 'Location API key `ptc_…`.' },
          adminToken: { type: 'http', scheme: 'bearer', description: 'Personal admin token `pta_…`.' },
        },
      },
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { deepLinking: true, tryItOutEnabled: true } });

  await app.register(healthRoutes(c));
  await app.register(publicV1(c), { prefix: '/api/v1/public' });
  await app.register(adminV1(c), { prefix: '/api/v1/admin' });
  app.get('/api/v1/public/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  return app as unknown as App;
}
