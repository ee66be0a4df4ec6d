import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Container } from '../../../../container.ts';
import type { EndpointView } from '../../../../modules/webhooks/index.ts';
import { html, type Html } from '../../html.ts';
import type { HubContext } from '../../hub-context.ts';
import { submit, noticeOf, textOf, type FieldErrors } from '../../form.ts';
import { DEVELOPER_NOTICES, sendDeveloperPage } from './developer-frame.ts';
import { newEndpointFrom, webhookForm, webhookFormOf, WebhookFormShape, type WebhookForm } from './webhook-form.ts';
import { paths, withNotice } from '../../paths.ts';

/** An endpoint's state in words (never by colour alone). */
export function endpointState(ctx: HubContext, e: EndpointView): Html {
  return e.enabled
    ? html`<span class="status active">${ctx.t('hub.developer.webhooks.enabled')}</span>`
    : html`<span class="status disabled">${ctx.t('hub.developer.webhooks.disabled')}</span>`;
}

export const endpointTarget = (e: EndpointView) => (e.kind === 'http' ? e.url : `Telegram ${e.chatId}`) ?? '';

/** Webhook endpoints: the list and the two forms that add one (HTTP, Telegram). */
export const webhooksPage =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    async function render(
      reply: FastifyReply,
      ctx: HubContext,
      options: {
        kind?: 'http' | 'telegram';
        form?: WebhookForm;
        errors?: FieldErrors;
        notice?: string | null;
        status?: number;
      },
    ) {
      const { t } = ctx;
      const endpoints = await c.endpoints.list(ctx.user.companyId);
      const formOf = (kind: 'http' | 'telegram') =>
        options.kind === kind ? { form: options.form ?? {}, errors: options.errors ?? {} } : { form: {}, errors: {} };
      const body = html`<h1>${t('hub.developer.webhooks.title')}</h1>
<table>
  <thead><tr>
    <th scope="col">${t('hub.developer.webhooks.target')}</th><th scope="col">${t('hub.developer.webhooks.events')}</th>
    <th scope="col">${t('hub.developer.webhooks.description')}</th><th scope="col">${t('hub.developer.apiKeys.state')}</th>
  </tr></thead>
  <tbody>
  ${
    endpoints.length === 0
      ? html`<tr><td colspan="4">${t('hub.developer.webhooks.none')}</td></tr>`
      : endpoints.map(
          (e) => html`<tr>
    <td><a href="${paths.webhook(e.id)}">${endpointTarget(e)}</a></td>
    <td>${e.events.length === 0 ? t('hub.developer.webhooks.allEvents') : e.events.join(', ')}</td>
    <td>${e.description ?? ''}</td>
    <td>${endpointState(ctx, e)}</td>
  </tr>`,
        )
  }
  </tbody>
</table>
<div class="two">
<section>
  <h2 id="new-http">${t('hub.developer.webhooks.newHttp')}</h2>
  ${webhookForm(ctx, { action: paths.webhooks, kind: 'http', endpoint: null, ...formOf('http'), prefix: 'http', submit: t('hub.developer.webhooks.add'), labelledBy: 'new-http' })}
</section>
<section>
  <h2 id="new-telegram">${t('hub.developer.webhooks.newTelegram')}</h2>
  ${webhookForm(ctx, { action: paths.webhooks, kind: 'telegram', endpoint: null, ...formOf('telegram'), prefix: 'tg', submit: t('hub.developer.webhooks.add'), labelledBy: 'new-telegram' })}
</section>
</div>`;
      return sendDeveloperPage(reply, ctx, {
        title: t('hub.developer.webhooks.title'),
        body,
        notice: options.notice ?? null,
        status: options.status,
      });
    }

    app.get('/developer/webhooks', { config: { hub: 'settings:manage' } }, async (request, reply) =>
      render(reply, request.hub, { notice: noticeOf(request.hub, request.query, DEVELOPER_NOTICES) }),
    );

    app.post('/developer/webhooks', { config: { hub: 'settings:manage' } }, async (request, reply) => {
      const ctx = request.hub;
      const form = webhookFormOf(request.body);
      const input = newEndpointFrom(form);
      const done = await submit(WebhookFormShape, request, () => c.endpoints.create(ctx.user.companyId, input), {
        read: () => form,
        refusals: ['validation_failed'],
      });
      if (!done.ok) {
        const { message, errors } = done.state;
        return render(reply, ctx, {
          kind: input.kind,
          form,
          errors: message === undefined ? errors : { _: [message] },
          status: done.status,
        });
      }
      // A generated secret is shown on this one answer, never again (so no redirect that would lose it).
      if (input.kind === 'http' && input.secret && !textOf(form.secret).trim())
        return sendSecret(reply, ctx, done.result, input.secret, 201);
      return reply.redirect(withNotice(paths.webhook(done.result.id), 'webhookSaved'), 303);
    });
  };

/** The page that shows a webhook secret the one time it is readable. */
export function sendSecret(
  reply: FastifyReply,
  ctx: HubContext,
  endpoint: EndpointView,
  secret: string,
  status: number,
): FastifyReply {
  const { t } = ctx;
  const body = html`<h1>${t('hub.developer.webhooks.secretTitle')}</h1>
<section class="card">
  <p>${endpointTarget(endpoint)}</p>
  <p>${t('hub.developer.secretOnce')}</p>
  <p><code class="secret" id="webhook-secret">${secret}</code>
  <button type="button" class="secondary" data-copy="webhook-secret" data-copied="${t('hub.developer.copied')}">${t('hub.developer.copy')}</button></p>
  <p><a href="${paths.webhook(endpoint.id)}">${t('hub.developer.webhooks.openEndpoint')}</a></p>
</section>`;
  return sendDeveloperPage(reply, ctx, { title: t('hub.developer.webhooks.secretTitle'), body, status });
}
