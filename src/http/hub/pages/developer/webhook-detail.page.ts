import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { sayText } from '../../texts/index.ts';
import type { Container } from '../../../../container.ts';
import { html, type Html } from '../../html.ts';
import type { HubContext } from '../../hub-context.ts';
import { submit, noticeOf, postForm, queryText, type FieldErrors, type IdRoute, type Route } from '../../form.ts';
import { DEVELOPER_NOTICES, redirectWith, sendDeveloperPage, when } from './developer-frame.ts';
import { endpointState, endpointTarget, sendSecret } from './webhooks.page.ts';
import { patchFrom, webhookForm, webhookFormOf, WebhookFormShape, type WebhookForm } from './webhook-form.ts';
import { paths } from '../../paths.ts';
import { dataModeOf, testDataSwitch, type DataMode } from '../../test-data-switch.ts';

type DeliveryRoute = Route<{ id: string; deliveryId: string }>;
type Deliveries = Awaited<ReturnType<Container['endpoints']['deliveries']>>;

/** One endpoint: its facts, a test ping, the delivery log, and what an admin can do to it. */
export const webhookDetailPage =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    async function render(
      reply: FastifyReply,
      ctx: HubContext,
      id: string,
      options: {
        form?: WebhookForm;
        errors?: FieldErrors;
        notice?: string | null;
        ping?: string;
        status?: number;
        mode?: DataMode;
      },
    ) {
      const { t } = ctx;
      const companyId = ctx.user.companyId;
      const endpoint = await c.endpoints.get(companyId, id);
      // Test events are logged apart, behind the same "test data" switch as the lists.
      const mode = options.mode ?? 'live';
      const deliveries = await c.endpoints.deliveries(companyId, id, 50, mode);
      const base = paths.webhook(endpoint.id);
      const pinged =
        options.ping === undefined
          ? null
          : /^\d{3}$/.test(options.ping)
            ? t('hub.developer.webhooks.pingStatus', { status: options.ping })
            : t('hub.developer.webhooks.pingNoAnswer');
      const body = html`<h1>${t('hub.developer.webhooks.endpointTitle')}</h1>
<dl class="facts">
  <dt>${t('hub.developer.webhooks.target')}</dt><dd>${endpointTarget(endpoint)}</dd>
  <dt>${t('hub.developer.apiKeys.state')}</dt><dd>${endpointState(ctx, endpoint)}${endpoint.disabledReason ? html` — ${sayText(ctx.t, endpoint.disabledReason)}` : null}</dd>
  ${endpoint.failingSince ? html`<dt>${t('hub.developer.webhooks.failingSince')}</dt><dd>${when(ctx, endpoint.failingSince)}</dd>` : null}
  <dt>${t('hub.developer.webhooks.events')}</dt><dd>${endpoint.events.length === 0 ? t('hub.developer.webhooks.allEvents') : endpoint.events.join(', ')}</dd>
</dl>
${endpoint.enabled ? null : html`${postForm(ctx, `${base}/enable`, html` class="row"`)}<button type="submit">${t('hub.developer.webhooks.enable')}</button></form>`}

<h2>${t('hub.developer.webhooks.ping')}</h2>
${postForm(ctx, `${base}/ping`, html` class="row" hx-post="${base}/ping" hx-target="#ping-result" hx-swap="innerHTML"`)}<button type="submit">${t('hub.developer.webhooks.sendPing')}</button>
</form>
<div id="ping-result" aria-live="polite">${pinged ? html`<p class="notice">${pinged}</p>` : null}</div>

<h2 id="deliveries-heading">${t('hub.developer.webhooks.deliveries')}</h2>
<form method="get" action="${base}" class="row" aria-labelledby="deliveries-heading">
  ${testDataSwitch(ctx, mode)}
  <button type="submit" class="secondary">${t('hub.desk.filter')}</button>
</form>
${deliveryLog(ctx, base, deliveries)}

<h2 id="edit-heading">${t('hub.developer.webhooks.edit')}</h2>
${webhookForm(ctx, { action: base, kind: endpoint.kind, endpoint, form: options.form ?? {}, errors: options.errors ?? {}, prefix: 'edit', submit: t('hub.developer.save'), labelledBy: 'edit-heading' })}
${
  endpoint.kind === 'http'
    ? html`${postForm(ctx, `${base}/rotate-secret`, html` class="row" data-confirm="${t('hub.developer.webhooks.rotateConfirm')}"`)}<button type="submit" class="secondary">${t('hub.developer.webhooks.rotate')}</button></form>`
    : null
}
${postForm(ctx, `${base}/delete`, html` class="row" data-confirm="${t('hub.developer.webhooks.deleteConfirm')}"`)}<button type="submit" class="danger">${t('hub.developer.webhooks.delete')}</button></form>`;
      return sendDeveloperPage(reply, ctx, {
        title: t('hub.developer.webhooks.endpointTitle'),
        body,
        notice: options.notice ?? null,
        status: options.status,
      });
    }

    app.get<IdRoute>('/developer/webhooks/:id', { config: { hub: 'settings:manage' } }, async (request, reply) => {
      return render(reply, request.hub, request.params.id, {
        notice: noticeOf(request.hub, request.query, DEVELOPER_NOTICES),
        ping: queryText(request.query.ping, 10),
        mode: dataModeOf(request.query),
      });
    });

    app.post<IdRoute>('/developer/webhooks/:id', { config: { hub: 'settings:manage' } }, async (request, reply) => {
      const ctx = request.hub;
      const endpoint = await c.endpoints.get(ctx.user.companyId, request.params.id);
      const form = webhookFormOf(request.body);
      const done = await submit(
        WebhookFormShape,
        request,
        () => c.endpoints.update(ctx.user.companyId, endpoint.id, patchFrom(endpoint, form)),
        { read: () => form, refusals: ['validation_failed'] },
      );
      if (!done.ok) {
        const { message, errors } = done.state;
        return render(reply, ctx, endpoint.id, {
          form,
          errors: message === undefined ? errors : { _: [message] },
          status: done.status,
        });
      }
      return redirectWith(reply, paths.webhook(endpoint.id), 'webhookSaved');
    });

    app.post<IdRoute>(
      '/developer/webhooks/:id/delete',
      { config: { hub: 'settings:manage' } },
      async (request, reply) => {
        await c.endpoints.remove(request.hub.user.companyId, request.params.id);
        return redirectWith(reply, paths.webhooks, 'webhookDeleted');
      },
    );

    app.post<IdRoute>(
      '/developer/webhooks/:id/enable',
      { config: { hub: 'settings:manage' } },
      async (request, reply) => {
        await c.endpoints.update(request.hub.user.companyId, request.params.id, { enabled: true });
        return redirectWith(reply, paths.webhook(request.params.id), 'webhookEnabled');
      },
    );

    app.post<IdRoute>(
      '/developer/webhooks/:id/rotate-secret',
      { config: { hub: 'settings:manage' } },
      async (request, reply) => {
        const { endpoint, secret } = await c.endpoints.rotateSecret(request.hub.user.companyId, request.params.id);
        return sendSecret(reply, request.hub, endpoint, secret, 200);
      },
    );

    app.post<IdRoute>(
      '/developer/webhooks/:id/ping',
      { config: { hub: 'settings:manage' } },
      async (request, reply) => {
        const ctx = request.hub;
        const endpoint = await c.endpoints.get(ctx.user.companyId, request.params.id);
        const result = await c.dispatcher.ping(ctx.user.companyId, endpoint.id);
        if (request.headers['hx-request'])
          return reply.type('text/html; charset=utf-8').send(pingResult(ctx, result).value);
        return reply.redirect(`${paths.webhook(endpoint.id)}?ping=${result.statusCode ?? 'none'}`, 303);
      },
    );

    app.post<DeliveryRoute>(
      '/developer/webhooks/:id/deliveries/:deliveryId/redeliver',
      { config: { hub: 'settings:manage' } },
      async (request, reply) => {
        const { deliveryId } = request.params;
        const companyId = request.hub.user.companyId;
        const endpoint = await c.endpoints.get(companyId, request.params.id);
        // The service finds the delivery within the company (another's is "not found").
        await c.endpoints.redeliver(companyId, deliveryId);
        c.dispatcher.wake();
        return redirectWith(reply, paths.webhook(endpoint.id), 'redelivered');
      },
    );
  };

function pingResult(
  ctx: HubContext,
  r: {
    ok: boolean;
    statusCode: number | null;
    durationMs: number;
    error: string | null;
    responseExcerpt: string | null;
  },
): Html {
  const { t } = ctx;
  return html`<div class="${r.ok ? 'notice' : 'error'}" role="status">
  <p><strong>${r.ok ? t('hub.developer.webhooks.pingOk') : t('hub.developer.webhooks.pingFailed')}</strong>
  ${r.statusCode !== null ? t('hub.developer.webhooks.pingStatus', { status: r.statusCode }) : t('hub.developer.webhooks.pingNoAnswer')}
  · ${t('hub.developer.webhooks.duration', { ms: Math.round(r.durationMs) })}</p>
  ${r.error ? html`<p>${r.error}</p>` : null}
  ${r.responseExcerpt ? html`<pre class="excerpt">${r.responseExcerpt}</pre>` : null}
</div>`;
}

function deliveryLog(ctx: HubContext, base: string, deliveries: Deliveries): Html {
  const { t } = ctx;
  if (deliveries.length === 0) return html`<p>${t('hub.developer.webhooks.noDeliveries')}</p>`;
  return html`<table>
  <thead><tr>
    <th scope="col">${t('hub.developer.webhooks.event')}</th><th scope="col">${t('hub.developer.apiKeys.state')}</th>
    <th scope="col">${t('hub.developer.webhooks.attempts')}</th><th scope="col">${t('hub.developer.actions')}</th>
  </tr></thead>
  <tbody>
  ${deliveries.map(
    (d) => html`<tr>
    <td><code>${d.event}</code><br><code>${d.eventId}</code><br>${when(ctx, d.createdAt)}</td>
    <td><span class="status ${d.status}">${deliveryStatus(ctx, d.status)}</span></td>
    <td>${
      d.attemptLog.length === 0
        ? '—'
        : html`<ol class="attempts">${d.attemptLog.map(
            (a) => html`<li>
      ${when(ctx, a.startedAt)} · ${a.success ? t('hub.developer.webhooks.attemptOk') : t('hub.developer.webhooks.attemptFailed')}
      · ${a.statusCode !== null ? t('hub.developer.webhooks.pingStatus', { status: a.statusCode }) : t('hub.developer.webhooks.pingNoAnswer')}
      · ${t('hub.developer.webhooks.duration', { ms: a.durationMs })}${a.error ? html` · ${a.error}` : null}</li>`,
          )}</ol>`
    }</td>
    <td>${d.status === 'pending' ? null : html`${postForm(ctx, `${base}/deliveries/${d.id}/redeliver`, html` class="inline"`)}<button type="submit" class="secondary">${t('hub.developer.webhooks.redeliver')}</button></form>`}</td>
  </tr>`,
  )}
  </tbody>
</table>`;
}

const DELIVERY_STATUS = {
  pending: 'hub.developer.delivery.pending',
  delivered: 'hub.developer.delivery.delivered',
  failed: 'hub.developer.delivery.failed',
  cancelled: 'hub.developer.delivery.cancelled',
} as const;

function deliveryStatus(ctx: HubContext, status: string): string {
  return Object.hasOwn(DELIVERY_STATUS, status)
    ? ctx.t(DELIVERY_STATUS[status as keyof typeof DELIVERY_STATUS])
    : status;
}
