import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Container } from '../../../../container.ts';
import { html, type Html } from '../../html.ts';
import type { HubContext } from '../../hub-context.ts';
import { csrfField } from '../../layout.ts';
import { noticeOf, bodyText } from '../../form.ts';
import {
  attempt,
  catalogPage,
  checkText,
  field,
  formError,
  CATALOG_NOTICES,
  select,
  stateOf,
  type Body,
  type FormState,
} from './catalog-form.ts';
import { paths, withNotice } from '../../paths.ts';

interface Category {
  id: string;
  name: string;
  parentId: string | null;
}

/** The tree as nested lists: each category with its children, by name (the service's order). */
function tree(
  all: readonly Category[],
  parentId: string | null,
  item: (c: Category, children: Html | null) => Html,
): Html | null {
  const level = all.filter((c) => c.parentId === parentId);
  if (level.length === 0) return null;
  return html`<ul class="tree">${level.map((c) => item(c, tree(all, c.id, item)))}</ul>`;
}

/** Each category's full path ("Boje i lakovi / Boje za drvo"), for choosing a parent. */
export function categoryPaths(all: readonly Category[]): Array<{ value: string; label: string }> {
  const byId = new Map(all.map((c) => [c.id, c]));
  const path = (c: Category): string => {
    const names = [c.name];
    for (
      let p = c.parentId ? byId.get(c.parentId) : undefined, hops = 0;
      p && hops < all.length;
      p = p.parentId ? byId.get(p.parentId) : undefined, hops++
    )
      names.unshift(p.name);
    return names.join(' / ');
  };
  return all.map((c) => ({ value: c.id, label: path(c) })).sort((a, b) => a.label.localeCompare(b.label));
}

/** Categories: the tree, created, renamed, moved and deleted in place. */
export const categoriesPage =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    async function render(request: FastifyRequest, reply: FastifyReply, state?: FormState, status?: number) {
      const ctx = request.hub;
      const { t } = ctx;
      const all = await c.catalogAdmin.listCategories(ctx.user.companyId);
      const canWrite = ctx.can('catalog:write');
      const parents = [{ value: '', label: t('hub.catalog.topLevel') }, ...categoryPaths(all)];
      const item = (cat: Category, children: Html | null) => {
        const mine = stateOf(state, `category-${cat.id}`);
        return html`<li><span class="tree-name">${cat.name}</span>
${
  canWrite
    ? editForms(
        ctx,
        cat,
        parents.filter((p) => p.value !== cat.id),
        mine,
      )
    : null
}
${children}</li>`;
      };
      const create = stateOf(state, 'category-new');
      const body = html`<h1>${t('hub.catalog.title')}</h1>
<h2>${t('hub.catalog.categories')}</h2>
${all.length === 0 ? html`<p>${t('hub.catalog.noCategories')}</p>` : tree(all, null, item)}
${
  canWrite
    ? html`<h2>${t('hub.catalog.newCategory')}</h2>
${formError(t, create)}
<form method="post" action="${paths.categories}" class="row">${csrfField(ctx)}
  <div>${field({ id: 'category-new-name', name: 'name', label: t('hub.catalog.name'), state: create, required: true, maxlength: 200 })}</div>
  <div>${select({ id: 'category-new-parent', name: 'parentId', label: t('hub.catalog.parent'), state: create, options: parents })}</div>
  <button type="submit">${t('hub.catalog.add')}</button>
</form>`
    : null
}`;
      return catalogPage(ctx, reply, {
        title: t('hub.catalog.categories'),
        body,
        status,
        notice: state ? null : noticeOf(ctx, request.query, CATALOG_NOTICES),
      });
    }

    app.get('/catalog', { config: { hub: 'catalog:read' } }, (request, reply) => render(request, reply));

    app.post('/catalog/categories', { config: { hub: 'catalog:write' } }, async (request, reply) => {
      const body = request.body as Body;
      const values = { name: bodyText(body, 'name').trim(), parentId: bodyText(body, 'parentId').trim() };
      const failed = await attempt('category-new', values, async () => {
        checkText(request.hub.t, values, { name: { max: 200, required: true } });
        await c.catalogAdmin.createCategory(request.hub.user.companyId, {
          name: values.name,
          parentId: values.parentId || null,
        });
      });
      return failed
        ? render(request, reply, failed.state, failed.status)
        : reply.redirect(withNotice(paths.catalog, 'created'), 303);
    });

    app.post('/catalog/categories/:id', { config: { hub: 'catalog:write' } }, async (request, reply) => {
      const { id } = request.params as { id: string };
      const body = request.body as Body;
      const values = { name: bodyText(body, 'name').trim(), parentId: bodyText(body, 'parentId').trim() };
      const failed = await attempt(`category-${id}`, values, async () => {
        checkText(request.hub.t, values, { name: { max: 200, required: true } });
        await c.catalogAdmin.updateCategory(request.hub.user.companyId, id, {
          name: values.name,
          parentId: values.parentId || null,
        });
      });
      return failed
        ? render(request, reply, failed.state, failed.status)
        : reply.redirect(withNotice(paths.catalog, 'saved'), 303);
    });

    app.post('/catalog/categories/:id/delete', { config: { hub: 'catalog:write' } }, async (request, reply) => {
      const { id } = request.params as { id: string };
      const failed = await attempt(`category-${id}`, {}, () =>
        c.catalogAdmin.deleteCategory(request.hub.user.companyId, id),
      );
      return failed
        ? render(request, reply, failed.state, failed.status)
        : reply.redirect(withNotice(paths.catalog, 'deleted'), 303);
    });
  };

/** Rename-or-move folded away under the name (open when it was refused), and delete beside it. */
function editForms(
  ctx: HubContext,
  cat: Category,
  parents: ReadonlyArray<{ value: string; label: string }>,
  state: FormState | undefined,
): Html {
  const { t } = ctx;
  const seeded = state ?? undefined;
  return html`<details${state ? html` open` : null}><summary>${t('hub.catalog.renameOrMove')}<span class="sr-only">: ${cat.name}</span></summary>
${formError(t, state)}
<form method="post" action="${paths.category(cat.id)}" class="row">${csrfField(ctx)}
  <div>${field({ id: `category-${cat.id}-name`, name: 'name', label: t('hub.catalog.name'), state: seeded?.values.name !== undefined ? seeded : undefined, value: cat.name, required: true, maxlength: 200 })}</div>
  <div>${select({ id: `category-${cat.id}-parent`, name: 'parentId', label: t('hub.catalog.parent'), state: seeded?.values.parentId !== undefined ? seeded : undefined, value: cat.parentId ?? '', options: parents })}</div>
  <button type="submit">${t('action.save')}</button>
</form>
<form method="post" action="${paths.categoryDelete(cat.id)}" class="inline" data-confirm="${t('hub.catalog.confirmDelete', { name: cat.name })}">${csrfField(ctx)}
  <button type="submit" class="danger">${t('hub.catalog.delete')}<span class="sr-only"> ${cat.name}</span></button>
</form>
</details>`;
}
