import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../../../container.ts';
import { EXCHANGE_PROVIDERS } from '../../../../modules/einvoice/index.ts';
import { html } from '../../html.ts';
import type { HubContext } from '../../hub-context.ts';
import {
  fieldError,
  messagesAt,
  noticeOf,
  NoFields,
  postForm,
  submit,
  type FormState,
  type Route,
} from '../../form.ts';
import { paths } from '../../paths.ts';
import { DEVELOPER_NOTICES, formErrors, redirectWith, when } from './developer-frame.ts';
import { sendCompanyPage } from '../company-frame.ts';
import { helpLink } from '../help.page.ts';

/** The form's fields, as the admin API's body (a blank optional field left out). */
const ExchangeForm = Type.Object({
  provider: Type.Enum(EXCHANGE_PROVIDERS),
  username: Type.String({ maxLength: 200 }),
  password: Type.Optional(Type.String({ maxLength: 500 })),
  companyId: Type.String({ maxLength: 20 }),
  softwareId: Type.String({ maxLength: 100 }),
  businessUnit: Type.Optional(Type.String({ maxLength: 100 })),
  baseUrl: Type.Optional(Type.String({ maxLength: 300 })),
});

const FIELDS = ['provider', 'username', 'password', 'companyId', 'softwareId', 'businessUnit', 'baseUrl'] as const;

/** The e-invoice exchange (information intermediary): credentials stored sealed, the connection test. Admins only. */
export const exchangePage =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    async function render(
      reply: FastifyReply,
      ctx: HubContext,
      options: { state?: FormState; notice?: string | null; check?: string | null; status?: number },
    ) {
      const { t } = ctx;
      const s = await c.exchangeSettings.get(ctx.user.companyId);
      const errors = options.state?.errors ?? {};
      const value = (name: (typeof FIELDS)[number]) =>
        options.state?.values[name] ??
        (name === 'password' ? '' : ((s as unknown as Record<string, string | null>)[name] ?? ''));
      const field = (name: (typeof FIELDS)[number], label: string, type = 'text', extra = '') => {
        const e = fieldError(`exchange-${name}`, messagesAt(errors, [name]));
        return html`<label for="exchange-${name}">${label}</label>
  <input id="exchange-${name}" name="${name}" type="${type}" value="${value(name)}" autocomplete="off"${e.attrs}>${extra ? html`<small class="muted">${extra}</small>` : null}${e.note}`;
      };
      const body = html`<h1>${t('hub.exchange.title')}</h1>${helpLink(ctx, 'exchange')}
<p>${t('hub.exchange.intro')}</p>
<p class="${s.configured ? 'notice' : 'error'}" id="exchange-state">${s.configured ? t('hub.exchange.on', { provider: 'moj-eRačun', when: when(ctx, s.inbox.checkedAt) }) : t('hub.exchange.off')}</p>
${s.inbox.error ? html`<p class="error" role="alert">${t('hub.exchange.inboxError', { error: s.inbox.error })}</p>` : null}
${formErrors(ctx, errors, FIELDS)}
${postForm(ctx, paths.exchange, html` class="stack"`)}
  <label for="exchange-provider">${t('hub.exchange.provider')}</label>
  <select id="exchange-provider" name="provider"><option value="moj-eracun" selected>moj-eRačun</option></select>
  ${field('username', t('hub.exchange.username'))}
  ${field('password', t('hub.exchange.password'), 'password', s.configured ? t('hub.exchange.passwordKept') : '')}
  ${field('companyId', t('hub.exchange.companyId'))}
  ${field('softwareId', t('hub.exchange.softwareId'))}
  ${field('businessUnit', t('hub.exchange.businessUnit'))}
  ${field('baseUrl', t('hub.exchange.baseUrl'), 'url')}
  <button type="submit">${t('hub.exchange.save')}</button>
</form>
${
  s.configured
    ? html`<h2>${t('hub.exchange.check')}</h2>
${postForm(ctx, paths.exchangeCheck, html` class="row"`)}<button type="submit" class="secondary">${t('hub.exchange.check')}</button></form>
<div id="exchange-check" aria-live="polite">${options.check ? html`<p class="notice">${options.check}</p>` : null}</div>
${postForm(ctx, paths.exchangeRemove, html` class="row"`)}<button type="submit" class="danger">${t('hub.exchange.remove')}</button></form>`
    : null
}`;
      // Found under the company settings, beside the fiscal certificate (issue 34); the address stays.
      return sendCompanyPage(reply, ctx, {
        title: t('hub.exchange.title'),
        body,
        notice: options.notice ?? null,
        status: options.status,
      });
    }

    app.get<Route>('/developer/einvoice-exchange', { config: { hub: 'settings:manage' } }, async (request, reply) =>
      render(reply, request.hub, { notice: noticeOf(request.hub, request.query, DEVELOPER_NOTICES) }),
    );

    app.post('/developer/einvoice-exchange', { config: { hub: 'settings:manage' } }, async (request, reply) => {
      const ctx = request.hub;
      const done = await submit(ExchangeForm, request, (input) => c.exchangeSettings.save(ctx.user.companyId, input));
      return done.ok
        ? redirectWith(reply, paths.exchange, 'exchangeSaved')
        : render(reply, ctx, { state: done.state, status: done.status });
    });

    app.post('/developer/einvoice-exchange/check', { config: { hub: 'settings:manage' } }, async (request, reply) => {
      const { t } = request.hub;
      const result = await c.exchangeSettings.check(request.hub.user.companyId);
      return render(reply, request.hub, {
        check: result.ok
          ? t('hub.exchange.checkOk', { millis: String(result.millis) })
          : t('hub.exchange.checkFailed', { message: result.message }),
      });
    });

    app.post('/developer/einvoice-exchange/remove', { config: { hub: 'settings:manage' } }, async (request, reply) => {
      const done = await submit(NoFields, request, () => c.exchangeSettings.remove(request.hub.user.companyId));
      return done.ok ? reply.redirect(paths.exchange, 303) : render(reply, request.hub, { status: done.status });
    });
  };
