import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import rateLimit from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import type { Container } from '../../../container.ts';
import { AppError } from '../../../lib/errors.ts';
import { said } from '../../request-messages.ts';
import { apiKeyAuth } from '../../plugins/authenticate.ts';
import { browserRoutes } from '../../plugins/browser-access.ts';
import { reachOutRoutes } from './reach-out.routes.ts';
import { quotesRoutes } from './quotes.routes.ts';
import { ordersRoutes } from './orders.routes.ts';
import { catalogRoutes } from './catalog.routes.ts';

/** /api/v1/public: every route needs a location API key and shares that key's rate limit. */
export const publicV1 =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.addHook('onRequest', apiKeyAuth(c.apiKeys));

    const redis = c.config.redisUrl
      ? new Redis(c.config.redisUrl, {
          connectTimeout: 1_000,
          maxRetriesPerRequest: 1,
          enableOfflineQueue: false,
          lazyConnect: true,
        })
      : null;
    if (redis) {
      redis.on('error', (error) => app.log.warn({ err: error }, 'rate-limit redis error'));
      app.addHook('onClose', async () => void redis.disconnect());
      // Connect before serving: without an offline queue, requests before the connection is up
      // would not be counted at all. If Redis is down we start anyway and fail open (logged).
      await redis
        .connect()
        .catch((error: unknown) =>
          app.log.warn({ err: error }, 'rate-limit redis unreachable at start; limits not enforced until it is'),
        );
    }
    // Registered after the auth hook, so the limit is counted per key, never per guessed token.
    await app.register(rateLimit, {
      max: c.config.rateLimitPerMinute,
      timeWindow: 60_000,
      keyGenerator: (request) => request.caller.apiKeyId,
      enableDraftSpec: true,
      ...(redis ? { redis, nameSpace: 'portico:rl:', skipOnError: true } : {}),
      errorResponseBuilder: (_request, context) =>
        Object.assign(
          new AppError(
            'rate_limited',
            said('error.rateLimit.key', { max: String(context.max), seconds: String(Math.ceil(context.ttl / 1000)) }),
          ),
          { statusCode: 429 },
        ),
    });

    // Publishable keys are shared by every visitor of a site, so one visitor flooding the form
    // would spend everyone's per-key budget: each client address also has its own, smaller one
    // (behind TRUST_PROXY the address the proxy reports; otherwise the connection's).
    const perAddress = app.createRateLimit({
      max: c.config.rateLimitPerIpPerMinute,
      timeWindow: 60_000,
      keyGenerator: (request) => `ip:${request.ip}`,
    });
    app.addHook('onRequest', async (request) => {
      if (request.method === 'OPTIONS' || request.caller?.kind !== 'publishable') return;
      const limit = await perAddress(request);
      if (limit.isAllowed || !limit.isExceeded) return;
      throw new AppError(
        'rate_limited',
        said('error.rateLimit.address', { max: String(limit.max), seconds: String(limit.ttlInSeconds) }),
        undefined,
        Math.max(1, limit.ttlInSeconds),
      );
    });

    const browser = browserRoutes(app, c.apiKeys);
    await app.register(reachOutRoutes(c));
    await app.register(quotesRoutes(c));
    await app.register(ordersRoutes(c));
    await app.register(catalogRoutes(c));
    browser.addPreflights();
  };
