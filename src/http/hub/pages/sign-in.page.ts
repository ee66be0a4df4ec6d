import type {
  FastifyInstance,
  FastifyPluginAsync,
  FastifyReply,
  FastifyRequest,
  preHandlerAsyncHookHandler,
} from 'fastify';
import rateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import type { Container } from '../../../container.ts';
import { AppError } from '../../../lib/errors.ts';
import { negotiateLanguage } from '../../../modules/i18n/index.ts';
import { hubTranslator, type HubTranslate } from '../texts/index.ts';
import { html } from '../html.ts';
import { barePage } from '../layout.ts';
import { SIGNED_OUT } from '../hub-context.ts';
import { clearSessionCookie, readSessionToken, setSessionCookie } from '../session-cookie.ts';
import { paths } from '../paths.ts';

const WINDOW_MS = 15 * 60_000;

/** Only a path inside the hub, never `//elsewhere` or a URL: the sign-in must not be an open redirect. */
export function safeNext(next: unknown): string {
  // Printable ASCII only: a CR or LF would reach the Location header (Node refuses it, with a 500).
  return typeof next === 'string' && /^\/hub(\/[!-[\]-~]*)?(\?[!-~]*)?$/.test(next) && !next.startsWith('//')
    ? next
    : paths.today;
}

interface SignInBody {
  email?: string;
  password?: string;
  next?: string;
}

export const signInPages =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    // Guessing is slowed twice over: per address, and per e-mail whatever the address (a botnet).
    // Each refusal reads the same as a wrong password but for the wait.
    const refuse = (_request: FastifyRequest, context: { ttl: number }) =>
      Object.assign(new AppError('rate_limited', 'sign-in', undefined, Math.ceil(context.ttl / 1000)), {
        statusCode: 429,
      });
    // An office signs in from one address: it gets ten e-mails' worth.
    const perAddress = await limiter(app, {
      max: c.config.hubSignInAttempts * 10,
      timeWindow: WINDOW_MS,
      errorResponseBuilder: refuse,
    });
    const perEmail = await limiter(app, {
      max: c.config.hubSignInAttempts,
      timeWindow: WINDOW_MS,
      errorResponseBuilder: refuse,
      keyGenerator: (request) =>
        `email:${String((request.body as SignInBody | undefined)?.email ?? '')
          .trim()
          .toLowerCase()}`,
    });

    const language = (request: FastifyRequest) => negotiateLanguage(request.headers['accept-language'], 'en');

    app.get('/sign-in', { config: { hub: 'public' } }, async (request, reply) => {
      const query = request.query as { next?: string; ended?: string };
      const t = hubTranslator(language(request));
      return send(
        reply,
        200,
        form(
          t,
          reply.generateCsrf({ userInfo: SIGNED_OUT }),
          safeNext(query.next),
          '',
          query.ended ? t('hub.signIn.expired') : null,
          language(request),
        ),
      );
    });

    app.post(
      '/sign-in',
      {
        config: { hub: 'public' },
        onRequest: perAddress,
        preHandler: perEmail,
        errorHandler: async (error, request, reply) => {
          // The limiter's refusal is shown on the form itself, with how long to wait.
          if (!(error instanceof AppError) || error.code !== 'rate_limited') throw error;
          const t = hubTranslator(language(request));
          const body = request.body as SignInBody | undefined;
          reply.header('retry-after', String(error.retryAfterSeconds));
          const minutes = Math.max(1, Math.ceil((error.retryAfterSeconds ?? 60) / 60));
          return send(
            reply,
            429,
            form(
              t,
              reply.generateCsrf({ userInfo: SIGNED_OUT }),
              safeNext(body?.next),
              String(body?.email ?? ''),
              t('hub.signIn.tooMany', { minutes }),
              language(request),
            ),
          );
        },
      },
      async (request, reply) => {
        const body = (request.body ?? {}) as SignInBody;
        const t = hubTranslator(language(request));
        const next = safeNext(body.next);
        try {
          const { token } = await c.accounts.signIn(String(body.email ?? ''), String(body.password ?? ''));
          // The session this browser had before (another user's, say) ends here, not at its timeout.
          const previous = readSessionToken(request);
          if (previous) await c.accounts.signOut(previous);
          // A fresh session id at sign-in (no fixation): any earlier cookie is replaced.
          setSessionCookie(request, reply, token, c.config.hubSessionMaxHours * 3600);
          return reply.redirect(next, 303);
        } catch (error) {
          if (!(error instanceof AppError) || error.code !== 'unauthenticated') throw error;
          return send(
            reply,
            401,
            form(
              t,
              reply.generateCsrf({ userInfo: SIGNED_OUT }),
              next,
              String(body.email ?? ''),
              t('hub.signIn.wrong'),
              language(request),
            ),
          );
        }
      },
    );

    app.post('/sign-out', { config: { hub: 'signed-in' } }, async (request, reply) => {
      await c.accounts.signOut(readSessionToken(request) ?? '');
      clearSessionCookie(request, reply);
      return reply.redirect(paths.signIn(), 303);
    });
  };

/**
 * One limiter per registration of the plugin: a request passes each registration's check only
 * once, so the two limits of sign-in need two registrations.
 */
async function limiter(app: FastifyInstance, options: RateLimitOptions): Promise<preHandlerAsyncHookHandler> {
  let handler: preHandlerAsyncHookHandler | undefined;
  await app.register(async (scope) => {
    await scope.register(rateLimit, { global: false });
    handler = scope.rateLimit(options);
  });
  return handler!;
}

function send(reply: FastifyReply, status: number, doc: { value: string }): FastifyReply {
  return reply.status(status).type('text/html; charset=utf-8').send(doc.value);
}

function form(t: HubTranslate, csrf: string, next: string, email: string, error: string | null, language: string) {
  return barePage(
    language,
    t('hub.signIn.title'),
    html`
<div class="sign-in">
  <h1>Portico · ${t('hub.signIn.title')}</h1>
  ${error ? html`<p class="error" role="alert" id="sign-in-error">${error}</p>` : null}
  <form method="post" action="${paths.signIn()}">
    <input type="hidden" name="_csrf" value="${csrf}">
    <input type="hidden" name="next" value="${next}">
    <label for="email">${t('hub.signIn.email')}</label>
    <input id="email" name="email" type="email" autocomplete="username" required value="${email}"${error ? html` aria-describedby="sign-in-error"` : null}>
    <label for="password">${t('hub.signIn.password')}</label>
    <input id="password" name="password" type="password" autocomplete="current-password" required>
    <button type="submit">${t('hub.signIn.submit')}</button>
  </form>
</div>`,
  );
}
