import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Container } from '../../../../container.ts';
import { AppError } from '../../../../lib/errors.ts';
import { CATALOG_SCOPE_KINDS, type CatalogScopeKind } from '../../../../modules/companies/index.ts';
import { CatalogScopeBody } from '../../../requests/developer.ts';
import { html, type Html } from '../../html.ts';
import type { HubContext } from '../../hub-context.ts';
import {
  bodyList,
  fieldError,
  messagesAt,
  noticeOf,
  postForm,
  queryText,
  submit,
  type FieldErrors,
  type Route,
} from '../../form.ts';
import { formErrors, DEVELOPER_NOTICES, redirectWith, sendDeveloperPage } from './developer-frame.ts';
import { paths } from '../../paths.ts';

/** How many products the pickers and the preview list: a scope page, not a catalog browser. */
const PICK_LIMIT = 200;
const PREVIEW_LIMIT = 50;

const KIND_LABEL = {
  all: 'hub.developer.scope.all',
  products: 'hub.developer.scope.products',
  categories: 'hub.developer.scope.categories',
  models: 'hub.developer.scope.models',
} as const;

const LIST_LABEL = {
  products: 'hub.developer.scope.productList',
  categories: 'hub.developer.scope.categoryList',
  models: 'hub.developer.scope.modelList',
} as const;

/** The kinds of scope that name a list of ids, each picked in its own list. */
const LISTS = CATALOG_SCOPE_KINDS.filter((k): k is Exclude<CatalogScopeKind, 'all'> => k !== 'all');

/** What the public API exposes (the catalog scope), and the catalog as one API key sees it. */
export const catalogScopePage =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    async function render(
      reply: FastifyReply,
      ctx: HubContext,
      options: {
        scope?: { kind: string; ids: string[] };
        errors?: FieldErrors;
        apiKeyId?: string;
        notice?: string | null;
        status?: number;
      },
    ) {
      const { t } = ctx;
      const companyId = ctx.user.companyId;
      const [saved, products, categories, models, keys] = await Promise.all([
        c.catalogScope.get(companyId),
        c.catalogAdmin.listProducts(companyId, { limit: PICK_LIMIT, active: true }),
        c.catalogAdmin.listCategories(companyId),
        c.catalogAdmin.listModels(companyId),
        c.apiKeys.listApiKeys(companyId),
      ]);
      const scope = options.scope ?? saved;
      const errors = options.errors ?? {};
      const ids = fieldError('scope-ids', messagesAt(errors, ['ids']), 'span');
      const chosen = new Set(scope.ids);
      const picker = (
        kind: Exclude<CatalogScopeKind, 'all'>,
        items: ReadonlyArray<{ id: string; name: string }>,
      ) => html`
  <label for="scope-${kind}">${t(LIST_LABEL[kind])}</label>
  <select id="scope-${kind}" name="${kind}" multiple size="6"${scope.kind === kind ? ids.attrs : null}>
    ${items.map((item) => html`<option value="${item.id}"${scope.kind === kind && chosen.has(item.id) ? html` selected` : null}>${item.name}</option>`)}
  </select>${scope.kind === kind ? ids.note : null}`;
      const live = keys.filter((k) => k.revokedAt === null);
      const body = html`<h1>${t('hub.developer.scope.title')}</h1>
<p>${t('hub.developer.scope.intro')}</p>
${formErrors(ctx, errors, ['ids'])}
${postForm(ctx, paths.catalogScope, html` class="stack"`)}
  <fieldset><legend>${t('hub.developer.scope.kind')}</legend>
    ${CATALOG_SCOPE_KINDS.map((kind) => html`<label class="check"><input type="radio" name="kind" value="${kind}"${scope.kind === kind ? html` checked` : null}> ${t(KIND_LABEL[kind])}</label>`)}
  </fieldset>
  <p class="hint">${t('hub.developer.scope.pickHint')}</p>
  ${picker('products', products.data)}
  ${picker('categories', categories)}
  ${picker('models', models)}
  <button type="submit">${t('hub.developer.save')}</button>
</form>

<h2 id="preview-heading">${t('hub.developer.scope.preview')}</h2>
<form method="get" action="${paths.catalogScope}" class="row" hx-get="${paths.catalogScopePreview}" hx-trigger="change" hx-target="#scope-preview" aria-labelledby="preview-heading">
  <label for="preview-key">${t('hub.developer.scope.previewKey')}</label>
  <select id="preview-key" name="apiKey">
    <option value="">—</option>
    ${live.map((k) => html`<option value="${k.id}"${options.apiKeyId === k.id ? html` selected` : null}>${k.name}</option>`)}
  </select>
  <button type="submit" class="secondary">${t('hub.developer.scope.show')}</button>
</form>
<div id="scope-preview" aria-live="polite">${options.apiKeyId ? await preview(ctx, options.apiKeyId) : null}</div>`;
      return sendDeveloperPage(reply, ctx, {
        title: t('hub.developer.scope.title'),
        body,
        notice: options.notice ?? null,
        status: options.status,
      });
    }

    /** The products the public API lists for this key, from the very service its catalog route calls. */
    async function preview(ctx: HubContext, apiKeyId: string): Promise<Html> {
      const { t } = ctx;
      const key = (await c.apiKeys.listApiKeys(ctx.user.companyId)).find((k) => k.id === apiKeyId);
      if (!key) throw AppError.notFound('API key');
      if (key.revokedAt) return html`<p>${t('hub.developer.scope.revokedKey')}</p>`;
      const { data, nextCursor } = await c.catalog.listProducts(ctx.user.companyId, { limit: PREVIEW_LIMIT });
      if (data.length === 0) return html`<p>${t('hub.developer.scope.emptyPreview')}</p>`;
      return html`<table>
  <thead><tr><th scope="col">${t('hub.developer.scope.product')}</th><th scope="col">${t('hub.developer.scope.sku')}</th><th scope="col">${t('hub.developer.scope.units')}</th></tr></thead>
  <tbody>${data.map((p) => html`<tr><td>${p.name}</td><td>${p.sku ?? ''}</td><td>${p.units.map((u) => `${u.name} ${u.priceWithTax}`).join(', ')}</td></tr>`)}</tbody>
</table>${nextCursor ? html`<p class="hint">${t('hub.developer.scope.more', { count: PREVIEW_LIMIT })}</p>` : null}`;
    }

    app.get<Route>('/developer/catalog-scope', { config: { hub: 'settings:manage' } }, async (request, reply) =>
      render(reply, request.hub, {
        notice: noticeOf(request.hub, request.query, DEVELOPER_NOTICES),
        apiKeyId: queryText(request.query.apiKey, 64),
      }),
    );

    app.get<Route>(
      '/developer/catalog-scope/preview',
      { config: { hub: 'settings:manage' } },
      async (request, reply) => {
        const apiKey = queryText(request.query.apiKey, 64);
        const fragment = apiKey ? await preview(request.hub, apiKey) : html``;
        return reply.type('text/html; charset=utf-8').send(fragment.value);
      },
    );

    app.post('/developer/catalog-scope', { config: { hub: 'settings:manage' } }, async (request, reply) => {
      const ctx = request.hub;
      const kind = bodyList(request.body, 'kind')[0] ?? 'all';
      // Only the list of the chosen kind counts: the other pickers keep whatever they showed.
      const ids = (LISTS as readonly string[]).includes(kind) ? bodyList(request.body, kind) : [];
      const done = await submit(CatalogScopeBody, request, (scope) => c.catalogScope.set(ctx.user.companyId, scope), {
        read: () => ({ kind, ids }),
        refusals: ['validation_failed'],
      });
      if (!done.ok)
        return render(reply, ctx, {
          scope: { kind, ids },
          errors: done.state.message ? { _: [done.state.message] } : done.state.errors,
          status: done.status,
        });
      return redirectWith(reply, paths.catalogScope, 'scopeSaved');
    });
  };
