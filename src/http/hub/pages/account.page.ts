import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { FieldErrors } from '../../../lib/errors.ts';
import type { Container } from '../../../container.ts';
import { PASSWORD_MAX, PASSWORD_MIN } from '../../../modules/accounts/index.ts';
import { LANGUAGES } from '../../../modules/i18n/index.ts';
import { html, raw } from '../html.ts';
import type { HubContext } from '../hub-context.ts';
import { Type } from 'typebox';
import { bodyText, input, noticeOf, postForm, select, sendPage, submit } from '../form.ts';
import { readSessionToken } from '../session-cookie.ts';
import { ACCOUNT_NOTICES, roleLabel } from './account-texts.ts';
import { paths, withNotice } from '../paths.ts';

/** The forms' shapes only: the service checks the password and the language (no admin API body to share). */
const PasswordForm = Type.Object(
  { currentPassword: Type.String(), newPassword: Type.String() },
  { additionalProperties: false },
);
const LanguageForm = Type.Object({ language: Type.String() }, { additionalProperties: false });

const LENGTH = raw(` minlength="${PASSWORD_MIN}" maxlength="${PASSWORD_MAX}"`);

/** My account: who I am, my password and my language. Every signed-in user has it. */
export const accountPage =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    app.get('/account', { config: { hub: 'signed-in' } }, async (request, reply) => {
      return send(reply, 200, request.hub, noticeOf(request.hub, request.query, ACCOUNT_NOTICES));
    });

    app.post('/account/password', { config: { hub: 'signed-in' } }, async (request, reply) => {
      const ctx = request.hub;
      const done = await submit(
        PasswordForm,
        request,
        (change) =>
          c.accounts.changePassword(ctx.user.companyId, ctx.user.userId, {
            ...change,
            keepSessionToken: readSessionToken(request) ?? '',
          }),
        {
          // Passwords exactly as typed, never trimmed.
          read: (_, body) => ({
            currentPassword: bodyText(body, 'currentPassword'),
            newPassword: bodyText(body, 'newPassword'),
          }),
          refusals: [],
        },
      );
      if (!done.ok) {
        const details = done.state.errors;
        // The service's words are English; the two rules a person meets here are said in their language.
        const errors: FieldErrors = {};
        if (details.currentPassword) errors.currentPassword = [ctx.t('hub.account.currentWrong')];
        if (details.newPassword)
          errors.newPassword = [ctx.t('hub.account.passwordRule', { min: PASSWORD_MIN, max: PASSWORD_MAX })];
        return send(reply, done.status, ctx, null, errors);
      }
      return reply.redirect(withNotice(paths.account, 'passwordChanged'), 303);
    });

    app.post('/account/language', { config: { hub: 'signed-in' } }, async (request, reply) => {
      const ctx = request.hub;
      const done = await submit(
        LanguageForm,
        request,
        // The company's language is no choice of one's own (null).
        ({ language }) =>
          c.accounts.setLanguage(ctx.user.companyId, ctx.user.userId, language === '' ? null : language),
        { read: (_, body) => ({ language: bodyText(body, 'language') }), refusals: [] },
      );
      if (!done.ok) return send(reply, done.status, ctx, null, done.state.errors);
      return reply.redirect(withNotice(paths.account, 'languageSaved'), 303);
    });
  };

function send(reply: FastifyReply, status: number, ctx: HubContext, notice: string | null, errors?: FieldErrors) {
  const { t, user } = ctx;
  const body = html`<h1>${t('hub.account.title')}</h1>
${errors && Object.keys(errors).length ? html`<p class="error" role="alert">${t('hub.form.fixErrors')}</p>` : null}
<dl class="facts">
  <dt>${t('hub.account.name')}</dt><dd>${user.name}</dd>
  <dt>${t('hub.account.email')}</dt><dd>${user.email}</dd>
  <dt>${t('hub.account.role')}</dt><dd>${roleLabel(t, user.role)}</dd>
  <dt>${t('hub.account.company')}</dt><dd>${user.companyName}</dd>
</dl>
<div class="two">
<section aria-labelledby="language-heading">
  <h2 id="language-heading">${t('hub.account.languageHeading')}</h2>
  ${postForm(ctx, paths.accountLanguage, html` class="stack"`)}
    ${select({
      id: 'language',
      name: 'language',
      label: t('hub.account.language'),
      value: user.chosenLanguage ?? '',
      errors: errors?.language,
      options: [
        { value: '', label: t('hub.account.languageCompany') },
        ...LANGUAGES.map((l) => ({ value: l, label: t(`hub.account.language.${l}`) })),
      ],
    })}
    <button type="submit">${t('hub.account.saveLanguage')}</button>
  </form>
</section>
<section aria-labelledby="password-heading">
  <h2 id="password-heading">${t('hub.account.passwordHeading')}</h2>
  <p class="muted" id="password-rule">${t('hub.account.passwordRule', { min: PASSWORD_MIN, max: PASSWORD_MAX })} ${t('hub.account.passwordEndsSessions')}</p>
  ${postForm(ctx, paths.accountPassword, html` class="stack"`)}
    <input type="text" name="username" autocomplete="username" value="${user.email}" hidden>
    ${input({ id: 'current-password', name: 'currentPassword', label: t('hub.account.currentPassword'), type: 'password', autocomplete: 'current-password', required: true, errors: errors?.currentPassword })}
    ${input({ id: 'new-password', name: 'newPassword', label: t('hub.account.newPassword'), type: 'password', autocomplete: 'new-password', required: true, extra: LENGTH, errors: errors?.newPassword })}
    <button type="submit">${t('hub.account.changePassword')}</button>
  </form>
</section>
</div>`;
  return sendPage(reply, ctx, { title: t('hub.account.title'), body, notice, status });
}
