import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Container } from '../../../container.ts';
import { AppError } from '../../../lib/errors.ts';
import { SignInBusy } from '../../../modules/accounts/index.ts';
import { LANGUAGES, negotiateLanguage, type Language } from '../../../modules/i18n/index.ts';
import { hubTranslator, type HubTranslate } from '../texts/index.ts';
import { html } from '../html.ts';
import { barePage } from '../layout.ts';
import { SIGNED_OUT } from '../hub-context.ts';
import { clearSessionCookie, readSessionToken, setSessionCookie } from '../session-cookie.ts';
import { paths } from '../paths.ts';

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
  lang?: string;
}

/** Each language named in itself, for the sign-in page's switch. */
const LANGUAGE_NAMES: Record<Language, string> = { hr: 'Hrvatski', de: 'Deutsch', en: 'English' };

const chosen = (value: unknown): Language | null =>
  (LANGUAGES as readonly unknown[]).includes(value) ? (value as Language) : null;

export const signInPages =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    // Before sign-in nobody's language is known: the switch's choice (`lang`), else the browser's.
    const language = (request: FastifyRequest) =>
      chosen((request.query as { lang?: unknown }).lang) ??
      chosen((request.body as SignInBody | undefined)?.lang) ??
      negotiateLanguage(request.headers['accept-language'], 'en');

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

    app.post('/sign-in', { config: { hub: 'public' } }, async (request, reply) => {
      const body = (request.body ?? {}) as SignInBody;
      const t = hubTranslator(language(request));
      const next = safeNext(body.next);
      const email = String(body.email ?? '');
      // Only failures count; past the limit the attempt is held back (per e-mail and per
      // address), and beyond the few held back at once it is told to try again shortly.
      let signedIn: Awaited<ReturnType<Container['accounts']['signIn']>> | null;
      try {
        signedIn = await c.signInThrottle.run(email, request.ip, async () => {
          try {
            return { ok: true, value: await c.accounts.signIn(email, String(body.password ?? '')) };
          } catch (error) {
            if (!(error instanceof AppError) || error.code !== 'unauthenticated') throw error;
            return { ok: false, value: null };
          }
        });
      } catch (error) {
        if (!(error instanceof SignInBusy)) throw error;
        reply.header('retry-after', String(error.retryAfterSeconds));
        return send(
          reply,
          429,
          form(t, reply.generateCsrf({ userInfo: SIGNED_OUT }), next, email, t('hub.signIn.busy'), language(request)),
        );
      }
      if (signedIn) {
        const { token } = signedIn;
        // The session this browser had before (another user's, say) ends here, not at its timeout.
        const previous = readSessionToken(request);
        if (previous) await c.accounts.signOut(previous);
        // A fresh session id at sign-in (no fixation): any earlier cookie is replaced.
        setSessionCookie(request, reply, token, c.config.hubSessionMaxHours * 3600);
        return reply.redirect(next, 303);
      }
      return send(
        reply,
        401,
        form(t, reply.generateCsrf({ userInfo: SIGNED_OUT }), next, email, t('hub.signIn.wrong'), language(request)),
      );
    });

    app.post('/sign-out', { config: { hub: 'signed-in' } }, async (request, reply) => {
      await c.accounts.signOut(readSessionToken(request) ?? '');
      clearSessionCookie(request, reply);
      return reply.redirect(paths.signIn(), 303);
    });
  };

function send(reply: FastifyReply, status: number, doc: { value: string }): FastifyReply {
  return reply.status(status).type('text/html; charset=utf-8').send(doc.value);
}

function form(t: HubTranslate, csrf: string, next: string, email: string, error: string | null, language: Language) {
  const switchTo = (other: Language) =>
    `${paths.signIn()}?${new URLSearchParams({ lang: other, ...(next === paths.today ? {} : { next }) }).toString()}`;
  return barePage(
    language,
    t('hub.signIn.title'),
    html`
<div class="sign-in">
  <nav class="languages" aria-label="${t('hub.signIn.language')}"><ul>
    ${LANGUAGES.map((l) => html`<li><a href="${switchTo(l)}" lang="${l}" hreflang="${l}"${l === language ? html` aria-current="true"` : null}>${LANGUAGE_NAMES[l]}</a></li>`)}
  </ul></nav>
  <h1>Portico · ${t('hub.signIn.title')}</h1>
  ${error ? html`<p class="error" role="alert" id="sign-in-error">${error}</p>` : null}
  <form method="post" action="${paths.signIn()}">
    <input type="hidden" name="_csrf" value="${csrf}">
    <input type="hidden" name="next" value="${next}">
    <input type="hidden" name="lang" value="${language}">
    <label for="email">${t('hub.signIn.email')}</label>
    <input id="email" name="email" type="email" autocomplete="username" required value="${email}"${error ? html` aria-describedby="sign-in-error"` : null}>
    <label for="password">${t('hub.signIn.password')}</label>
    <input id="password" name="password" type="password" autocomplete="current-password" required>
    <button type="submit">${t('hub.signIn.submit')}</button>
  </form>
</div>`,
  );
}
