import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Container } from '../../../../container.ts';
import { PAYMENT_METHODS, SALE_STATUSES, type SaleView } from '../../../../modules/sales/index.ts';
import { reservePrint } from '../../../pdf-reply.ts';
import { newestFirstPage } from '../../../admin/pagination.ts';
import { PaymentBody } from '../../../requests/sales.ts';
import { decimalPoint } from '../../../../lib/money.ts';
import { html } from '../../html.ts';
import type { HubContext } from '../../hub-context.ts';
import { DESK_REFUSALS } from './desk-form.ts';
import { pdfPanel } from './document-parts.ts';
import {
  field,
  noticeOf,
  postForm,
  queryChoice,
  queryText,
  sendPage,
  submit,
  type FormState,
  type Route,
} from '../../form.ts';
import {
  heading,
  liveFilter,
  sendDocumentPdf,
  linesTable,
  money,
  nextPageLink,
  statusBadge,
  totalsFacts,
  DESK_NOTICES,
} from './desk-parts.ts';
import { paths, withNotice } from '../../paths.ts';

type IdParams = { id: string };

/** Sales: the list, one with its PDF, and recording payments. */
export const salesPages =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    app.get<Route>('/sales', { config: { hub: 'sales:read' } }, async (request, reply) => {
      const ctx = request.hub;
      const { t } = ctx;
      const { query } = request;
      const status = queryChoice(query.status, SALE_STATUSES);
      const cursor = queryText(query.cursor, 500);
      const page = newestFirstPage({ limit: 25, ...(cursor ? { cursor } : {}) });
      const { data, nextCursor } = page.page(await c.sales.list(ctx.user.companyId, { status }, page));
      const body = html`${heading(t('nav.sales'), false)}
<form method="get" action="${paths.sales}" class="row" role="search"${liveFilter(paths.sales, ['status'])}>
  <div><label for="status">${t('common.status')}</label><br><select id="status" name="status">
    <option value="">${t('hub.desk.allStatuses')}</option>
    ${SALE_STATUSES.map((s) => html`<option value="${s}"${s === status ? html` selected` : null}>${t(`status.sale.${s}`)}</option>`)}
  </select></div>
  <button type="submit">${t('hub.desk.filter')}</button>
</form>
<div id="results">
${
  data.length === 0
    ? html`<p class="muted">${t('common.noResults')}</p>`
    : html`<table>
<thead><tr><th scope="col">${t('print.number')}</th><th scope="col">${t('print.customer')}</th><th scope="col">${t('print.sourceDocument')}</th><th scope="col">${t('common.createdAt')}</th><th scope="col" class="num">${t('common.total')}</th><th scope="col" class="num">${t('common.due')}</th><th scope="col">${t('common.status')}</th></tr></thead>
<tbody>${data.map(
        (s) => html`<tr>
  <td><a href="${paths.sale(s.id)}">${s.number}</a></td><td>${s.customer.name}</td><td>${s.source.number}</td>
  <td>${ctx.fmt.date(s.createdAt)}</td><td class="num">${money(ctx, s.totals.withTax)}</td><td class="num">${money(ctx, s.balance)}</td>
  <td>${statusBadge(ctx, 'sale', s.status)}</td>
</tr>`,
      )}</tbody>
</table>`
}
${nextPageLink(paths.sales, { status }, nextCursor, t('hub.desk.nextPage'))}
</div>`;
      return sendPage(reply, ctx, { title: t('nav.sales'), body });
    });

    app.get<{ Params: IdParams }>('/sales/:id', { config: { hub: 'sales:read' } }, async (request, reply) => {
      const ctx = request.hub;
      return detail(
        reply,
        ctx,
        await c.sales.get(ctx.user.companyId, request.params.id),
        noticeOf(ctx, request.query, DESK_NOTICES),
      );
    });

    app.get<{ Params: IdParams; Querystring: { download?: string } }>(
      '/sales/:id/pdf',
      { config: { hub: 'sales:read' } },
      async (request, reply) => {
        const printed = await c.sales.renderPdf(request.hub.user.companyId, request.params.id, reservePrint(c, reply));
        return sendDocumentPdf(reply, printed, Boolean(request.query.download));
      },
    );

    app.post<{ Params: IdParams }>(
      '/sales/:id/payments',
      { config: { hub: 'sales:record-payment' } },
      async (request, reply) => {
        const ctx = request.hub;
        const sale = await c.sales.get(ctx.user.companyId, request.params.id);
        const done = await submit(
          PaymentBody,
          request,
          (input) => c.sales.recordPayment(ctx.user.companyId, sale.id, input, ctx.user.userId),
          { ...DESK_REFUSALS, read: (f) => ({ method: f.method ?? '', amount: decimalPoint(f.amount ?? '') }) },
        );
        return done.ok
          ? reply.redirect(withNotice(paths.sale(sale.id), 'paid'), 303)
          : detail(reply, ctx, sale, null, done.state, done.status);
      },
    );
  };

function detail(
  reply: FastifyReply,
  ctx: HubContext,
  s: SaleView,
  notice: string | null,
  state?: FormState,
  status = 200,
) {
  const { t } = ctx;
  const base = paths.sale(s.id);
  const title = t('document.titleWithNumber', { title: t('document.sale'), number: s.number });
  const canPay = ctx.can('sales:record-payment') && s.status !== 'paid';
  const pay = { id: 'pay', schema: PaymentBody, state, values: { method: 'cash', amount: s.balance } };
  const body = html`${heading(title, notice !== null)}
<div class="two">
<div>
<dl class="facts">
  <dt>${t('common.status')}</dt><dd>${statusBadge(ctx, 'sale', s.status)}</dd>
  <dt>${t('print.date')}</dt><dd>${ctx.fmt.dateTime(s.createdAt)}</dd>
  <dt>${t('print.sourceDocument')}</dt><dd><a href="${paths.document(s.source.type, s.source.id)}">${s.source.number}</a></dd>
  <dt>${t('print.customer')}</dt><dd><a href="${paths.customer(s.customer.id)}">${s.customer.name}</a>${s.customer.taxId ? html`<br>${t('print.taxId')}: ${s.customer.taxId}` : null}</dd>
  ${s.note ? html`<dt>${t('print.note')}</dt><dd>${s.note}</dd>` : null}
  ${s.repriced ? html`<dt>${t('hub.desk.repriced')}</dt><dd>${t('hub.desk.repricedYes')}</dd>` : null}
  <dt>${t('common.total')}</dt><dd>${money(ctx, s.totals.withTax)}</dd>
  <dt>${t('common.paid')}</dt><dd>${money(ctx, s.paid)}</dd>
  <dt>${t('common.due')}</dt><dd><strong>${money(ctx, s.balance)}</strong></dd>
</dl>
</div>
<div>${totalsFacts(ctx, s.totals)}</div>
</div>
<h2>${t('hub.desk.lines')}</h2>
${linesTable(ctx, s.lines)}
<div class="two">
<div>
<h2 id="payments-heading">${t('hub.desk.payments')}</h2>
${
  s.payments.length === 0
    ? html`<p class="muted">${t('hub.desk.noPayments')}</p>`
    : html`<table aria-labelledby="payments-heading">
<thead><tr><th scope="col">${t('print.date')}</th><th scope="col">${t('hub.desk.method')}</th><th scope="col" class="num">${t('print.payment.amount')}</th></tr></thead>
<tbody>${s.payments.map((p) => html`<tr><td>${ctx.fmt.dateTime(p.createdAt)}</td><td>${t(`payment.method.${p.method}`)}</td><td class="num">${money(ctx, p.amount)}</td></tr>`)}</tbody>
</table>`
}
${
  canPay
    ? html`<section aria-labelledby="pay-heading">
<h2 id="pay-heading">${t('action.recordPayment')}</h2>
${postForm(ctx, `${base}/payments`, html` class="stack" novalidate`)}
${state ? html`<p class="error" role="alert">${t('hub.form.fixErrors')}</p>` : null}
${field(pay, 'method', { label: t('hub.desk.method'), control: 'select', options: PAYMENT_METHODS.map((m) => ({ value: m, label: t(`payment.method.${m}`) })) })}
${field(pay, 'amount', { label: t('hub.desk.amountIn', { currency: s.currency }), inputmode: 'decimal' })}
<p><button type="submit">${t('action.recordPayment')}</button></p>
</form>
</section>`
    : null
}
</div>
<div>
<h2>PDF</h2>
${pdfPanel(ctx, base, s.number)}
</div>
</div>
<p><a href="${paths.sales}">${t('action.back')}</a></p>`;
  return sendPage(reply, ctx, { title, body, notice, status });
}
