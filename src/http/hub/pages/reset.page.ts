import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Container } from '../../../container.ts';
import { AppError } from '../../../lib/errors.ts';
import { PASSWORD_MAX, PASSWORD_MIN, type ResetState } from '../../../modules/accounts/index.ts';
import { negotiateLanguage } from '../../../modules/i18n/index.ts';
import { hubTranslator, type HubTranslate } from '../texts/index.ts';
import { html, raw, type Html } from '../html.ts';
import { SIGNED_OUT } from '../hub-context.ts';
import { barePage } from '../layout.ts';
import { bodyText, input, type Route } from '../form.ts';
import { paths } from '../paths.ts';

/**
 * /hub/reset/:token: the one-time link an admin handed over. Public (the token is the
 * credential); a link unknown, used or past its 24 hours says which, and nothing more.
 */
export const resetPage =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    const language = (request: FastifyRequest) => negotiateLanguage(request.headers['accept-language'], 'en');

    app.get<Route<{ token: string }>>('/reset/:token', { config: { hub: 'public' } }, async (request, reply) => {
      const t = hubTranslator(language(request));
      const state = await c.accounts.checkResetLink(request.params.token);
      return send(
        reply,
        state.ok ? 200 : 410,
        language(request),
        t,
        body(t, state, reply.generateCsrf({ userInfo: SIGNED_OUT }), request.params.token),
      );
    });

    app.post<Route<{ token: string }>>('/reset/:token', { config: { hub: 'public' } }, async (request, reply) => {
      const t = hubTranslator(language(request));
      const password = bodyText(request.body, 'password');
      try {
        await c.accounts.resetPassword(request.params.token, password);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        const csrf = reply.generateCsrf({ userInfo: SIGNED_OUT });
        if (error.code === 'validation_failed') {
          const state = await c.accounts.checkResetLink(request.params.token);
          return send(
            reply,
            400,
            language(request),
            t,
            body(t, state, csrf, request.params.token, [
              t('hub.account.passwordRule', { min: PASSWORD_MIN, max: PASSWORD_MAX }),
            ]),
          );
        }
        if (error.code === 'not_found')
          return send(
            reply,
            410,
            language(request),
            t,
            body(t, await c.accounts.checkResetLink(request.params.token), csrf, request.params.token),
          );
        throw error;
      }
      return reply.redirect(paths.resetDone, 303);
    });

    app.get('/reset-done', { config: { hub: 'public' } }, async (request, reply) => {
      const t = hubTranslator(language(request));
      return send(
        reply,
        200,
        language(request),
        t,
        html`<h1>${t('hub.reset.doneTitle')}</h1>
<p role="status">${t('hub.reset.done')}</p>
<p><a class="button" href="${paths.signIn()}">${t('hub.signIn.submit')}</a></p>`,
      );
    });
  };

function body(t: HubTranslate, state: ResetState, csrf: string, token: string, errors?: string[]): Html {
  if (!state.ok) {
    const why =
      state.reason === 'used'
        ? t('hub.reset.used')
        : state.reason === 'expired'
          ? t('hub.reset.expired')
          : t('hub.reset.invalid');
    return html`<h1>${t('hub.reset.title')}</h1>
<p class="error" role="alert">${why}</p>
<p>${t('hub.reset.askAdmin')}</p>
<p><a href="${paths.signIn()}">${t('hub.signIn.title')}</a></p>`;
  }
  return html`<h1>${t('hub.reset.title')}</h1>
<p>${t('hub.reset.for', { name: state.name, email: state.email })}</p>
<p class="muted">${t('hub.account.passwordRule', { min: PASSWORD_MIN, max: PASSWORD_MAX })} ${t('hub.reset.endsSessions')}</p>
${errors ? html`<p class="error" role="alert">${t('hub.form.fixErrors')}</p>` : null}
<form method="post" action="${paths.reset(token)}">
  <input type="hidden" name="_csrf" value="${csrf}">
  <input type="text" name="username" autocomplete="username" value="${state.email}" hidden>
  ${input({ id: 'password', name: 'password', label: t('hub.reset.newPassword'), type: 'password', autocomplete: 'new-password', required: true, extra: raw(` minlength="${PASSWORD_MIN}" maxlength="${PASSWORD_MAX}"`), errors })}
  <button type="submit">${t('hub.reset.submit')}</button>
</form>`;
}

function send(reply: FastifyReply, status: number, language: string, t: HubTranslate, content: Html): FastifyReply {
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .send(barePage(language, t('hub.reset.title'), html`<div class="sign-in">${content}</div>`).value);
}
