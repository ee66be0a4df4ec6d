import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Container } from '../../../../container.ts';
import { AppError } from '../../../../lib/errors.ts';
import { parsePrice } from '../../../../modules/catalog/index.ts';
import type { HubTranslate } from '../../texts/index.ts';
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
  select,
  textarea,
  type Body,
  type FormState,
} from './catalog-form.ts';
import { decimalPoint } from '../../../../lib/money.ts';
import { categoryPaths } from './categories.page.ts';
import { paths, withNotice } from '../../paths.ts';

const PAGE_SIZE = 25;
/** Unit rows on the new-product form; more are added on the product's page. */
const UNIT_ROWS = 3;
export const PRODUCT_RULES = {
  name: { max: 300, required: true },
  sku: { max: 100 },
  description: { max: 5000 },
  taxRateId: { max: 64, required: true },
};

interface ListQuery {
  q?: string;
  active?: string;
  categoryId?: string;
  cursor?: string;
  notice?: string;
}

/** The product list (search, active filter, keyset paging) and the new-product form. */
export const productsPage =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    app.get('/catalog/products', { config: { hub: 'catalog:read' } }, async (request, reply) => {
      const ctx = request.hub;
      const { t, fmt } = ctx;
      const query = request.query as ListQuery;
      const q = (query.q ?? '').trim().slice(0, 100);
      const active = query.active === 'true' ? true : query.active === 'false' ? false : undefined;
      const categoryId =
        typeof query.categoryId === 'string' && query.categoryId ? query.categoryId.slice(0, 64) : undefined;
      const [list, categories] = await Promise.all([
        c.catalogAdmin.listProducts(ctx.user.companyId, {
          limit: PAGE_SIZE,
          cursor: query.cursor || undefined,
          q: q || undefined,
          active,
          categoryId,
        }),
        c.catalogAdmin.listCategories(ctx.user.companyId),
      ]);
      const categoryChoices = categoryPaths(categories);
      const categoryName = new Map(categoryChoices.map((p) => [p.value, p.label]));
      // The filters as they are, for the first-page link; plus the cursor for the next one.
      const filters = {
        ...(q ? { q } : {}),
        ...(query.active ? { active: query.active } : {}),
        ...(categoryId ? { categoryId } : {}),
      };
      const first = new URLSearchParams(filters).toString();
      const more = new URLSearchParams({ ...filters, ...(list.nextCursor ? { cursor: list.nextCursor } : {}) });
      const body = html`<h1>${t('hub.catalog.products')}</h1>
${ctx.can('catalog:write') ? html`<p><a class="button" href="${paths.newProduct}">${t('hub.catalog.newProduct')}</a></p>` : null}
<form method="get" action="${paths.products}" class="row" role="search">
  <div><label for="product-q">${t('hub.catalog.search')}</label> <input id="product-q" name="q" type="search" maxlength="100" value="${q}"></div>
  <div>${select({
    id: 'product-active',
    name: 'active',
    label: t('hub.catalog.show'),
    value: query.active ?? '',
    options: [
      { value: '', label: t('hub.catalog.all') },
      { value: 'true', label: t('hub.catalog.activeOnly') },
      { value: 'false', label: t('hub.catalog.inactiveOnly') },
    ],
  })}</div>
  <div>${select({ id: 'product-category-filter', name: 'categoryId', label: t('hub.catalog.category'), value: categoryId ?? '', options: [{ value: '', label: t('hub.catalog.all') }, ...categoryChoices] })}</div>
  <button type="submit">${t('action.search')}</button>
</form>
${
  list.data.length === 0
    ? html`<p>${t('common.noResults')}</p>`
    : html`<table>
<thead><tr><th scope="col">${t('hub.catalog.name')}</th><th scope="col">${t('hub.catalog.sku')}</th><th scope="col">${t('hub.catalog.category')}</th>
<th scope="col">${t('hub.catalog.units')}</th><th scope="col">${t('hub.catalog.datasheet')}</th><th scope="col">${t('common.status')}</th></tr></thead>
<tbody>${list.data.map(
        (p) => html`<tr>
  <td><a href="${paths.product(p.id)}">${p.name}</a></td><td>${p.sku ?? ''}</td><td>${p.categoryId ? (categoryName.get(p.categoryId) ?? '') : ''}</td>
  <td>${p.units.map((u, i) => html`${i > 0 ? ', ' : ''}${u.name} ${fmt.money(parsePrice(u.price))}`)}</td>
  <td>${p.hasDatasheet ? t('hub.catalog.yes') : t('hub.catalog.no')}</td>
  <td><span class="status ${p.active ? 'active' : 'disabled'}">${p.active ? t('hub.catalog.active') : t('hub.catalog.inactive')}</span></td>
</tr>`,
      )}</tbody></table>`
}
<p>${query.cursor ? html`<a href="${first ? `${paths.products}?${first}` : paths.products}">${t('hub.catalog.firstPage')}</a> ` : null}
${list.nextCursor ? html`<a href="${paths.products}?${more.toString()}">${t('hub.catalog.nextPage')}</a>` : null}</p>`;
      return catalogPage(ctx, reply, {
        title: t('hub.catalog.products'),
        body,
        notice: noticeOf(ctx, query, CATALOG_NOTICES),
      });
    });

    async function renderNew(request: FastifyRequest, reply: FastifyReply, state?: FormState, status?: number) {
      const ctx = request.hub;
      const { t } = ctx;
      const [categories, models, rates] = await Promise.all([
        c.catalogAdmin.listCategories(ctx.user.companyId),
        c.catalogAdmin.listModels(ctx.user.companyId),
        c.catalogAdmin.listTaxRates(ctx.user.companyId),
      ]);
      const units = Array.from(
        { length: UNIT_ROWS },
        (_, i) => html`<div class="unit-row">
  <div>${field({ id: `unit-${i}-name`, name: `unit${i}Name`, label: t('hub.catalog.unitN', { n: i + 1 }), state, maxlength: 50 })}</div>
  <div>${field({ id: `unit-${i}-price`, name: `unit${i}Price`, label: t('hub.catalog.priceN', { n: i + 1 }), state, maxlength: 20, extra: html` inputmode="decimal"` })}</div>
</div>`,
      );
      const body = html`<h1>${t('hub.catalog.newProduct')}</h1>
${formError(t, state)}
<form method="post" action="${paths.products}" class="stack">${csrfField(ctx)}
  ${productFields(t, state, null, { categories, models, rates })}
  <fieldset><legend>${t('hub.catalog.units')}</legend>
    <p class="muted" id="units-help">${t('hub.catalog.unitsHelp')}</p>
    ${state?.errors.units ? html`<span class="field-error">${state.errors.units.join(' ')}</span>` : null}
    ${units}
  </fieldset>
  <button type="submit">${t('hub.catalog.add')}</button>
</form>`;
      return catalogPage(ctx, reply, { title: t('hub.catalog.newProduct'), body, status });
    }

    app.get('/catalog/products/new', { config: { hub: 'catalog:write' } }, (request, reply) =>
      renderNew(request, reply),
    );

    app.post('/catalog/products', { config: { hub: 'catalog:write' } }, async (request, reply) => {
      const body = request.body as Body;
      const values = readProduct(body);
      for (let i = 0; i < UNIT_ROWS; i++) {
        values[`unit${i}Name`] = bodyText(body, `unit${i}Name`).trim();
        values[`unit${i}Price`] = bodyText(body, `unit${i}Price`).trim();
      }
      let id = '';
      const failed = await attempt('product-new', values, async () => {
        checkText(request.hub.t, values, PRODUCT_RULES);
        // A row is a unit when either cell is filled; half a row is named by the service's check.
        const rows = Array.from({ length: UNIT_ROWS }, (_, i) => i).filter(
          (i) => values[`unit${i}Name`] || values[`unit${i}Price`],
        );
        const created = await c.catalogAdmin
          .createProduct(request.hub.user.companyId, {
            ...productInput(values),
            taxRateId: values.taxRateId!,
            units: rows.map((i) => ({ name: values[`unit${i}Name`]!, price: decimalPoint(values[`unit${i}Price`]!) })),
          })
          .catch((error: unknown) => {
            throw renameUnitFields(error, rows);
          });
        id = created.id;
      });
      return failed
        ? renderNew(request, reply, failed.state, failed.status)
        : reply.redirect(withNotice(paths.product(id), 'created'), 303);
    });
  };

/** The product's own fields, as typed. */
export function readProduct(body: Body): Record<string, string> {
  return {
    name: bodyText(body, 'name').trim(),
    sku: bodyText(body, 'sku').trim(),
    description: bodyText(body, 'description').trim(),
    categoryId: bodyText(body, 'categoryId').trim(),
    modelId: bodyText(body, 'modelId').trim(),
    taxRateId: bodyText(body, 'taxRateId').trim(),
  };
}

/** An empty optional field is no value (null), as the admin API's body would leave it. */
export function productInput(values: Record<string, string>) {
  return {
    name: values.name!,
    sku: values.sku || null,
    description: values.description || null,
    categoryId: values.categoryId || null,
    modelId: values.modelId || null,
  };
}

/** The service names a unit by its place among those sent (`units[1].price`); the form, by its row's field. */
function renameUnitFields(error: unknown, rows: number[]): unknown {
  if (!(error instanceof AppError) || !error.details) return error;
  const details = Object.fromEntries(
    Object.entries(error.details).map(([path, messages]) => {
      const m = /^units\[(\d+)\]\.(name|price)$/.exec(path);
      return [m ? `unit${rows[Number(m[1])]}${m[2] === 'name' ? 'Name' : 'Price'}` : path, messages];
    }),
  );
  return new AppError(error.code, error.message, details);
}

export function productFields(
  t: HubTranslate,
  state: FormState | undefined,
  product: {
    name: string;
    sku: string | null;
    description: string | null;
    categoryId: string | null;
    modelId: string | null;
    taxRateId: string;
  } | null,
  lists: {
    categories: Array<{ id: string; name: string; parentId: string | null }>;
    models: Array<{ id: string; name: string }>;
    rates: Array<{ id: string; name: string; rate: string }>;
  },
) {
  const none = { value: '', label: t('hub.catalog.none') };
  return html`${field({ id: 'product-name', name: 'name', label: t('hub.catalog.name'), state, value: product?.name, required: true, maxlength: 300 })}
${field({ id: 'product-sku', name: 'sku', label: t('hub.catalog.sku'), state, value: product?.sku, maxlength: 100 })}
${select({ id: 'product-category', name: 'categoryId', label: t('hub.catalog.category'), state, value: product?.categoryId ?? '', options: [none, ...categoryPaths(lists.categories)] })}
${select({ id: 'product-model', name: 'modelId', label: t('hub.catalog.model'), state, value: product?.modelId ?? '', options: [none, ...lists.models.map((m) => ({ value: m.id, label: m.name }))] })}
${select({ id: 'product-tax-rate', name: 'taxRateId', label: t('hub.catalog.taxRate'), state, value: product?.taxRateId ?? lists.rates[0]?.id ?? '', options: lists.rates.map((r) => ({ value: r.id, label: `${r.name} (${r.rate} %)` })) })}
${textarea({ id: 'product-description', name: 'description', label: t('hub.catalog.description'), state, value: product?.description, maxlength: 5000 })}`;
}
