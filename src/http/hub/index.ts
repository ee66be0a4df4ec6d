import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import cookie from '@fastify/cookie';
import csrf from '@fastify/csrf-protection';
import formbody from '@fastify/formbody';
import type { Container } from '../../container.ts';
import { AppError } from '../../lib/errors.ts';
import { negotiateLanguage } from '../../modules/i18n/index.ts';
import { said } from '../request-messages.ts';
import { HUB, paths } from './paths.ts';
import { hubTranslator } from './texts/index.ts';
import { toAppError, STATUS_BY_CODE } from '../errors.ts';
import { can } from '../access.ts';
import { assetRoutes } from './assets.ts';
import { hubContext, SIGNED_OUT, type HubAccess } from './hub-context.ts';
import { barePage, page } from './layout.ts';
import { html } from './html.ts';
import { spokenDetails, spokenMessage } from './form-submit.ts';
import { readSessionToken } from './session-cookie.ts';
import { signInPages } from './pages/sign-in.page.ts';
import { todayPage } from './pages/today.page.ts';
import { accountPage } from './pages/account.page.ts';
import { companyPage } from './pages/company.page.ts';
import { resetPage } from './pages/reset.page.ts';
import { teamPage } from './pages/team.page.ts';
import { developerPages } from './pages/developer/developer.page.ts';
import { deskPages } from './pages/desk/index.ts';
import { inboxPages } from './pages/inbox.pages.ts';
import { catalogPages } from './pages/catalog/index.ts';
import { reportsPage } from './pages/reports.page.ts';
import { purchasesPages } from './pages/purchases.page.ts';
import { helpPages } from './pages/help.page.ts';

/** Every hub route and who may open it, collected as routes register: the roles test walks this list. */
export const HUB_ROUTES: Array<{ method: string; url: string; access: HubAccess }> = [];

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * /hub: the staff's back office, server-rendered HTML enhanced by htmx. Pages call the same
 * services as the admin API and add no rule of their own; this plugin adds only what a browser
 * needs around them: the session, CSRF protection, the role check, HTML errors.
 */
export const hub =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    await app.register(formbody, { bodyLimit: 256 * 1024 });
    // Browsers post forms, urlencoded or multipart (uploads register their own parser): a JSON body
    // is a 415 here, so no page meets an object where it expects a field's text.
    app.removeContentTypeParser('application/json');
    app.addHook('preHandler', async (request) => {
      // A repeated query parameter (?q=a&q=b) counts once, as the first; no filter takes a list.
      const query = request.query as Record<string, unknown>;
      for (const key of Object.keys(query)) if (Array.isArray(query[key])) query[key] = (query[key] as unknown[])[0];
      // An unsafe request with no body at all (the token sent as a header) reads as an empty form.
      if (UNSAFE.has(request.method) && (request.body === undefined || request.body === null)) request.body = {};
    });
    await app.register(cookie);
    await app.register(csrf, {
      sessionPlugin: '@fastify/cookie',
      cookieKey: 'portico_csrf',
      cookieOpts: { path: HUB, sameSite: 'lax', httpOnly: true, secure: 'auto' },
      csrfOpts: { hmacKey: c.csrfKey, userInfo: true },
      // Before sign-in the token is bound to nobody; after, to the user, so one user's token fails for another.
      getUserInfo: (request) => request.hubUserId ?? SIGNED_OUT,
      getToken: (request) => {
        const header = request.headers['x-csrf-token'];
        if (typeof header === 'string') return header;
        const body = request.body as Record<string, unknown> | null | undefined;
        return typeof body?._csrf === 'string' ? body._csrf : undefined;
      },
    });

    app.addHook('onRoute', (route: RouteOptions) => {
      const access = route.config?.hub;
      if (!access)
        throw new Error(
          `Hub route ${String(route.method)} ${route.url} names no access (config.hub) — see src/http/hub/hub-context.ts.`,
        );
      for (const method of [route.method].flat())
        if (method !== 'HEAD') HUB_ROUTES.push({ method, url: route.url, access });
      route.onRequest = [...[route.onRequest ?? []].flat(), guard(c, access)];
      // Pages, not API: left out of the OpenAPI document (and of its route fuzz).
      route.schema = { ...route.schema, hide: true };
      // CSRF is checked once the body (which may carry the token) is parsed, on every unsafe method.
      if ([route.method].flat().some((m) => UNSAFE.has(m)))
        route.preHandler = [checkOrigin, csrfCheck(app), ...[route.preHandler ?? []].flat()];
    });

    app.addHook('onSend', async (_request, reply) => {
      // Pages hold a company's data: never cached, never framed elsewhere, scripts only from us.
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
      reply.header('x-content-type-options', 'nosniff');
      reply.header('referrer-policy', 'same-origin');
      // A file (a photo, a PDF, a datasheet) keeps the stricter policy its route gave it.
      if (!reply.hasHeader('content-security-policy'))
        reply.header(
          'content-security-policy',
          // Images from Portico only: an inquiry's product photo is fetched by the server and served from here.
          "default-src 'self'; img-src 'self' data:; object-src 'self'; frame-ancestors 'self'; form-action 'self'; base-uri 'none'",
        );
    });

    app.setErrorHandler(async (error, request, reply) => renderError(request, reply, error));
    app.setNotFoundHandler(async (request, reply) => {
      // A signed-in user who follows a stale link keeps the navigation and their language.
      const token = readSessionToken(request);
      const user = token ? await c.accounts.authenticate(token) : null;
      if (user) request.hub = hubContext(request, reply, user);
      return renderError(request, reply, AppError.notFound('Page'));
    });

    assetRoutes(app);
    await app.register(signInPages(c));
    await app.register(todayPage(c));
    await app.register(accountPage(c));
    await app.register(teamPage(c));
    await app.register(resetPage(c));
    await app.register(companyPage(c));
    await app.register(developerPages(c));
    await app.register(deskPages(c));
    await app.register(inboxPages(c));
    await app.register(catalogPages(c));
    await app.register(reportsPage(c));
    await app.register(purchasesPages(c));
    await app.register(helpPages);
  };

declare module 'fastify' {
  interface FastifyRequest {
    /** Set once a session is read, for the CSRF binding. */
    hubUserId?: string;
  }
}

/** onRequest: the session (unless public), then the role. A page a role may not open is a 403, not a hidden link only. */
function guard(c: Container, access: HubAccess) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (access === 'public') return;
    const token = readSessionToken(request);
    const user = token
      ? await c.accounts.authenticate(token, { touch: request.routeOptions.config.hubPoll !== true })
      : null;
    if (!user) {
      const next = request.method === 'GET' ? `?next=${encodeURIComponent(request.url)}` : '';
      if (request.headers['hx-request']) {
        reply.header('hx-redirect', paths.signIn(next));
        throw new AppError('unauthenticated', said('error.session.signInAgain'));
      }
      return reply.redirect(paths.signIn(next), 303);
    }
    request.hubUserId = user.userId;
    request.hub = hubContext(request, reply, user);
    if (access !== 'signed-in' && !can(user.role, access))
      throw new AppError('forbidden', 'Your role does not allow this.');
  };
}

/**
 * A cross-site request carries an Origin that is not ours; a browser sends one on every POST,
 * so a missing one is refused too. The CSRF token is the second line, for browsers that lie.
 */
async function checkOrigin(request: FastifyRequest): Promise<void> {
  const origin = request.headers.origin;
  const host = request.headers.host;
  if (!origin || !host || origin !== `${request.protocol}://${host}`) throw new AppError('forbidden', 'csrf');
}

function csrfCheck(app: FastifyInstance) {
  return (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    app.csrfProtection(request, reply, (error?: Error) => done(error ? new AppError('forbidden', 'csrf') : undefined));
  };
}

function renderError(request: FastifyRequest, reply: FastifyReply, error: unknown): FastifyReply {
  const appError =
    (error as { code?: string }).code === 'FST_CSRF_INVALID_TOKEN' ||
    (error as { code?: string }).code === 'FST_CSRF_MISSING_SECRET'
      ? new AppError('forbidden', 'csrf')
      : toAppError(error);
  const status = STATUS_BY_CODE[appError.code];
  if (status >= 500) request.log.error({ err: error }, 'hub page failed');
  if (appError.retryAfterSeconds !== undefined) reply.header('retry-after', String(appError.retryAfterSeconds));
  const ctx = request.hub as typeof request.hub | undefined;
  const language = ctx?.user.language ?? negotiateLanguage(request.headers['accept-language'], 'en');
  const t = ctx?.t ?? hubTranslator(language);
  const message =
    appError.message === 'csrf'
      ? t('hub.error.csrf')
      : appError.code === 'forbidden'
        ? t('hub.error.forbidden')
        : appError.code === 'not_found'
          ? t('hub.error.notFound')
          : status >= 500
            ? t('hub.error.internal')
            : spokenMessage(appError, t);
  if (request.headers['hx-request']) {
    // htmx swaps nothing on an error status; the message goes to the page's alert region by a header.
    return reply
      .status(status)
      .type('text/html; charset=utf-8')
      .send(html`<p class="error" role="alert">${message}</p>`.value);
  }
  const body = html`<h1>${t('hub.error.title')} ${status}</h1><p class="error" role="alert">${message}</p>
    ${appError.details ? html`<ul>${Object.entries(spokenDetails(appError, t)).map(([field, list]) => html`<li><code>${field}</code>: ${list.join(' ')}</li>`)}</ul>` : null}
    <p><a href="${paths.today}">${t('hub.error.back')}</a></p>`;
  const doc = ctx ? page(ctx, { title: t('hub.error.title'), body }) : barePage(language, t('hub.error.title'), body);
  return reply.status(status).type('text/html; charset=utf-8').send(doc.value);
}
