import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Container } from '../../../../container.ts';
import { html } from '../../html.ts';
import { csrfField } from '../../layout.ts';
import { noticeOf, bodyText } from '../../form.ts';
import {
  attempt,
  catalogPage,
  checkText,
  field,
  formError,
  CATALOG_NOTICES,
  stateOf,
  type Body,
  type FormState,
} from './catalog-form.ts';
import { paths, withNotice } from '../../paths.ts';

/** Models (brands, product lines): a list renamed in place, deleted when no product uses one. */
export const modelsPage =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    async function render(request: FastifyRequest, reply: FastifyReply, state?: FormState, status?: number) {
      const ctx = request.hub;
      const { t } = ctx;
      const models = await c.catalogAdmin.listModels(ctx.user.companyId);
      const canWrite = ctx.can('catalog:write');
      const create = stateOf(state, 'model-new');
      const row = (m: { id: string; name: string }) => {
        if (!canWrite) return html`<tr><td>${m.name}</td></tr>`;
        const mine = stateOf(state, `model-${m.id}`);
        return html`<tr><td>
  ${formError(t, mine)}
  <form method="post" action="${paths.model(m.id)}" class="row">${csrfField(ctx)}
    <div>${field({ id: `model-${m.id}-name`, name: 'name', label: t('hub.catalog.name'), state: mine?.values.name !== undefined ? mine : undefined, value: m.name, required: true, maxlength: 200 })}</div>
    <button type="submit">${t('action.save')}</button>
  </form></td>
  <td><form method="post" action="${paths.modelDelete(m.id)}" class="inline" data-confirm="${t('hub.catalog.confirmDelete', { name: m.name })}">${csrfField(ctx)}
    <button type="submit" class="danger">${t('hub.catalog.delete')}<span class="sr-only"> ${m.name}</span></button></form></td></tr>`;
      };
      const body = html`<h1>${t('hub.catalog.models')}</h1>
${
  models.length === 0
    ? html`<p>${t('hub.catalog.noModels')}</p>`
    : html`<table>
<thead><tr><th scope="col">${t('hub.catalog.name')}</th>${canWrite ? html`<th scope="col"><span class="sr-only">${t('hub.catalog.delete')}</span></th>` : null}</tr></thead>
<tbody>${models.map(row)}</tbody></table>`
}
${
  canWrite
    ? html`<h2>${t('hub.catalog.newModel')}</h2>
${formError(t, create)}
<form method="post" action="${paths.models}" class="row">${csrfField(ctx)}
  <div>${field({ id: 'model-new-name', name: 'name', label: t('hub.catalog.name'), state: create, required: true, maxlength: 200 })}</div>
  <button type="submit">${t('hub.catalog.add')}</button>
</form>`
    : null
}`;
      return catalogPage(ctx, reply, {
        title: t('hub.catalog.models'),
        body,
        status,
        notice: state ? null : noticeOf(ctx, request.query, CATALOG_NOTICES),
      });
    }

    app.get('/catalog/models', { config: { hub: 'catalog:read' } }, (request, reply) => render(request, reply));

    app.post('/catalog/models', { config: { hub: 'catalog:write' } }, async (request, reply) => {
      const values = { name: bodyText(request.body as Body, 'name').trim() };
      const failed = await attempt('model-new', values, async () => {
        checkText(request.hub.t, values, { name: { max: 200, required: true } });
        await c.catalogAdmin.createModel(request.hub.user.companyId, values);
      });
      return failed
        ? render(request, reply, failed.state, failed.status)
        : reply.redirect(withNotice(paths.models, 'created'), 303);
    });

    app.post('/catalog/models/:id', { config: { hub: 'catalog:write' } }, async (request, reply) => {
      const { id } = request.params as { id: string };
      const values = { name: bodyText(request.body as Body, 'name').trim() };
      const failed = await attempt(`model-${id}`, values, async () => {
        checkText(request.hub.t, values, { name: { max: 200, required: true } });
        await c.catalogAdmin.updateModel(request.hub.user.companyId, id, values);
      });
      return failed
        ? render(request, reply, failed.state, failed.status)
        : reply.redirect(withNotice(paths.models, 'saved'), 303);
    });

    app.post('/catalog/models/:id/delete', { config: { hub: 'catalog:write' } }, async (request, reply) => {
      const { id } = request.params as { id: string };
      const failed = await attempt(`model-${id}`, {}, () => c.catalogAdmin.deleteModel(request.hub.user.companyId, id));
      return failed
        ? render(request, reply, failed.state, failed.status)
        : reply.redirect(withNotice(paths.models, 'deleted'), 303);
    });
  };
