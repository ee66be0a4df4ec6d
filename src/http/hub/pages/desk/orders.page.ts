import { dataModeOf, testDataSwitch } from '../../test-data-switch.ts';
import { ordersListTable } from '../../../../modules/reports/index.ts';
import { exportLinks, readListSearch, searchFields, searchParams, sendListExport } from './list-search.ts';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Container } from '../../../../container.ts';
import { isOrderOpen, ORDER_STATUSES, type OrderView } from '../../../../modules/orders/index.ts';
import { newestFirstPage } from '../../../admin/pagination.ts';
import { html } from '../../html.ts';
import type { HubContext } from '../../hub-context.ts';
import { postForm, type Route, noticeOf, queryChoice, queryText, sendPage, submit } from '../../form.ts';
import {
  heading,
  liveFilter,
  linesTable,
  money,
  nextPageLink,
  statusBadge,
  totalsFacts,
  DESK_NOTICES,
  paymentMethodOf,
  paymentMethodSelect,
} from './desk-parts.ts';
import { cancelForm, customerBlock } from './document-parts.ts';
import { DESK_REFUSALS } from './desk-form.ts';
import { CancelBody } from '../../../requests/documents.ts';
import { paths, withNotice } from '../../paths.ts';

type IdParams = { id: string };

/** Web orders: as quotations, plus accepting one; it converts at the prices it was ordered at. */
export const ordersPages =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    app.get<Route>('/orders', { config: { hub: 'quotations:read' } }, async (request, reply) => {
      const ctx = request.hub;
      const { t } = ctx;
      const { query } = request;
      const q = queryText(query.q);
      const status = queryChoice(query.status, ORDER_STATUSES);
      const mode = dataModeOf(query);
      const cursor = queryText(query.cursor, 500);
      const search = readListSearch(ctx, query);
      const invalid = Object.keys(search.errors).length > 0;
      const filter = {
        q,
        status,
        mode,
        ...(search.totalMinor === undefined ? {} : { totalMinor: search.totalMinor }),
        ...(search.fromInstant ? { from: search.fromInstant } : {}),
        ...(search.toInstant ? { to: search.toInstant } : {}),
      };
      const fetch = async (p: { limit: number; cursor?: string }) => {
        const page = newestFirstPage(p);
        return page.page(await c.orders.list(ctx.user.companyId, page, filter));
      };
      if (search.format && !invalid)
        return sendListExport(reply, ctx, search.format, 'orders', fetch, (rows, locale) =>
          ordersListTable(rows, locale, ctx.user.timezone, (s) =>
            t(`status.order.${s as (typeof ORDER_STATUSES)[number]}`),
          ),
        );
      const { data, nextCursor } = invalid
        ? { data: [], nextCursor: null }
        : await fetch({ limit: 25, ...(cursor ? { cursor } : {}) });
      const params = { q, status, ...searchParams(search), data: mode === 'test' ? 'test' : undefined };
      const body = html`${heading(t('nav.orders'), false)}
<form method="get" action="${paths.orders}" class="row" role="search"${liveFilter(paths.orders, ['q', 'amount', 'from', 'to', 'status', 'data'])}>
  <div><label for="q">${t('hub.desk.searchDocuments')}</label><br><input id="q" name="q" type="search" value="${q ?? ''}"></div>
  ${searchFields(ctx, search, '', true, false)}
  <div><label for="status">${t('common.status')}</label><br><select id="status" name="status">
    <option value="">${t('hub.desk.allStatuses')}</option>
    ${ORDER_STATUSES.map((s) => html`<option value="${s}"${s === status ? html` selected` : null}>${t(`status.order.${s}`)}</option>`)}
  </select></div>
  ${testDataSwitch(ctx, mode)}
  <button type="submit">${t('action.search')}</button>
</form>
<div id="results">
${
  data.length === 0
    ? html`<p class="muted">${t('common.noResults')}</p>`
    : html`<table>
<thead><tr><th scope="col">${t('print.number')}</th><th scope="col">${t('print.customer')}</th><th scope="col">${t('common.createdAt')}</th><th scope="col" class="num">${t('common.total')}</th><th scope="col">${t('common.status')}</th></tr></thead>
<tbody>${data.map(
        (row) => html`<tr>
  <td><a href="${paths.order(row.id)}">${row.number}</a></td>
  <td>${row.directoryCustomer ? row.directoryCustomer.name : row.customer.name}</td>
  <td>${ctx.fmt.date(row.createdAt)}</td>
  <td class="num">${money(ctx, row.totals.withTax)}</td>
  <td>${statusBadge(ctx, 'order', row.status)}</td>
</tr>`,
      )}</tbody>
</table>`
}
${nextPageLink(paths.orders, params, nextCursor, t('hub.desk.nextPage'))}
${data.length > 0 ? exportLinks(ctx, paths.orders, params) : null}
</div>`;
      return sendPage(reply, ctx, { title: t('nav.orders'), body, status: invalid ? 400 : 200 });
    });

    app.get<{ Params: IdParams }>('/orders/:id', { config: { hub: 'quotations:read' } }, async (request, reply) => {
      const ctx = request.hub;
      return detail(
        reply,
        ctx,
        await c.orders.get(ctx.user.companyId, request.params.id),
        noticeOf(ctx, request.query, DESK_NOTICES),
      );
    });

    app.post<{ Params: IdParams }>(
      '/orders/:id/accept',
      { config: { hub: 'quotations:handle' } },
      async (request, reply) => {
        const order = await c.orders.get(request.hub.user.companyId, request.params.id);
        await c.orders.accept(request.hub.user.companyId, order.id);
        return reply.redirect(withNotice(paths.order(order.id), 'accepted'), 303);
      },
    );

    app.post<{ Params: IdParams }>(
      '/orders/:id/convert',
      { config: { hub: 'quotations:handle' } },
      async (request, reply) => {
        const ctx = request.hub;
        const order = await c.orders.get(ctx.user.companyId, request.params.id);
        if (order.status === 'converted' && order.saleId) return reply.redirect(paths.sale(order.saleId), 303);
        const sale = await c.orders.convert({ companyId: ctx.user.companyId, userId: ctx.user.userId }, order.id, {
          paymentMethod: paymentMethodOf(request.body),
        });
        return reply.redirect(withNotice(paths.sale(sale.id), 'converted'), 303);
      },
    );

    app.post<{ Params: IdParams }>(
      '/orders/:id/cancel',
      { config: { hub: 'quotations:handle' } },
      async (request, reply) => {
        const ctx = request.hub;
        const order = await c.orders.get(ctx.user.companyId, request.params.id);
        const done = await submit(
          CancelBody,
          request,
          ({ reason }) => c.orders.cancel(ctx.user.companyId, order.id, reason),
          DESK_REFUSALS,
        );
        if (!done.ok) return detail(reply, ctx, order, null, done.state.errors.reason?.join(' '), done.status);
        return reply.redirect(withNotice(paths.order(order.id), 'cancelled'), 303);
      },
    );
  };

function detail(
  reply: FastifyReply,
  ctx: HubContext,
  o: OrderView,
  notice: string | null,
  cancelError?: string,
  status = 200,
) {
  const { t } = ctx;
  const open = isOrderOpen(o.status);
  const handle = ctx.can('quotations:handle');
  const base = paths.order(o.id);
  const title = t('document.titleWithNumber', { title: t('document.order'), number: o.number });
  const body = html`${heading(title, notice !== null)}
<dl class="facts">
  <dt>${t('common.status')}</dt><dd>${statusBadge(ctx, 'order', o.status)}</dd>
  <dt>${t('print.issued')}</dt><dd>${ctx.fmt.dateTime(o.createdAt)}</dd>
  ${o.acceptedAt ? html`<dt>${t('status.order.accepted')}</dt><dd>${ctx.fmt.dateTime(o.acceptedAt)}</dd>` : null}
  ${o.externalReference ? html`<dt>${t('hub.desk.externalReference')}</dt><dd>${o.externalReference}</dd>` : null}
  ${o.customer.address ? html`<dt>${t('print.address')}</dt><dd>${o.customer.address}</dd>` : null}
  ${o.note ? html`<dt>${t('print.note')}</dt><dd>${o.note}</dd>` : null}
  ${o.saleId ? html`<dt>${t('document.sale')}</dt><dd><a href="${paths.sale(o.saleId)}">${t('hub.desk.openSale')}</a></dd>` : null}
  ${o.cancellationReason ? html`<dt>${t('common.reason')}</dt><dd>${o.cancellationReason}</dd>` : null}
</dl>
${customerBlock(ctx, o, base, open && handle)}
<h2>${t('hub.desk.lines')}</h2>
${linesTable(ctx, o.lines)}
${totalsFacts(ctx, o.totals)}
${
  open && handle
    ? html`<section aria-labelledby="next-heading">
<h2 id="next-heading">${t('hub.desk.nextStep')}</h2>
${o.status === 'received' ? html`${postForm(ctx, `${base}/accept`, html` class="inline"`)}<button type="submit">${t('action.accept')}</button></form>` : null}
${o.status === 'accepted' && o.directoryCustomer ? html`${postForm(ctx, `${base}/convert`, html` class="inline"`)}${paymentMethodSelect(ctx)}<button type="submit">${t('action.convert')}</button></form>` : null}
${o.status === 'accepted' && !o.directoryCustomer ? html`<p>${t('hub.desk.assignFirst')}</p>` : null}
</section>
<section aria-labelledby="cancel-heading">
<h2 id="cancel-heading">${t('action.cancelOrder')}</h2>
${cancelForm(ctx, `${base}/cancel`, t('action.cancelOrder'), cancelError)}
</section>`
    : null
}
<p><a href="${paths.orders}">${t('action.back')}</a></p>`;
  return sendPage(reply, ctx, { title, body, notice, status });
}
