import { kpdPickerAttrs, kpdPickerList } from './kpd-picker.ts';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Container } from '../../../../container.ts';
import { parsePrice } from '../../../../modules/catalog/index.ts';
import type { HubTranslate } from '../../texts/index.ts';
import { html } from '../../html.ts';
import {
  field,
  formError,
  maxLengthAt,
  noticeOf,
  queryChoice,
  queryText,
  postForm,
  select,
  submit,
  type FormBody,
  type FormState,
  type FormView,
  type Route,
} from '../../form.ts';
import { decimalPoint } from '../../../../lib/money.ts';
import { NewProductForm, UnitForm } from '../../../requests/catalog.ts';
import { catalogPage, CATALOG_NOTICES } from './catalog-frame.ts';
import { categoryPaths } from './categories.page.ts';
import { paths, withNotice } from '../../paths.ts';

const PAGE_SIZE = 25;
/** Unit rows on the new-product form; more are added on the product's page. */
const UNIT_ROWS = 3;

/** The product list (search, active filter, keyset paging) and the new-product form. */
export const productsPage =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    app.get<Route>('/catalog/products', { config: { hub: 'catalog:read' } }, async (request, reply) => {
      const ctx = request.hub;
      const { t, fmt } = ctx;
      const query = {
        active: queryChoice(request.query.active, ['true', 'false'] as const),
        cursor: queryText(request.query.cursor, 500),
      };
      const q = queryText(request.query.q, 100) ?? '';
      const active = query.active === 'true' ? true : query.active === 'false' ? false : undefined;
      const categoryId = queryText(request.query.categoryId, 64);
      const [list, categories] = await Promise.all([
        c.catalogAdmin.listProducts(ctx.user.companyId, {
          limit: PAGE_SIZE,
          cursor: query.cursor,
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
        notice: noticeOf(ctx, request.query, CATALOG_NOTICES),
      });
    });

    async function renderNew(request: FastifyRequest, reply: FastifyReply, state?: FormState, status?: number) {
      const ctx = request.hub;
      const { t } = ctx;
      const [categories, models, rates, company] = await Promise.all([
        c.catalogAdmin.listCategories(ctx.user.companyId),
        c.catalogAdmin.listModels(ctx.user.companyId),
        c.catalogAdmin.listTaxRates(ctx.user.companyId),
        c.companies.getCompany(ctx.user.companyId),
      ]);
      const view = { id: 'product', schema: NewProductForm, state, note: 'span' } as const;
      // A row is optional as a whole (one unit is enough); its limits are a unit's.
      const row = (i: number, name: 'name' | 'price') => ({
        id: `unit-${i}-${name}`,
        path: `unit${i}${name === 'name' ? 'Name' : 'Price'}`,
        required: false,
        maxlength: maxLengthAt(UnitForm, name),
      });
      const units = Array.from(
        { length: UNIT_ROWS },
        (_, i) => html`<div class="unit-row">
  <div>${field(view, `unit${i}Name`, { ...row(i, 'name'), label: t('hub.catalog.unitN', { n: i + 1 }) })}</div>
  <div>${field(view, `unit${i}Price`, { ...row(i, 'price'), label: t('hub.catalog.priceN', { n: i + 1 }), inputmode: 'decimal' })}</div>
</div>`,
      );
      const body = html`<h1>${t('hub.catalog.newProduct')}</h1>
${formError(t, state)}
${postForm(ctx, paths.products, html` class="stack"`)}
  ${productFields(t, view, { categories, models, rates })}
  <fieldset><legend>${t('hub.catalog.units')}</legend>
  <p class="muted">${t(company.pricesIncludeTax ? 'hub.prices.basisGross' : 'hub.prices.basisNet')}</p>
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
      let rows: number[] = [];
      const done = await submit(
        NewProductForm,
        request,
        (input) => c.catalogAdmin.createProduct(request.hub.user.companyId, input),
        {
          form: 'product-new',
          // A barcode another product has is said at the barcode field.
          fieldCodes: ['conflict'],
          read: (f) => {
            // A row is a unit when either cell is filled; half a row is named by the check.
            rows = Array.from({ length: UNIT_ROWS }, (_, i) => i).filter(
              (i) => f[`unit${i}Name`] || f[`unit${i}Price`],
            );
            return {
              ...productInput(f),
              taxRateId: f.taxRateId ?? '',
              units: rows.map((i) => ({
                name: f[`unit${i}Name`] ?? '',
                price: decimalPoint(f[`unit${i}Price`] ?? ''),
              })),
            };
          },
        },
      );
      if (done.ok) return reply.redirect(withNotice(paths.product(done.result.id), 'created'), 303);
      return renderNew(request, reply, { ...done.state, errors: byRow(done.state.errors, rows) }, done.status);
    });
  };

/** A product's own fields as the admin API's body: an empty optional field is no value (null). */
export function productInput(f: FormBody) {
  return {
    name: f.name ?? '',
    ...(f.sku === undefined ? {} : { sku: f.sku }),
    ...(f.barcode === undefined ? {} : { barcode: f.barcode }),
    ...(f.description === undefined ? {} : { description: f.description }),
    ...(f.categoryId === undefined ? {} : { categoryId: f.categoryId }),
    ...(f.modelId === undefined ? {} : { modelId: f.modelId }),
    ...(f.classificationCode === undefined ? {} : { classificationCode: f.classificationCode }),
  };
}

/** The check and the service name a unit by its place among those sent (`units[1].price`); the form, by its row's field. */
function byRow(errors: FormState['errors'], rows: number[]): FormState['errors'] {
  return Object.fromEntries(
    Object.entries(errors).map(([path, messages]) => {
      const m = /^units\[(\d+)\]\.(name|price)$/.exec(path);
      return [m ? `unit${rows[Number(m[1])]}${m[2] === 'name' ? 'Name' : 'Price'}` : path, messages];
    }),
  );
}

/** The product's own fields, on the new-product form and the product's page. */
export function productFields(
  t: HubTranslate,
  view: FormView,
  lists: {
    categories: Array<{ id: string; name: string; parentId: string | null }>;
    models: Array<{ id: string; name: string }>;
    rates: Array<{ id: string; name: string; rate: string }>;
  },
) {
  const none = { value: '', label: t('hub.catalog.none') };
  const v = {
    ...view,
    id: 'product',
    // A new product starts with the first tax rate chosen.
    // The company's standard (highest) rate first: the list is sorted by rate, and its first, a
    // 0 % rate, put new products out of VAT by accident.
    values: { taxRateId: standardRateId(lists.rates), ...view.values },
  };
  return html`${field(v, 'name', { label: t('hub.catalog.name') })}
${field(v, 'sku', { label: t('hub.catalog.sku') })}
${field(v, 'barcode', { label: t('hub.catalog.barcode'), inputmode: 'numeric', autocomplete: 'off' })}
${field(v, 'categoryId', { id: 'product-category', label: t('hub.catalog.category'), control: 'select', options: [none, ...categoryPaths(lists.categories)] })}
${field(v, 'modelId', { id: 'product-model', label: t('hub.catalog.model'), control: 'select', options: [none, ...lists.models.map((m) => ({ value: m.id, label: m.name }))] })}
${field(v, 'taxRateId', { id: 'product-tax-rate', label: t('hub.catalog.taxRate'), control: 'select', options: lists.rates.map((r) => ({ value: r.id, label: `${r.name} (${r.rate} %)` })) })}
${field(v, 'classificationCode', { id: 'product-classification', label: t('hub.catalog.classification'), autocomplete: 'off', extra: kpdPickerAttrs() })}
${kpdPickerList()}
${field(v, 'description', { label: t('hub.catalog.description'), control: 'textarea' })}`;
}

function standardRateId(rates: ReadonlyArray<{ id: string; rate: string }>): string | undefined {
  let best: { id: string; rate: number } | undefined;
  for (const r of rates) {
    const rate = Number(r.rate);
    if (rate > 0 && (!best || rate > best.rate)) best = { id: r.id, rate };
  }
  return best?.id ?? rates[0]?.id;
}
