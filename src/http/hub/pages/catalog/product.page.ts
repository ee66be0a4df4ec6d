import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { fileHeaders } from '../../../file-reply.ts';
import type { Container } from '../../../../container.ts';
import { AppError } from '../../../../lib/errors.ts';
import { parsePrice } from '../../../../modules/catalog/index.ts';
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
import { decimalPoint } from '../../../../lib/money.ts';
import { NewProductForm, ProductPatch, UnitForm } from '../../../requests/catalog.ts';
import { catalogPage, CATALOG_NOTICES } from './catalog-frame.ts';
import { categoryPaths } from './categories.page.ts';
import { productFields } from './products.page.ts';
import { acceptUploads, uploadOf } from './uploads.ts';
import { paths, withNotice } from '../../paths.ts';

type IdParams = { id: string };
type UnitParams = { id: string; unitId: string };

/** A unit as typed, the price with a decimal point; the service reads and checks the price. */
const readUnit = (f: FormBody) => ({ name: f.name ?? '', price: decimalPoint(f.price ?? '') });

/** The product form as the admin API's change: a cleared optional field is cleared (null). */
const readProduct = (f: FormBody) => ({
  name: f.name ?? '',
  sku: f.sku ?? null,
  barcode: f.barcode ?? null,
  description: f.description ?? null,
  categoryId: f.categoryId ?? null,
  modelId: f.modelId ?? null,
  taxRateId: f.taxRateId ?? '',
  classificationCode: f.classificationCode ?? null,
});

type Product = Awaited<ReturnType<Container['catalogAdmin']['getProduct']>>;

/** One product: its fields, its units and prices, its datasheet, and deactivation. */
export const productPage =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    const megabytes = (ctx: HubContext) =>
      `${ctx.fmt.number(Math.round(c.config.datasheetMaxBytes / 104857.6) / 10)} MB`;

    async function render(
      request: FastifyRequest,
      reply: FastifyReply,
      id: string,
      state?: FormState,
      status?: number,
    ) {
      const ctx = request.hub;
      const { t } = ctx;
      const companyId = ctx.user.companyId;
      const [product, categories, models, rates, company] = await Promise.all([
        c.catalogAdmin.getProduct(companyId, id),
        c.catalogAdmin.listCategories(companyId),
        c.catalogAdmin.listModels(companyId),
        c.catalogAdmin.listTaxRates(companyId),
        c.companies.getCompany(companyId),
      ]);
      const canWrite = ctx.can('catalog:write');
      const edit = stateOf(state, 'product');
      const body = html`<p><a href="${paths.products}">${t('action.back')}</a></p>
<h1>${product.name}</h1>
<p><span class="status ${product.active ? 'active' : 'disabled'}">${product.active ? t('hub.catalog.active') : t('hub.catalog.inactive')}</span></p>
${
  canWrite
    ? html`<h2>${t('hub.catalog.editProduct')}</h2>
${formError(t, edit)}
${postForm(ctx, paths.product(product.id), html` class="stack"`)}
  ${productFields(t, { id: 'product', schema: NewProductForm, state: edit, values: product, note: 'span' }, { categories, models, rates })}
  <button type="submit">${t('action.save')}</button>
</form>
${postForm(ctx, paths.productAction(product.id, product.active ? 'deactivate' : 'activate'), html`${product.active ? html` data-confirm="${t('hub.catalog.confirmDeactivate')}"` : null}`)}
  <button type="submit" class="${product.active ? 'danger' : 'secondary'}">${product.active ? t('hub.catalog.deactivate') : t('hub.catalog.reactivate')}</button>
</form>`
    : facts(ctx, product, categoryPaths(categories), models, rates)
}
<h2>${t('hub.catalog.units')}</h2>
${units(ctx, product, state, canWrite, company.pricesIncludeTax)}
<h2>${t('hub.catalog.datasheet')}</h2>
${
  product.hasDatasheet
    ? html`<p><a href="${paths.productAction(product.id, 'datasheet')}" download>${t('hub.catalog.download', { name: t('hub.catalog.datasheet') })}</a></p>`
    : html`<p>${t('hub.catalog.noDatasheet')}</p>`
}
${canWrite ? datasheetForm(ctx, product.id, stateOf(state, 'datasheet'), megabytes(ctx)) : null}`;
      return catalogPage(ctx, reply, {
        title: product.name,
        body,
        status,
        notice: state ? null : noticeOf(ctx, request.query, CATALOG_NOTICES),
      });
    }

    app.get<{ Params: IdParams }>('/catalog/products/:id', { config: { hub: 'catalog:read' } }, (request, reply) =>
      render(request, reply, request.params.id),
    );

    app.post<{ Params: IdParams }>(
      '/catalog/products/:id',
      { config: { hub: 'catalog:write' } },
      async (request, reply) => {
        const { id } = request.params;
        const done = await submit(
          ProductPatch,
          request,
          (input) => c.catalogAdmin.updateProduct(request.hub.user.companyId, id, input),
          { form: 'product', read: readProduct, fieldCodes: ['conflict'] },
        );
        return done.ok
          ? reply.redirect(withNotice(paths.product(id), 'saved'), 303)
          : render(request, reply, id, done.state, done.status);
      },
    );

    app.post<{ Params: IdParams }>(
      '/catalog/products/:id/deactivate',
      { config: { hub: 'catalog:write' } },
      async (request, reply) => {
        await c.catalogAdmin.deactivateProduct(request.hub.user.companyId, request.params.id);
        return reply.redirect(withNotice(paths.product(request.params.id), 'deactivated'), 303);
      },
    );

    app.post<{ Params: IdParams }>(
      '/catalog/products/:id/activate',
      { config: { hub: 'catalog:write' } },
      async (request, reply) => {
        await c.catalogAdmin.updateProduct(request.hub.user.companyId, request.params.id, { active: true });
        return reply.redirect(withNotice(paths.product(request.params.id), 'saved'), 303);
      },
    );

    app.post<{ Params: IdParams }>(
      '/catalog/products/:id/units',
      { config: { hub: 'catalog:write' } },
      async (request, reply) => {
        const { id } = request.params;
        const done = await submit(
          UnitForm,
          request,
          (input) => c.catalogAdmin.addUnit(request.hub.user.companyId, id, input),
          { form: 'unit-new', read: readUnit },
        );
        return done.ok
          ? reply.redirect(withNotice(paths.product(id), 'created'), 303)
          : render(request, reply, id, done.state, done.status);
      },
    );

    /** A unit is addressed under its product, and must belong to it: the page to return to is the product's. */
    async function ownUnit(companyId: string, { id, unitId }: UnitParams): Promise<UnitParams> {
      const product = await c.catalogAdmin.getProduct(companyId, id);
      if (!product.units.some((u) => u.id === unitId)) throw AppError.notFound('Unit');
      return { id, unitId };
    }

    app.post<{ Params: UnitParams }>(
      '/catalog/products/:id/units/:unitId',
      { config: { hub: 'catalog:write' } },
      async (request, reply) => {
        const { id, unitId } = await ownUnit(request.hub.user.companyId, request.params);
        const done = await submit(
          UnitForm,
          request,
          (input) => c.catalogAdmin.updateUnit(request.hub.user.companyId, unitId, input),
          { form: `unit-${unitId}`, read: readUnit },
        );
        return done.ok
          ? reply.redirect(withNotice(paths.product(id), 'saved'), 303)
          : render(request, reply, id, done.state, done.status);
      },
    );

    app.post<{ Params: UnitParams }>(
      '/catalog/products/:id/units/:unitId/delete',
      { config: { hub: 'catalog:write' } },
      async (request, reply) => {
        const { id, unitId } = await ownUnit(request.hub.user.companyId, request.params);
        const done = await submit(
          NoFields,
          request,
          () => c.catalogAdmin.deleteUnit(request.hub.user.companyId, unitId),
          {
            form: `unit-${unitId}`,
          },
        );
        return done.ok
          ? reply.redirect(withNotice(paths.product(id), 'deleted'), 303)
          : render(request, reply, id, done.state, done.status);
      },
    );

    app.get<{ Params: IdParams }>(
      '/catalog/products/:id/datasheet',
      { config: { hub: 'catalog:read' } },
      async (request, reply) => {
        const sheet = await c.catalogAdmin.getDatasheet(request.hub.user.companyId, request.params.id);
        return fileHeaders(reply, 'uploaded', sheet.name).type('application/pdf').send(sheet.bytes);
      },
    );

    // Multipart only here, bounded by the datasheet limit; every other hub form stays urlencoded.
    await app.register(async (scope) => {
      await acceptUploads(scope, c.config.datasheetMaxBytes);
      scope.post<{ Params: IdParams }>(
        '/catalog/products/:id/datasheet',
        { config: { hub: 'catalog:write' } },
        async (request, reply) => {
          const ctx = request.hub;
          const { id } = request.params;
          const file = uploadOf(request.body, 'file');
          const done = await submit(
            NoFields,
            request,
            async () => {
              if (!file) throw AppError.invalid({ file: [ctx.t('hub.catalog.chooseFile')] });
              if (file.tooLarge)
                throw AppError.invalid({ file: [ctx.t('hub.catalog.tooLarge', { size: megabytes(ctx) })] });
              await c.catalogAdmin.setDatasheet(
                ctx.user.companyId,
                id,
                { bytes: file.bytes },
                c.config.datasheetMaxBytes,
              );
            },
            { form: 'datasheet' },
          );
          return done.ok
            ? reply.redirect(withNotice(paths.product(id), 'uploaded'), 303)
            : render(request, reply, id, done.state, done.status);
        },
      );
    });
  };

function facts(
  ctx: HubContext,
  product: Product,
  categories: Array<{ value: string; label: string }>,
  models: Array<{ id: string; name: string }>,
  rates: Array<{ id: string; name: string; rate: string }>,
): Html {
  const { t } = ctx;
  const rate = rates.find((r) => r.id === product.taxRateId);
  return html`<dl class="facts">
  <dt>${t('hub.catalog.sku')}</dt><dd>${product.sku ?? '—'}</dd>
  <dt>${t('hub.catalog.barcode')}</dt><dd>${product.barcode ?? '—'}</dd>
  <dt>${t('hub.catalog.category')}</dt><dd>${categories.find((c) => c.value === product.categoryId)?.label ?? '—'}</dd>
  <dt>${t('hub.catalog.model')}</dt><dd>${models.find((m) => m.id === product.modelId)?.name ?? '—'}</dd>
  <dt>${t('hub.catalog.taxRate')}</dt><dd>${rate ? `${rate.name} (${rate.rate} %)` : `${product.taxRate} %`}</dd>
  <dt>${t('hub.catalog.description')}</dt><dd>${product.description ?? '—'}</dd>
</dl>`;
}

function units(
  ctx: HubContext,
  product: Product,
  state: FormState | undefined,
  canWrite: boolean,
  /** The company's prices are gross (retail) or net: the price field says which (issue 34). */
  gross: boolean,
): Html {
  const { t, fmt } = ctx;
  const priceLabel = t(gross ? 'hub.prices.unitGross' : 'hub.prices.unitNet', { currency: ctx.user.currency });
  if (!canWrite) {
    return html`<table><thead><tr><th scope="col">${t('hub.catalog.unit')}</th><th scope="col" class="num">${priceLabel}</th></tr></thead>
<tbody>${product.units.map((u) => html`<tr><td>${u.name}</td><td class="num">${fmt.money(parsePrice(u.price))}</td></tr>`)}</tbody></table>`;
  }
  const create = { id: 'unit-new', schema: UnitForm, state: stateOf(state, 'unit-new'), note: 'span' } as const;
  return html`<table><thead><tr><th scope="col">${t('hub.catalog.unit')}</th><th scope="col"><span class="sr-only">${t('hub.catalog.delete')}</span></th></tr></thead>
<tbody>${product.units.map((u) => {
    const mine = stateOf(state, `unit-${u.id}`);
    const view = { id: `unit-${u.id}`, schema: UnitForm, state: mine, values: u, note: 'span' } as const;
    return html`<tr><td>${formError(t, mine)}
  ${postForm(ctx, paths.productUnit(product.id, u.id), html` class="row"`)}
    <div>${field(view, 'name', { label: t('hub.catalog.unit') })}</div>
    <div>${field(view, 'price', { label: priceLabel, inputmode: 'decimal' })}</div>
    <button type="submit">${t('action.save')}</button>
  </form></td>
  <td>${postForm(ctx, paths.productUnitDelete(product.id, u.id), html` class="inline" data-confirm="${t('hub.catalog.confirmDelete', { name: u.name })}"`)}
    <button type="submit" class="danger">${t('hub.catalog.delete')}<span class="sr-only"> ${u.name}</span></button></form></td></tr>`;
  })}</tbody></table>
<h3>${t('hub.catalog.addUnit')}</h3>
${formError(t, create.state)}
${postForm(ctx, paths.productAction(product.id, 'units'), html` class="row"`)}
  <div>${field(create, 'name', { label: t('hub.catalog.unit') })}</div>
  <div>${field(create, 'price', { label: priceLabel, inputmode: 'decimal' })}</div>
  <button type="submit">${t('hub.catalog.addUnit')}</button>
</form>`;
}

function datasheetForm(ctx: HubContext, productId: string, state: FormState | undefined, size: string): Html {
  const { t } = ctx;
  const errors = state?.errors.file;
  return html`${formError(t, state)}
${postForm(ctx, paths.productAction(productId, 'datasheet'), html` enctype="multipart/form-data" class="row"`)}
  <div><label for="datasheet-file">${t('hub.catalog.datasheetFile', { size })}</label>
  <input id="datasheet-file" name="file" type="file" accept="application/pdf,.pdf" required${errors ? html` aria-invalid="true" aria-describedby="datasheet-file-error"` : null}>
  ${errors ? html`<span class="field-error" id="datasheet-file-error">${errors.join(' ')}</span>` : null}</div>
  <button type="submit">${t('hub.catalog.upload')}</button>
</form>`;
}
