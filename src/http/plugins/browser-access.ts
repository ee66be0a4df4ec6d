import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import { said } from '../request-messages.ts';
import { originAllowed, type ApiKeysService, type KeyCaller } from '../../modules/api-keys/index.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A public route a publishable key may call from a web page (an inquiry, a catalog read):
     * CORS is answered on it for the key's allowed origins, and a preflight route is added.
     */
    browser?: boolean;
  }
}

const ALLOW_HEADERS = 'authorization, content-type, idempotency-key';
const EXPOSE_HEADERS = 'x-request-id, retry-after, ratelimit-limit, ratelimit-remaining, ratelimit-reset';

/**
 * What a publishable key may do, checked once it is authenticated: only routes marked
 * `config.browser`, and from a page only at one of its origins. A request with no `Origin` (a
 * server, curl) is let through: an origin check stops other web pages, not other programs, and
 * what such a caller could do with a publishable key is what the key allows anyone anyway.
 * Secret keys never get CORS headers, so a browser never hands their answers to a page.
 */
export function checkBrowserAccess(request: FastifyRequest, reply: FastifyReply, caller: KeyCaller): void {
  // A browser route's answer depends on Origin (CORS headers or a 403), whether this request
  // sent one or not: a cache must not hand one origin's answer to another (RFC 9110 §12.5.5).
  if (request.routeOptions.config?.browser) reply.header('vary', 'Origin');
  if (caller.kind !== 'publishable') return;
  if (!request.routeOptions.config?.browser) throw new AppError('forbidden', said('error.publishable.route'));
  const origin = request.headers.origin;
  if (origin === undefined) return;
  if (!originAllowed(caller.allowedOrigins, origin))
    throw new AppError('forbidden', said('error.publishable.origin', { origin: origin.slice(0, 200) }));
  reply.header('access-control-allow-origin', origin).header('access-control-expose-headers', EXPOSE_HEADERS);
}

/**
 * The CORS preflight of every browser route. It carries no key, so it is answered for an
 * origin that some unrevoked publishable key allows, and with no CORS headers for any other
 * (the browser then stops the request before it is sent). Routes not open to browsers have no
 * preflight at all (404, as before). Call `browserRoutes` before registering the routes, and the
 * returned `addPreflights` after.
 */
export function browserRoutes(app: FastifyInstance, apiKeys: ApiKeysService): { addPreflights(): void } {
  const routes: Array<{ path: string; method: string }> = [];
  app.addHook('onRoute', (route) => {
    if (!route.config?.browser) return;
    // Relative to this plugin's prefix, as app.options below takes it.
    const path = route.url.slice(app.prefix.length);
    for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push({ path, method });
  });
  return {
    addPreflights() {
      for (const path of new Set(routes.map((r) => r.path))) {
        const methods = routes.filter((r) => r.path === path).map((r) => r.method);
        app.options(path, { schema: { hide: true }, config: { rateLimit: false } }, async (request, reply) => {
          const origin = request.headers.origin;
          reply.header('vary', 'Origin');
          if (typeof origin === 'string' && (await apiKeys.browserOriginKnown(origin)))
            reply
              .header('access-control-allow-origin', origin)
              .header('access-control-allow-methods', methods.join(', '))
              .header('access-control-allow-headers', ALLOW_HEADERS)
              .header('access-control-max-age', '600');
          return reply.status(204).send();
        });
      }
    },
  };
}
