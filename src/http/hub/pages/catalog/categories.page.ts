import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Container } from '../../../../container.ts';
import { html, type Html } from '../../html.ts';
import type { HubContext } from '../../hub-context.ts';
import {
  field,
  formError,
  noticeOf,
  NoFields,
  postForm,
  stateOf,
  submit,
  type FormBody,
  type FormState,
} from '../../form.ts';
import { paths, withNotice } from '../../paths.ts';
import { CategoryBody, CategoryPatch } from '../../../requests/catalog.ts';
import { catalogPage, CATALOG_NOTICES } from './catalog-frame.ts';

type IdParams = { id: string };

/** The form's fields as the admin API's body: no parent chosen is the top level (null). */
const readCategory = (f: FormBody) => ({ name: f.name ?? '', parentId: f.parentId ?? null });

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
      const create = {
        id: 'category-new',
        schema: CategoryBody,
        state: stateOf(state, 'category-new'),
        note: 'span',
      } as const;
      const body = html`<h1>${t('hub.catalog.title')}</h1>
<h2>${t('hub.catalog.categories')}</h2>
${all.length === 0 ? html`<p>${t('hub.catalog.noCategories')}</p>` : tree(all, null, item)}
${
  canWrite
    ? html`<h2>${t('hub.catalog.newCategory')}</h2>
${formError(t, create.state)}
${postForm(ctx, paths.categories, html` class="row"`)}
  <div>${field(create, 'name', { id: 'category-new-name', label: t('hub.catalog.name') })}</div>
  <div>${field(create, 'parentId', { id: 'category-new-parent', label: t('hub.catalog.parent'), control: 'select', options: parents })}</div>
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
      const done = await submit(
        CategoryBody,
        request,
        (input) => c.catalogAdmin.createCategory(request.hub.user.companyId, input),
        { form: 'category-new', read: readCategory },
      );
      return done.ok
        ? reply.redirect(withNotice(paths.catalog, 'created'), 303)
        : render(request, reply, done.state, done.status);
    });

    app.post<{ Params: IdParams }>(
      '/catalog/categories/:id',
      { config: { hub: 'catalog:write' } },
      async (request, reply) => {
        const { id } = request.params;
        const done = await submit(
          CategoryPatch,
          request,
          (input) => c.catalogAdmin.updateCategory(request.hub.user.companyId, id, input),
          { form: `category-${id}`, read: readCategory },
        );
        return done.ok
          ? reply.redirect(withNotice(paths.catalog, 'saved'), 303)
          : render(request, reply, done.state, done.status);
      },
    );

    app.post<{ Params: IdParams }>(
      '/catalog/categories/:id/delete',
      { config: { hub: 'catalog:write' } },
      async (request, reply) => {
        const { id } = request.params;
        const done = await submit(
          NoFields,
          request,
          () => c.catalogAdmin.deleteCategory(request.hub.user.companyId, id),
          {
            form: `category-${id}`,
          },
        );
        return done.ok
          ? reply.redirect(withNotice(paths.catalog, 'deleted'), 303)
          : render(request, reply, done.state, done.status);
      },
    );
  };

/** Rename-or-move folded away under the name (open when it was refused), and delete beside it. */
function editForms(
  ctx: HubContext,
  cat: Category,
  parents: ReadonlyArray<{ value: string; label: string }>,
  state: FormState | undefined,
): Html {
  const { t } = ctx;
  const view = {
    id: `category-${cat.id}`,
    schema: CategoryBody,
    state,
    values: { name: cat.name, parentId: cat.parentId },
    note: 'span',
  } as const;
  return html`<details${state ? html` open` : null}><summary>${t('hub.catalog.renameOrMove')}<span class="sr-only">: ${cat.name}</span></summary>
${formError(t, state)}
${postForm(ctx, paths.category(cat.id), html` class="row"`)}
  <div>${field(view, 'name', { label: t('hub.catalog.name') })}</div>
  <div>${field(view, 'parentId', { id: `category-${cat.id}-parent`, label: t('hub.catalog.parent'), control: 'select', options: parents })}</div>
  <button type="submit">${t('action.save')}</button>
</form>
${postForm(ctx, paths.categoryDelete(cat.id), html` class="inline" data-confirm="${t('hub.catalog.confirmDelete', { name: cat.name })}"`)}
  <button type="submit" class="danger">${t('hub.catalog.delete')}<span class="sr-only"> ${cat.name}</span></button>
</form>
</details>`;
}
