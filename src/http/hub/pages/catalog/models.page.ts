import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Container } from '../../../../container.ts';
import { html } from '../../html.ts';
import { field, formError, noticeOf, NoFields, postForm, stateOf, submit, type FormState } from '../../form.ts';
import { paths, withNotice } from '../../paths.ts';
import { ModelBody } from '../../../requests/catalog.ts';
import { catalogPage, CATALOG_NOTICES } from './catalog-frame.ts';

type IdParams = { id: string };

/** Models (brands, product lines): a list renamed in place, deleted when no product uses one. */
export const modelsPage =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    async function render(request: FastifyRequest, reply: FastifyReply, state?: FormState, status?: number) {
      const ctx = request.hub;
      const { t } = ctx;
      const models = await c.catalogAdmin.listModels(ctx.user.companyId);
      const canWrite = ctx.can('catalog:write');
      const create = { id: 'model-new', schema: ModelBody, state: stateOf(state, 'model-new'), note: 'span' } as const;
      const row = (m: { id: string; name: string }) => {
        if (!canWrite) return html`<tr><td>${m.name}</td></tr>`;
        const mine = stateOf(state, `model-${m.id}`);
        const view = {
          id: `model-${m.id}`,
          schema: ModelBody,
          state: mine,
          values: { name: m.name },
          note: 'span',
        } as const;
        return html`<tr><td>
  ${formError(t, mine)}
  ${postForm(ctx, paths.model(m.id), html` class="row"`)}
    <div>${field(view, 'name', { label: t('hub.catalog.name') })}</div>
    <button type="submit">${t('action.save')}</button>
  </form></td>
  <td>${postForm(ctx, paths.modelDelete(m.id), html` class="inline" data-confirm="${t('hub.catalog.confirmDelete', { name: m.name })}"`)}
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
${formError(t, create.state)}
${postForm(ctx, paths.models, html` class="row"`)}
  <div>${field(create, 'name', { label: t('hub.catalog.name') })}</div>
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
      const done = await submit(
        ModelBody,
        request,
        (input) => c.catalogAdmin.createModel(request.hub.user.companyId, input),
        { form: 'model-new' },
      );
      return done.ok
        ? reply.redirect(withNotice(paths.models, 'created'), 303)
        : render(request, reply, done.state, done.status);
    });

    app.post<{ Params: IdParams }>(
      '/catalog/models/:id',
      { config: { hub: 'catalog:write' } },
      async (request, reply) => {
        const { id } = request.params;
        const done = await submit(
          ModelBody,
          request,
          (input) => c.catalogAdmin.updateModel(request.hub.user.companyId, id, input),
          { form: `model-${id}` },
        );
        return done.ok
          ? reply.redirect(withNotice(paths.models, 'saved'), 303)
          : render(request, reply, done.state, done.status);
      },
    );

    app.post<{ Params: IdParams }>(
      '/catalog/models/:id/delete',
      { config: { hub: 'catalog:write' } },
      async (request, reply) => {
        const { id } = request.params;
        const done = await submit(NoFields, request, () => c.catalogAdmin.deleteModel(request.hub.user.companyId, id), {
          form: `model-${id}`,
        });
        return done.ok
          ? reply.redirect(withNotice(paths.models, 'deleted'), 303)
          : render(request, reply, done.state, done.status);
      },
    );
  };
