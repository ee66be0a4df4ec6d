import type { FastifyPluginAsync } from 'fastify';
import { customersListTable } from '../../../../modules/reports/index.ts';
import { exportLinks, sendListExport } from './list-search.ts';
import type { Container } from '../../../../container.ts';
import type { FieldErrors } from '../../../../lib/errors.ts';
import type { Customer } from '../../../../modules/customers/index.ts';
import { html } from '../../html.ts';
import type { HubContext } from '../../hub-context.ts';
import { customerBody, customerForm, formValuesOf, type CustomerFormValues } from './customer-form.ts';
import { DESK_REFUSALS } from './desk-form.ts';
import { noticeOf, queryChoice, queryText, sendPage, submit } from '../../form.ts';
import { CustomerInput } from '../../../requests/customers.ts';
import { heading, liveFilter, money, nextPageLink, statusBadge, DESK_NOTICES } from './desk-parts.ts';
import { paths, withNotice } from '../../paths.ts';
import { taxIdLabel } from '../../../../modules/i18n/index.ts';

type IdParams = { id: string };

/** The customer directory: search, create, edit. */
export const customersPages =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    app.get<{ Querystring: Record<string, unknown> }>(
      '/customers',
      { config: { hub: 'customers:read' } },
      async (request, reply) => {
        const ctx = request.hub;
        const { t } = ctx;
        const query = request.query;
        const q = queryText(query.q);
        const cursor = queryText(query.cursor, 500);
        const format = queryChoice(query.format, ['csv', 'xlsx'] as const);
        // The directory as searched, as a spreadsheet: the reports' writer, the reader's language.
        if (format)
          return sendListExport(
            reply,
            ctx,
            format,
            'customers',
            (page) => c.customers.search(ctx.user.companyId, { q, ...page }),
            (rows, locale) => customersListTable(rows, locale, ctx.user.timezone),
          );
        const result = await c.customers.search(ctx.user.companyId, { q, limit: 25, ...(cursor ? { cursor } : {}) });
        const body = html`${heading(t('nav.customers'), noticeOf(ctx, query, DESK_NOTICES) !== null)}
<form method="get" action="${paths.customers}" class="row" role="search"${liveFilter(paths.customers, ['customer-q'])}>
  <div><label for="customer-q">${t('action.search')}</label><br><input id="customer-q" name="q" type="search" value="${q ?? ''}"></div>
  <button type="submit">${t('action.search')}</button>
</form>
${ctx.can('customers:edit') ? html`<p><a class="button secondary" href="${paths.newCustomer}">${t('action.createCustomer')}</a></p>` : null}
<div id="results">
${customersTable(ctx, result.data)}
${nextPageLink(paths.customers, { q }, result.nextCursor, t('hub.desk.nextPage'))}
${result.data.length > 0 ? exportLinks(ctx, paths.customers, { q }) : null}
</div>`;
        return sendPage(reply, ctx, { title: t('nav.customers'), body, notice: noticeOf(ctx, query, DESK_NOTICES) });
      },
    );

    app.get('/customers/new', { config: { hub: 'customers:edit' } }, async (request, reply) =>
      newPage(reply, request.hub, {}),
    );

    app.post('/customers', { config: { hub: 'customers:edit' } }, async (request, reply) => {
      const done = await submit(
        CustomerInput,
        request,
        (input) => c.customers.create(request.hub.user.companyId, input),
        { ...DESK_REFUSALS, read: customerBody },
      );
      return done.ok
        ? reply.redirect(withNotice(paths.customer(done.result.id), 'created'), 303)
        : newPage(reply, request.hub, done.state.values, done.state.errors, done.status);
    });

    app.get<{ Params: IdParams }>('/customers/:id', { config: { hub: 'customers:read' } }, async (request, reply) => {
      const ctx = request.hub;
      const customer = await c.customers.get(ctx.user.companyId, request.params.id);
      return customerPage(reply, ctx, customer, formValuesOf(customer), noticeOf(ctx, request.query, DESK_NOTICES));
    });

    app.post<{ Params: IdParams }>('/customers/:id', { config: { hub: 'customers:edit' } }, async (request, reply) => {
      const ctx = request.hub;
      const current = await c.customers.get(ctx.user.companyId, request.params.id);
      const done = await submit(
        CustomerInput,
        request,
        (input) => c.customers.update(ctx.user.companyId, current.id, input),
        { ...DESK_REFUSALS, read: customerBody },
      );
      return done.ok
        ? reply.redirect(withNotice(paths.customer(current.id), 'saved'), 303)
        : customerPage(reply, ctx, current, done.state.values, null, done.state.errors, done.status);
    });

    /** A customer: the edit form (or the facts, for a role that only reads) and their latest sales. */
    async function customerPage(
      reply: Parameters<typeof sendPage>[0],
      ctx: HubContext,
      customer: Customer,
      values: CustomerFormValues,
      notice: string | null,
      errors?: FieldErrors,
      status = 200,
    ) {
      const { t } = ctx;
      const sales = ctx.can('sales:read')
        ? await c.sales.list(ctx.user.companyId, { customerId: customer.id }, { limit: 10 })
        : [];
      const body = html`${heading(customer.name, notice !== null)}
${
  ctx.can('customers:edit')
    ? customerForm(ctx, {
        action: paths.customer(customer.id),
        values,
        errors,
        submit: t('action.save'),
        idPrefix: 'customer',
      })
    : html`<dl class="facts">
  <dt>${t('hub.desk.customer.kind')}</dt><dd>${t(`customer.kind.${customer.kind}`)}</dd>
  <dt>${t(taxIdLabel(customer.address?.country ?? ctx.user.companyCountry))}</dt><dd>${customer.taxId ?? '—'}</dd>
  <dt>${t('print.email')}</dt><dd>${customer.email ?? '—'}</dd>
  <dt>${t('print.phone')}</dt><dd>${customer.phone ?? '—'}</dd>
  <dt>${t('print.address')}</dt><dd>${customer.address ? `${customer.address.street}, ${customer.address.postalCode} ${customer.address.city}, ${customer.address.country}` : '—'}</dd>
  <dt>${t('hub.desk.customer.language')}</dt><dd>${customer.language ? t(`hub.account.language.${customer.language}`) : t('hub.desk.customer.languageCompany')}</dd>
  <dt>${t('print.note')}</dt><dd>${customer.note ?? '—'}</dd>
</dl>`
}
${
  ctx.can('sales:read')
    ? html`<h2>${t('nav.sales')}</h2>
${
  sales.length === 0
    ? html`<p class="muted">${t('common.noResults')}</p>`
    : html`<table>
<thead><tr><th scope="col">${t('print.number')}</th><th scope="col">${t('common.createdAt')}</th><th scope="col" class="num">${t('common.total')}</th><th scope="col">${t('common.status')}</th></tr></thead>
<tbody>${sales.map((s) => html`<tr><td><a href="${paths.sale(s.id)}">${s.number}</a></td><td>${ctx.fmt.date(s.createdAt)}</td><td class="num">${money(ctx, s.totals.withTax)}</td><td>${statusBadge(ctx, 'sale', s.status)}</td></tr>`)}</tbody>
</table>`
}`
    : null
}
<p><a href="${paths.customers}">${t('action.back')}</a></p>`;
      return sendPage(reply, ctx, { title: customer.name, body, notice, status });
    }
  };

function customersTable(ctx: HubContext, customers: readonly Customer[]) {
  const { t } = ctx;
  if (customers.length === 0) return html`<p class="muted">${t('common.noResults')}</p>`;
  return html`<table>
<thead><tr><th scope="col">${t('hub.desk.customer.name')}</th><th scope="col">${t('hub.desk.customer.kind')}</th><th scope="col">${t(taxIdLabel(ctx.user.companyCountry))}</th><th scope="col">${t('print.email')}</th><th scope="col">${t('print.phone')}</th><th scope="col">${t('hub.desk.customer.city')}</th></tr></thead>
<tbody>${customers.map(
    (cu) => html`<tr>
  <td><a href="${paths.customer(cu.id)}">${cu.name}</a></td><td>${t(`customer.kind.${cu.kind}`)}</td>
  <td>${cu.taxId ?? ''}</td><td>${cu.email ?? ''}</td><td>${cu.phone ?? ''}</td><td>${cu.address?.city ?? ''}</td>
</tr>`,
  )}</tbody>
</table>`;
}

function newPage(
  reply: Parameters<typeof sendPage>[0],
  ctx: HubContext,
  values: CustomerFormValues,
  errors?: FieldErrors,
  status = 200,
) {
  const { t } = ctx;
  const body = html`${heading(t('action.createCustomer'), false)}
${customerForm(ctx, { action: paths.customers, values, errors, submit: t('action.save'), idPrefix: 'customer' })}
<p><a href="${paths.customers}">${t('action.back')}</a></p>`;
  return sendPage(reply, ctx, { title: t('action.createCustomer'), body, notice: null, status });
}
