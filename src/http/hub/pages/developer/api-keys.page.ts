import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Container } from '../../../../container.ts';
import { html } from '../../html.ts';
import type { HubContext } from '../../hub-context.ts';
import { field, noticeOf, postForm, submit, type FormState } from '../../form.ts';
import { NewApiKeyBody } from '../../../requests/developer.ts';
import { ANY_LOCALHOST, type ApiKeySummary } from '../../../../modules/api-keys/index.ts';
import { formErrors, DEVELOPER_NOTICES, redirectWith, sendDeveloperPage, when } from './developer-frame.ts';
import { paths } from '../../paths.ts';
import { deleteTestData } from '../../../test-data.ts';
import { helpLink } from '../help.page.ts';

type IdParams = { id: string };

/** Location API keys: the list, a new key (its secret shown this once), revoking one. */
export const apiKeysPage =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    async function render(
      reply: FastifyReply,
      ctx: HubContext,
      options: {
        state?: FormState;
        created?: { name: string; key: string };
        notice?: string | null;
        status?: number;
      },
    ) {
      const { t } = ctx;
      const companyId = ctx.user.companyId;
      const [keys, locations] = await Promise.all([
        c.apiKeys.listApiKeys(companyId),
        c.companies.listLocations(companyId),
      ]);
      const locationName = new Map(locations.map((l) => [l.id, l.name]));
      // A refusal naming no field (an unknown location) is listed above the form.
      const { state } = options;
      const errors = state?.message ? { _: [state.message] } : (state?.errors ?? {});
      const view = { id: 'key', schema: NewApiKeyBody, state: options.state, note: 'span' } as const;
      const body = html`<h1>${t('hub.developer.apiKeys.title')}</h1>${helpLink(ctx, 'apiKeys')}
${
  options.created
    ? html`<section class="card" aria-labelledby="new-key-heading">
  <h2 id="new-key-heading">${t('hub.developer.apiKeys.created', { name: options.created.name })}</h2>
  <p>${t('hub.developer.secretOnce')}</p>
  <p><code class="secret" id="new-key">${options.created.key}</code>
  <button type="button" class="secondary" data-copy="new-key" data-copied="${t('hub.developer.copied')}">${t('hub.developer.copy')}</button></p>
</section>`
    : null
}
<table>
  <thead><tr>
    <th scope="col">${t('hub.developer.apiKeys.location')}</th><th scope="col">${t('hub.developer.apiKeys.name')}</th>
    <th scope="col">${t('hub.developer.apiKeys.kind')}</th><th scope="col">${t('hub.developer.apiKeys.origins')}</th>
    <th scope="col">${t('hub.developer.apiKeys.createdAt')}</th><th scope="col">${t('hub.developer.apiKeys.lastUsed')}</th>
    <th scope="col">${t('hub.developer.apiKeys.state')}</th><th scope="col">${t('hub.developer.actions')}</th>
  </tr></thead>
  <tbody>
  ${
    keys.length === 0
      ? html`<tr><td colspan="8">${t('hub.developer.apiKeys.none')}</td></tr>`
      : keys.map(
          (k) => html`<tr>
    <td>${locationName.get(k.locationId) ?? k.locationId}</td>
    <td>${k.name}</td>
    <td>${kindLabel(ctx, k)}</td>
    <td>${k.allowedOrigins.length === 0 ? t('hub.developer.apiKeys.originsNone') : html`<ul class="plain">${k.allowedOrigins.map((o) => html`<li><code>${o}</code></li>`)}</ul>`}</td>
    <td>${when(ctx, k.createdAt)}</td>
    <td>${k.lastUsedAt ? when(ctx, k.lastUsedAt) : t('hub.developer.apiKeys.neverUsed')}</td>
    <td>${
      k.revokedAt
        ? html`<span class="status revoked">${t('hub.developer.apiKeys.revokedAt', { date: when(ctx, k.revokedAt) })}</span>`
        : html`<span class="status active">${t('hub.developer.apiKeys.active')}</span>`
    }</td>
    <td>${
      k.revokedAt
        ? null
        : html`${postForm(ctx, paths.apiKeyRevoke(k.id), html` class="inline" data-confirm="${t('hub.developer.apiKeys.revokeConfirm', { name: k.name })}"`)}<button type="submit" class="danger">${t('hub.developer.apiKeys.revoke')}</button></form>`
    }</td>
  </tr>`,
        )
  }
  </tbody>
</table>
<h2 id="new-key-form-heading">${t('hub.developer.apiKeys.new')}</h2>
${formErrors(ctx, errors, ['locationId', 'name'])}
${postForm(ctx, paths.apiKeys, html` class="stack" aria-labelledby="new-key-form-heading"`)}
  ${field(view, 'locationId', { id: 'key-location', label: t('hub.developer.apiKeys.location'), control: 'select', required: true, options: locations.map((l) => ({ value: l.id, label: `${l.name} (${l.code})` })) })}
  ${field(view, 'name', { label: t('hub.developer.apiKeys.name') })}
  ${field(view, 'kind', {
    label: t('hub.developer.apiKeys.kind'),
    control: 'select',
    options: [
      { value: 'secret', label: t('hub.developer.apiKeys.kind.secret') },
      { value: 'publishable', label: t('hub.developer.apiKeys.kind.publishable') },
    ],
  })}
  ${field(view, 'mode', {
    label: t('hub.developer.apiKeys.mode'),
    control: 'select',
    options: [
      { value: 'live', label: t('hub.developer.apiKeys.mode.live') },
      { value: 'test', label: t('hub.developer.apiKeys.mode.test') },
    ],
  })}
  ${field(view, 'allowedOrigins', { label: t('hub.developer.apiKeys.origins'), control: 'textarea', extra: html` rows="3" aria-describedby="key-origins-hint"` })}
  <p class="hint" id="key-origins-hint">${t('hub.developer.apiKeys.originsHint')}</p>
  <label class="check"><input type="checkbox" name="localhost" value="on"${options.state?.values.localhost ? html` checked` : null}> ${t('hub.developer.apiKeys.localhost')}</label>
  <button type="submit">${t('hub.developer.apiKeys.create')}</button>
</form>
<h2 id="test-data-heading">${t('hub.developer.apiKeys.testData')}</h2>
${postForm(ctx, paths.testDataDelete, html` class="inline" aria-labelledby="test-data-heading" data-confirm="${t('hub.developer.apiKeys.deleteTestDataConfirm')}"`)}<button type="submit" class="danger">${t('hub.developer.apiKeys.deleteTestData')}</button></form>`;
      return sendDeveloperPage(reply, ctx, {
        title: t('hub.developer.apiKeys.title'),
        body,
        notice: options.notice ?? null,
        status: options.status,
      });
    }

    app.get('/developer', { config: { hub: 'settings:manage' } }, async (request, reply) =>
      render(reply, request.hub, { notice: noticeOf(request.hub, request.query, DEVELOPER_NOTICES) }),
    );

    app.post('/developer/api-keys', { config: { hub: 'settings:manage' } }, async (request, reply) => {
      const ctx = request.hub;
      const done = await submit(NewApiKeyBody, request, (input) => c.apiKeys.createApiKey(ctx.user.companyId, input), {
        read: (f) => {
          const kind = f.kind === 'publishable' ? 'publishable' : 'secret';
          const origins = (f.allowedOrigins ?? '').split(/\s+/).filter((o) => o !== '');
          if (f.localhost) origins.push(ANY_LOCALHOST);
          return {
            locationId: f.locationId ?? '',
            name: f.name ?? '',
            kind,
            mode: f.mode === 'test' ? 'test' : 'live',
            ...(kind === 'publishable' || origins.length > 0 ? { allowedOrigins: origins } : {}),
          };
        },
        refusals: ['validation_failed'],
      });
      // Not a redirect: the key exists only in this response and must never travel in a URL.
      if (done.ok)
        return render(reply, ctx, { created: { name: done.result.name, key: done.result.key }, status: 201 });
      return render(reply, ctx, { state: done.state, status: done.status });
    });

    app.post('/developer/test-data/delete', { config: { hub: 'settings:manage' } }, async (request, reply) => {
      await deleteTestData(c, request.hub.user.companyId);
      return redirectWith(reply, paths.developer, 'testDataDeleted');
    });

    app.post<{ Params: IdParams }>(
      '/developer/api-keys/:id/revoke',
      { config: { hub: 'settings:manage' } },
      async (request, reply) => {
        await c.apiKeys.revokeApiKey(request.hub.user.companyId, request.params.id);
        return redirectWith(reply, paths.developer, 'keyRevoked');
      },
    );
  };

/** "Publishable · test": what the key is, as its prefix says. */
function kindLabel(ctx: HubContext, k: ApiKeySummary) {
  const { t } = ctx;
  const kind = t(
    k.kind === 'publishable' ? 'hub.developer.apiKeys.kind.publishable' : 'hub.developer.apiKeys.kind.secret',
  );
  return k.mode === 'test'
    ? html`${kind} · <span class="status test">${t('hub.developer.apiKeys.mode.test')}</span>`
    : kind;
}
