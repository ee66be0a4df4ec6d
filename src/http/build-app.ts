import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Container } from '../container.ts';
import type { Config } from '../config/config.ts';
import { AppError } from '../lib/errors.ts';
import { said } from './request-messages.ts';
import { problemFor, toAppError, STATUS_BY_CODE } from './errors.ts';
import { buildValidator } from './validation.ts';
import { buildSerializer } from './serialization.ts';
import { refuseNul } from './no-nul.ts';
import { requestLogger } from './request-logger.ts';
import { API_CONVENTION, Problem } from './schemas.ts';
import { healthRoutes } from './health.routes.ts';
import { registerMetrics } from './plugins/metrics.ts';
import { publicV1 } from './public/v1/index.ts';
import { Quotation } from './public/v1/quotes.routes.ts';
import { Order } from './public/v1/orders.routes.ts';
import { Product } from './public/v1/catalog.routes.ts';
import { adminV1 } from './admin/index.ts';
import { hub } from './hub/index.ts';
import { customerQuotePage } from './customer/quote-page.ts';
import { embedRoutes } from './embed.routes.ts';
import { WEBHOOKS_TAG, webhooksSection } from './openapi-webhooks.ts';

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

/**
 * Fastify's hop count trusts no hop at all (it fails closed), so a count becomes the function it
 * means: the socket's peer and the next `hops - 1` entries of X-Forwarded-For are proxies.
 */
function trustProxyOf(config: Config): boolean | string[] | ((address: string, hop: number) => boolean) {
  const trust = config.trustProxy;
  if (trust === false) return false;
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return [...trust];
}

/** The HTTP shell: parsing, errors, docs and the two APIs. Everything else is in the container. */
export async function buildApp(c: Container): Promise<App> {
  const app = Fastify({
    loggerInstance: c.logger,
    childLoggerFactory: requestLogger,
    bodyLimit: BODY_LIMIT,
    trustProxy: trustProxyOf(c.config),
    // A caller's X-Request-Id is kept (when sane) so its logs and ours share one id.
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // Fastify types this hook for its own Ajv wrapper; ours returns the same (schema) => validate shape.
    // Both compile a route's schema on its first use, once per process (validation.ts, serialization.ts).
    schemaController: {
      compilersFactory: { buildValidator: buildValidator as never, buildSerializer: buildSerializer as never },
    },
    // The error handler reads `validation` itself; Fastify's own message would join every Ajv
    // error into one string, 2 MB for a body of 60,000 unknown fields, only to be dropped.
    schemaErrorFormatter: (_errors, part) => new Error(`The ${part} is invalid.`),
    // Answered by the onRequest hook below as problem+json; Fastify's own 503 is plain JSON.
    return503OnClosing: false,
    // Errors met before routing (a bad percent escape, an overlong path parameter) and before
    // HTTP parsing (Node's client-error path) are problems too, with a code, like every other.
    frameworkErrors: (error, request, reply) => sendProblem(request, reply, error),
    clientErrorHandler: answerClientError,
    ...connectionLimits(c.config),
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.server.maxConnections = c.config.httpMaxConnections;

  // JSON only: a text/plain body is a 415, not a string that fails validation later.
  app.removeContentTypeParser('text/plain');
  refuseNul(app);
  // Shared by the public and the admin API, referenced by $id; registered once at the root.
  for (const schema of [Problem, Quotation, Order, Product]) app.addSchema(schema);

  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });

  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    // A request on a kept-alive connection while the server drains: send it elsewhere.
    if (closing) {
      reply.header('retry-after', '1');
      return done(new AppError('unavailable', said('error.server.shuttingDown')));
    }
    done();
  });

  app.setErrorHandler(async (error, request, reply) => sendProblem(request, reply, error));
  // At the root, before the routes: its onResponse hook sees every route.
  registerMetrics(app as unknown as FastifyInstance, c);

  app.setNotFoundHandler(async (request, reply) => {
    const error = new AppError(
      'not_found',
      said('error.request.noRoute', { method: request.method, path: request.url.split('?')[0]! }),
    );
    return reply.status(404).type('application/problem+json').send(problemFor(error, request.id));
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Portico API',
        version: '1.0.0',
        description:
          'Public web API of the Portico back office: inquiries, quotations (PDF or JSON), web orders and the exposed catalog; plus the admin API used by the hub. Errors are RFC 9457 problem details with a stable `code`.\n\n' +
          API_CONVENTION,
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
        contact: { name: 'Portico', email: 'developers@portico.example' },
      },
      // Relative unless the public URL is known, so "Try it out" in /docs calls whichever host name the page was opened as.
      servers: [{ url: c.config.publicBaseUrl ?? '/', description: 'This instance' }],
      tags: [
        {
          name: 'Public',
          description:
            'Called by a company website with a location API key: a secret key from its server, a publishable key from its pages (see docs/websites.md in Portico’s repository: websites, spam protection, test mode, examples in JavaScript, PHP and Python).',
        },
        { name: 'Admin', description: 'Called by the hub with a personal admin token.' },
        WEBHOOKS_TAG,
      ],
      webhooks: webhooksSection(),
      components: {
        securitySchemes: {
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            description:
              'Location API key: secret `ptc_…` (test: `ptc_test_…`) from a server, or publishable `ptc_pub_…` (`ptc_pub_test_…`) from a web page, which may only call `POST /reach-out`, `GET /spam-challenge` and the catalog reads, from its allowed origins (CORS).',
          },
          adminToken: { type: 'http', scheme: 'bearer', description: 'Personal admin token `pta_…`.' },
        },
      },
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { deepLinking: true, tryItOutEnabled: true } });

  await app.register(healthRoutes(c));
  await app.register(publicV1(c), { prefix: '/api/v1/public' });
  await app.register(adminV1(c), { prefix: '/api/v1/admin' });
  await app.register(hub(c), { prefix: '/hub' });
  await app.register(customerQuotePage(c), { prefix: '/q' });
  await app.register(embedRoutes);
  app.get('/api/v1/public/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  return app as unknown as App;
}

function sendProblem(request: FastifyRequest, reply: FastifyReply, error: unknown): FastifyReply {
  const appError = toAppError(error);
  const status = STATUS_BY_CODE[appError.code];
  if (status >= 500 && appError.retryAfterSeconds !== undefined)
    request.log.warn(
      // The cause (a database away, a full print queue) is worth a line; its stack is not.
      {
        code: appError.code,
        retryAfter: appError.retryAfterSeconds,
        cause: error === appError ? undefined : String(error),
      },
      'refused for now',
    );
  else if (status >= 500) request.log.error({ err: error }, 'request failed');
  else if (appError.code === 'rate_limited') request.log.info({ code: appError.code }, 'rate limited');
  if (appError.retryAfterSeconds !== undefined) reply.header('retry-after', String(appError.retryAfterSeconds));
  return reply
    .header('x-request-id', request.id)
    .status(status)
    .type('application/problem+json')
    .send(problemFor(appError, request.id));
}

/**
 * Node found no valid HTTP request on the connection (garbage, an oversized header, a request
 * that took too long): there is no request object, so the whole response is written here, as a
 * problem with a code like any other, and the connection is closed once it is sent.
 */
function answerClientError(this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const appError =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? new AppError('request_timeout', said('error.request.timeout'))
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? new AppError('headers_too_large', said('error.request.headersTooLarge'))
        : new AppError('malformed_request', said('error.request.notHttp'));
  this.log.debug({ err: error }, 'client error');
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const requestId = randomUUID();
  const status = STATUS_BY_CODE[appError.code];
  const body = JSON.stringify(problemFor(appError, requestId));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    () => socket.destroy(),
  );
}
