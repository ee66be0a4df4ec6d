import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Container } from '../../../../container.ts';
import { html } from '../../html.ts';
import { decimalPoint } from '../../../../lib/money.ts';
import { field, formError, noticeOf, postForm, stateOf, submit, type FormBody, type FormState } from '../../form.ts';
import { paths, withNotice } from '../../paths.ts';
import { TaxRateBody } from '../../../requests/catalog.ts';
import { catalogPage, CATALOG_NOTICES } from './catalog-frame.ts';

type IdParams = { id: string };

/** A rate as people type it ("25 %", "9,5") as the admin API's body has it ("25", "9.5"). */
const readTaxRate = (f: FormBody) => ({
  name: f.name ?? '',
  rate: decimalPoint(f.rate ?? '').replace(/\s*%$/, ''),
  exemptionReason: f.exemptionReason?.trim() ? f.exemptionReason.trim() : null,
});

/** Tax rates: a change reaches new documents only (quotations keep the rate they were priced with). */
export const taxRatesPage =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    async function render(request: FastifyRequest, reply: FastifyReply, state?: FormState, status?: number) {
      const ctx = request.hub;
      const { t } = ctx;
      const rates = await c.catalogAdmin.listTaxRates(ctx.user.companyId);
      const canWrite = ctx.can('catalog:write');
      const create = {
        id: 'tax-rate-new',
        schema: TaxRateBody,
        state: stateOf(state, 'tax-rate-new'),
        note: 'span',
      } as const;
      const row = (r: { id: string; name: string; rate: string; exemptionReason: string | null }) => {
        if (!canWrite) return html`<tr><td>${r.name}</td><td class="num">${r.rate} %</td></tr>`;
        const mine = stateOf(state, `tax-rate-${r.id}`);
        const view = { id: `tax-rate-${r.id}`, schema: TaxRateBody, state: mine, values: r, note: 'span' } as const;
        return html`<tr><td colspan="2">
  ${formError(t, mine)}
  ${postForm(ctx, paths.taxRate(r.id), html` class="row"`)}
    <div>${field(view, 'name', { label: t('hub.catalog.name') })}</div>
    <div>${field(view, 'rate', { label: t('hub.catalog.rate'), inputmode: 'decimal' })}</div>
    <div>${field(view, 'exemptionReason', { label: t('hub.invoice.exemptionReason') })}</div>
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
${formError(t, create.state)}
${postForm(ctx, paths.taxRates, html` class="row"`)}
  <div>${field(create, 'name', { label: t('hub.catalog.name') })}</div>
  <div>${field(create, 'rate', { label: t('hub.catalog.rate'), inputmode: 'decimal' })}</div>
  <div>${field(create, 'exemptionReason', { label: t('hub.invoice.exemptionReason') })}</div>
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

    app.get('/catalog/tax-rates', { config: { hub: 'catalog:read' } }, (request, reply) => render(request, reply));

    app.post('/catalog/tax-rates', { config: { hub: 'catalog:write' } }, async (request, reply) => {
      const done = await submit(
        TaxRateBody,
        request,
        (input) => c.catalogAdmin.createTaxRate(request.hub.user.companyId, input),
        { form: 'tax-rate-new', read: readTaxRate },
      );
      return done.ok
        ? reply.redirect(withNotice(paths.taxRates, 'created'), 303)
        : render(request, reply, done.state, done.status);
    });

    app.post<{ Params: IdParams }>(
      '/catalog/tax-rates/:id',
      { config: { hub: 'catalog:write' } },
      async (request, reply) => {
        const { id } = request.params;
        const done = await submit(
          TaxRateBody,
          request,
          (input) => c.catalogAdmin.updateTaxRate(request.hub.user.companyId, id, input),
          { form: `tax-rate-${id}`, read: readTaxRate },
        );
        return done.ok
          ? reply.redirect(withNotice(paths.taxRates, 'saved'), 303)
          : render(request, reply, done.state, done.status);
      },
    );
  };
