import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Container } from '../../../../container.ts';
import { html } from '../../html.ts';
import { csrfField } from '../../layout.ts';
import { decimalPoint } from '../../../../lib/money.ts';
import { bodyText, noticeOf } from '../../form.ts';
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

const RULES = { name: { max: 100, required: true }, rate: { max: 10, required: true } };

/** Tax rates: a change reaches new documents only (quotations keep the rate they were priced with). */
export const taxRatesPage =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    async function render(request: FastifyRequest, reply: FastifyReply, state?: FormState, status?: number) {
      const ctx = request.hub;
      const { t } = ctx;
      const rates = await c.catalogAdmin.listTaxRates(ctx.user.companyId);
      const canWrite = ctx.can('catalog:write');
      const create = stateOf(state, 'tax-rate-new');
      const row = (r: { id: string; name: string; rate: string }) => {
        if (!canWrite) return html`<tr><td>${r.name}</td><td class="num">${r.rate} %</td></tr>`;
        const mine = stateOf(state, `tax-rate-${r.id}`);
        return html`<tr><td colspan="2">
  ${formError(t, mine)}
  <form method="post" action="${paths.taxRate(r.id)}" class="row">${csrfField(ctx)}
    <div>${field({ id: `tax-rate-${r.id}-name`, name: 'name', label: t('hub.catalog.name'), state: mine, value: r.name, required: true, maxlength: 100 })}</div>
    <div>${field({ id: `tax-rate-${r.id}-rate`, name: 'rate', label: t('hub.catalog.rate'), state: mine, value: r.rate, required: true, maxlength: 10, extra: html` inputmode="decimal"` })}</div>
    <button type="submit">${t('action.save')}</button>
  </form></td></tr>`;
      };
      const body = html`<h1>${t('hub.catalog.taxRates')}</h1>
${
  rates.length === 0
    ? html`<p>${t('hub.catalog.noTaxRates')}</p>`
    : html`<table>
<thead><tr><th scope="col">${t('hub.catalog.name')}</th><th scope="col" class="num">${t('hub.catalog.rate')}</th></tr></thead>
<tbody>${rates.map(row)}</tbody></table>`
}
${
  canWrite
    ? html`<h2>${t('hub.catalog.newTaxRate')}</h2>
${formError(t, create)}
<form method="post" action="${paths.taxRates}" class="row">${csrfField(ctx)}
  <div>${field({ id: 'tax-rate-new-name', name: 'name', label: t('hub.catalog.name'), state: create, required: true, maxlength: 100 })}</div>
  <div>${field({ id: 'tax-rate-new-rate', name: 'rate', label: t('hub.catalog.rate'), state: create, required: true, maxlength: 10, extra: html` inputmode="decimal"` })}</div>
  <button type="submit">${t('hub.catalog.add')}</button>
</form>`
    : null
}`;
      return catalogPage(ctx, reply, {
        title: t('hub.catalog.taxRates'),
        body,
        status,
        notice: state ? null : noticeOf(ctx, request.query, CATALOG_NOTICES),
      });
    }

    const read = (body: Body) => ({
      name: bodyText(body, 'name').trim(),
      rate: decimalPoint(bodyText(body, 'rate').trim()).replace(/\s*%$/, ''),
    });

    app.get('/catalog/tax-rates', { config: { hub: 'catalog:read' } }, (request, reply) => render(request, reply));

    app.post('/catalog/tax-rates', { config: { hub: 'catalog:write' } }, async (request, reply) => {
      const values = read(request.body as Body);
      const failed = await attempt('tax-rate-new', values, async () => {
        checkText(request.hub.t, values, RULES);
        await c.catalogAdmin.createTaxRate(request.hub.user.companyId, values);
      });
      return failed
        ? render(request, reply, failed.state, failed.status)
        : reply.redirect(withNotice(paths.taxRates, 'created'), 303);
    });

    app.post('/catalog/tax-rates/:id', { config: { hub: 'catalog:write' } }, async (request, reply) => {
      const { id } = request.params as { id: string };
      const values = read(request.body as Body);
      const failed = await attempt(`tax-rate-${id}`, values, async () => {
        checkText(request.hub.t, values, RULES);
        await c.catalogAdmin.updateTaxRate(request.hub.user.companyId, id, values);
      });
      return failed
        ? render(request, reply, failed.state, failed.status)
        : reply.redirect(withNotice(paths.taxRates, 'saved'), 303);
    });
  };
