import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { fileHeaders } from '../../../file-reply.ts';
import type { Container } from '../../../../container.ts';
import { AppError } from '../../../../lib/errors.ts';
import { parsePrice } from '../../../../modules/catalog/index.ts';
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
  stateOf,
  type Body,
  type FormState,
} from './catalog-form.ts';
import { decimalPoint } from '../../../../lib/money.ts';
import { categoryPaths } from './categories.page.ts';
import { PRODUCT_RULES, productFields, productInput, readProduct } from './products.page.ts';
import { acceptUploads, uploadOf } from './uploads.ts';

const UNIT_RULES = { name: { max: 50, required: true }, price: { max: 20, required: true } };
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
      const [product, categories, models, rates] = await Promise.all([
        c.catalogAdmin.getProduct(companyId, id),
        c.catalogAdmin.listCategories(companyId),
        c.catalogAdmin.listModels(companyId),
        c.catalogAdmin.listTaxRates(companyId),
      ]);
      const canWrite = ctx.can('catalog:write');
      const edit = stateOf(state, 'product');
      const body = html`<p><a href="/hub/catalog/products">${t('action.back')}</a></p>
<h1>${product.name}</h1>
<p><span class="status ${product.active ? 'active' : 'disabled'}">${product.active ? t('hub.catalog.active') : t('hub.catalog.inactive')}</span></p>
${
  canWrite
    ? html`<h2>${t('hub.catalog.editProduct')}</h2>
${formError(t, edit)}
<form method="post" action="/hub/catalog/products/${product.id}" class="stack">${csrfField(ctx)}
  ${productFields(t, edit, product, { categories, models, rates })}
  <button type="submit">${t('action.save')}</button>
</form>
<form method="post" action="/hub/catalog/products/${product.id}/${product.active ? 'deactivate' : 'activate'}"${product.active ? html` data-confirm="${t('hub.catalog.confirmDeactivate')}"` : null}>${csrfField(ctx)}
  <button type="submit" class="${product.active ? 'danger' : 'secondary'}">${product.active ? t('hub.catalog.deactivate') : t('hub.catalog.reactivate')}</button>
</form>`
    : facts(ctx, product, categoryPaths(categories), models, rates)
}
<h2>${t('hub.catalog.units')}</h2>
${units(ctx, product, state, canWrite)}
<h2>${t('hub.catalog.datasheet')}</h2>
${
  product.hasDatasheet
    ? html`<p><a href="/hub/catalog/products/${product.id}/datasheet" download>${t('hub.catalog.download', { name: t('hub.catalog.datasheet') })}</a></p>`
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

    const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;

    app.get('/catalog/products/:id', { config: { hub: 'catalog:read' } }, (request, reply) =>
      render(request, reply, idOf(request)),
    );

    app.post('/catalog/products/:id', { config: { hub: 'catalog:write' } }, async (request, reply) => {
      const values = readProduct(request.body as Body);
      const failed = await attempt('product', values, async () => {
        checkText(request.hub.t, values, PRODUCT_RULES);
        await c.catalogAdmin.updateProduct(request.hub.user.companyId, idOf(request), {
          ...productInput(values),
          taxRateId: values.taxRateId,
        });
      });
      return failed
        ? render(request, reply, idOf(request), failed.state, failed.status)
        : reply.redirect(`/hub/catalog/products/${idOf(request)}?notice=saved`, 303);
    });

    app.post('/catalog/products/:id/deactivate', { config: { hub: 'catalog:write' } }, async (request, reply) => {
      await c.catalogAdmin.deactivateProduct(request.hub.user.companyId, idOf(request));
      return reply.redirect(`/hub/catalog/products/${idOf(request)}?notice=deactivated`, 303);
    });

    app.post('/catalog/products/:id/activate', { config: { hub: 'catalog:write' } }, async (request, reply) => {
      await c.catalogAdmin.updateProduct(request.hub.user.companyId, idOf(request), { active: true });
      return reply.redirect(`/hub/catalog/products/${idOf(request)}?notice=saved`, 303);
    });

    app.post('/catalog/products/:id/units', { config: { hub: 'catalog:write' } }, async (request, reply) => {
      const values = {
        name: bodyText(request.body as Body, 'name').trim(),
        price: decimalPoint(bodyText(request.body as Body, 'price').trim()),
      };
      const failed = await attempt('unit-new', values, async () => {
        checkText(request.hub.t, values, UNIT_RULES);
        await c.catalogAdmin.addUnit(request.hub.user.companyId, idOf(request), values);
      });
      return failed
        ? render(request, reply, idOf(request), failed.state, failed.status)
        : reply.redirect(`/hub/catalog/products/${idOf(request)}?notice=created`, 303);
    });

    /** A unit is addressed under its product, and must belong to it: the page to return to is the product's. */
    async function ownUnit(request: FastifyRequest): Promise<{ productId: string; unitId: string }> {
      const { id, unitId } = request.params as { id: string; unitId: string };
      const product = await c.catalogAdmin.getProduct(request.hub.user.companyId, id);
      if (!product.units.some((u) => u.id === unitId)) throw AppError.notFound('Unit');
      return { productId: id, unitId };
    }

    app.post('/catalog/products/:id/units/:unitId', { config: { hub: 'catalog:write' } }, async (request, reply) => {
      const { productId, unitId } = await ownUnit(request);
      const values = {
        name: bodyText(request.body as Body, 'name').trim(),
        price: decimalPoint(bodyText(request.body as Body, 'price').trim()),
      };
      const failed = await attempt(`unit-${unitId}`, values, async () => {
        checkText(request.hub.t, values, UNIT_RULES);
        await c.catalogAdmin.updateUnit(request.hub.user.companyId, unitId, values);
      });
      return failed
        ? render(request, reply, productId, failed.state, failed.status)
        : reply.redirect(`/hub/catalog/products/${productId}?notice=saved`, 303);
    });

    app.post(
      '/catalog/products/:id/units/:unitId/delete',
      { config: { hub: 'catalog:write' } },
      async (request, reply) => {
        const { productId, unitId } = await ownUnit(request);
        const failed = await attempt(`unit-${unitId}`, {}, () =>
          c.catalogAdmin.deleteUnit(request.hub.user.companyId, unitId),
        );
        return failed
          ? render(request, reply, productId, failed.state, failed.status)
          : reply.redirect(`/hub/catalog/products/${productId}?notice=deleted`, 303);
      },
    );

    app.get('/catalog/products/:id/datasheet', { config: { hub: 'catalog:read' } }, async (request, reply) => {
      const sheet = await c.catalogAdmin.getDatasheet(request.hub.user.companyId, idOf(request));
      return fileHeaders(reply, 'uploaded', sheet.name).type('application/pdf').send(sheet.bytes);
    });

    // Multipart only here, bounded by the datasheet limit; every other hub form stays urlencoded.
    await app.register(async (scope) => {
      await acceptUploads(scope, c.config.datasheetMaxBytes);
      scope.post('/catalog/products/:id/datasheet', { config: { hub: 'catalog:write' } }, async (request, reply) => {
        const ctx = request.hub;
        const file = uploadOf(request.body, 'file');
        const failed = await attempt('datasheet', {}, async () => {
          if (!file) throw AppError.invalid({ file: [ctx.t('hub.catalog.chooseFile')] });
          if (file.tooLarge)
            throw AppError.invalid({ file: [ctx.t('hub.catalog.tooLarge', { size: megabytes(ctx) })] });
          await c.catalogAdmin.setDatasheet(
            ctx.user.companyId,
            idOf(request),
            { bytes: file.bytes },
            c.config.datasheetMaxBytes,
          );
        });
        return failed
          ? render(request, reply, idOf(request), failed.state, failed.status)
          : reply.redirect(`/hub/catalog/products/${idOf(request)}?notice=uploaded`, 303);
      });
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
  <dt>${t('hub.catalog.category')}</dt><dd>${categories.find((c) => c.value === product.categoryId)?.label ?? '—'}</dd>
  <dt>${t('hub.catalog.model')}</dt><dd>${models.find((m) => m.id === product.modelId)?.name ?? '—'}</dd>
  <dt>${t('hub.catalog.taxRate')}</dt><dd>${rate ? `${rate.name} (${rate.rate} %)` : `${product.taxRate} %`}</dd>
  <dt>${t('hub.catalog.description')}</dt><dd>${product.description ?? '—'}</dd>
</dl>`;
}

function units(ctx: HubContext, product: Product, state: FormState | undefined, canWrite: boolean): Html {
  const { t, fmt } = ctx;
  if (!canWrite) {
    return html`<table><thead><tr><th scope="col">${t('hub.catalog.unit')}</th><th scope="col" class="num">${t('hub.catalog.price')}</th></tr></thead>
<tbody>${product.units.map((u) => html`<tr><td>${u.name}</td><td class="num">${fmt.money(parsePrice(u.price))}</td></tr>`)}</tbody></table>`;
  }
  const create = stateOf(state, 'unit-new');
  return html`<table><thead><tr><th scope="col">${t('hub.catalog.unit')}</th><th scope="col"><span class="sr-only">${t('hub.catalog.delete')}</span></th></tr></thead>
<tbody>${product.units.map((u) => {
    const mine = stateOf(state, `unit-${u.id}`);
    const seeded = mine?.values.name !== undefined ? mine : undefined;
    return html`<tr><td>${formError(t, mine)}
  <form method="post" action="/hub/catalog/products/${product.id}/units/${u.id}" class="row">${csrfField(ctx)}
    <div>${field({ id: `unit-${u.id}-name`, name: 'name', label: t('hub.catalog.unit'), state: seeded, value: u.name, required: true, maxlength: 50 })}</div>
    <div>${field({ id: `unit-${u.id}-price`, name: 'price', label: t('hub.catalog.price'), state: seeded, value: u.price, required: true, maxlength: 20, extra: html` inputmode="decimal"` })}</div>
    <button type="submit">${t('action.save')}</button>
  </form></td>
  <td><form method="post" action="/hub/catalog/products/${product.id}/units/${u.id}/delete" class="inline" data-confirm="${t('hub.catalog.confirmDelete', { name: u.name })}">${csrfField(ctx)}
    <button type="submit" class="danger">${t('hub.catalog.delete')}<span class="sr-only"> ${u.name}</span></button></form></td></tr>`;
  })}</tbody></table>
<h3>${t('hub.catalog.addUnit')}</h3>
${formError(t, create)}
<form method="post" action="/hub/catalog/products/${product.id}/units" class="row">${csrfField(ctx)}
  <div>${field({ id: 'unit-new-name', name: 'name', label: t('hub.catalog.unit'), state: create, required: true, maxlength: 50 })}</div>
  <div>${field({ id: 'unit-new-price', name: 'price', label: t('hub.catalog.price'), state: create, required: true, maxlength: 20, extra: html` inputmode="decimal"` })}</div>
  <button type="submit">${t('hub.catalog.addUnit')}</button>
</form>`;
}

function datasheetForm(ctx: HubContext, productId: string, state: FormState | undefined, size: string): Html {
  const { t } = ctx;
  const errors = state?.errors.file;
  return html`${formError(t, state)}
<form method="post" action="/hub/catalog/products/${productId}/datasheet" enctype="multipart/form-data" class="row">${csrfField(ctx)}
  <div><label for="datasheet-file">${t('hub.catalog.datasheetFile', { size })}</label>
  <input id="datasheet-file" name="file" type="file" accept="application/pdf,.pdf" required${errors ? html` aria-invalid="true" aria-describedby="datasheet-file-error"` : null}>
  ${errors ? html`<span class="field-error" id="datasheet-file-error">${errors.join(' ')}</span>` : null}</div>
  <button type="submit">${t('hub.catalog.upload')}</button>
</form>`;
}
