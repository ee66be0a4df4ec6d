import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { taxIdLabel } from '../../../../modules/i18n/index.ts';
import { dataModeOf, testDataSwitch } from '../../test-data-switch.ts';
import type { Container } from '../../../../container.ts';
import {
  PAYMENT_METHODS,
  SALE_STATUSES,
  type PaymentMethod,
  type SaleStatus,
  type SaleView,
} from '../../../../modules/sales/index.ts';
import { salesListTable } from '../../../../modules/reports/index.ts';
import { exportLinks, readListSearch, searchFields, searchParams, sendListExport } from './list-search.ts';
import { reservePrint } from '../../../pdf-reply.ts';
import { mayCancelInvoice } from '../../../access.ts';
import { newestFirstPage } from '../../../admin/pagination.ts';
import { CreditNoteBody, InvoiceCancelBody, PaymentBody, RefundBody, toCreditNote } from '../../../requests/sales.ts';
import { CancelBody } from '../../../requests/documents.ts';
import { decimalPoint, MONEY_SCALE, parseScaled } from '../../../../lib/money.ts';
import { fieldErrors } from '../../../../lib/errors.ts';
import { html, type Html } from '../../html.ts';
import { sayText } from '../../texts/index.ts';
import type { HubContext } from '../../hub-context.ts';
import { DESK_REFUSALS, otherErrors } from './desk-form.ts';
import { pdfPanel } from './document-parts.ts';
import { sendingsBlock } from './sending.page.ts';
import {
  field,
  formFields,
  noticeOf,
  postForm,
  queryChoice,
  queryText,
  sendPage,
  submit,
  formError,
  stateOf,
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
  quantity,
  statusBadge,
  totalsFacts,
  DESK_NOTICES,
} from './desk-parts.ts';
import { paths, withNotice } from '../../paths.ts';

type IdParams = { id: string };

/**
 * A correction refused for the invoice's state (already cancelled, credited, the payment voided
 * meanwhile) is said at the form that asked, on the invoice's page, not on an error page.
 */
const CORRECTION_REFUSALS = { ...DESK_REFUSALS, refusals: ['conflict'] } as const;

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
      const mode = dataModeOf(query);
      const search = readListSearch(ctx, query);
      const invalid = Object.keys(search.errors).length > 0;
      const filter = {
        status,
        mode,
        ...(search.q ? { q: search.q } : {}),
        ...(search.totalMinor === undefined ? {} : { totalMinor: search.totalMinor }),
        ...(search.fromInstant ? { from: search.fromInstant } : {}),
        ...(search.toInstant ? { to: search.toInstant } : {}),
      };
      const fetch = async (p: { limit: number; cursor?: string }) => {
        const page = newestFirstPage(p);
        return page.page(await c.sales.list(ctx.user.companyId, filter, page));
      };
      if (search.format && !invalid)
        return sendListExport(reply, ctx, search.format, 'sales', fetch, (rows, locale) =>
          salesListTable(rows, locale, ctx.user.timezone, (s) => t(`status.sale.${s as SaleStatus}`)),
        );
      const { data, nextCursor } = invalid
        ? { data: [], nextCursor: null }
        : await fetch({ limit: 25, ...(cursor ? { cursor } : {}) });
      const params = { status, ...searchParams(search), data: mode === 'test' ? 'test' : undefined };
      const body = html`${heading(t('nav.sales'), false)}
<form method="get" action="${paths.sales}" class="row" role="search"${liveFilter(paths.sales, ['status', 'q', 'amount', 'from', 'to', 'data'])}>
  ${searchFields(ctx, search, t('hub.search.salesQ'))}
  <div><label for="status">${t('common.status')}</label><br><select id="status" name="status">
    <option value="">${t('hub.desk.allStatuses')}</option>
    ${SALE_STATUSES.map((s) => html`<option value="${s}"${s === status ? html` selected` : null}>${t(`status.sale.${s}`)}</option>`)}
  </select></div>
  ${testDataSwitch(ctx, mode)}
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
  <td><a href="${paths.sale(s.id)}">${s.kind === 'invoice' ? null : html`${t(`document.${s.kind}`)} `}${s.invoiceNumber ?? s.number}</a></td><td>${s.customer.name}</td><td>${s.source.type === 'counter' ? t('hub.counter.title') : s.source.number}</td>
  <td>${ctx.fmt.date(s.createdAt)}</td><td class="num">${money(ctx, s.totals.withTax)}</td><td class="num">${money(ctx, s.balance)}</td>
  <td>${statusBadge(ctx, 'sale', s.status)}</td>
</tr>`,
      )}</tbody>
</table>`
}
${nextPageLink(paths.sales, params, nextCursor, t('hub.desk.nextPage'))}
${data.length > 0 ? exportLinks(ctx, paths.sales, params) : null}
</div>`;
      return sendPage(reply, ctx, { title: t('nav.sales'), body, status: invalid ? 400 : 200 });
    });

    app.get<{ Params: IdParams }>('/sales/:id', { config: { hub: 'sales:read' } }, async (request, reply) => {
      const ctx = request.hub;
      const sale = await c.sales.get(ctx.user.companyId, request.params.id);
      const [sendings, readiness] = await Promise.all([
        c.documentMail.listSendings(ctx.user.companyId, 'sale', sale.id),
        c.sales.eInvoiceReadiness(ctx.user.companyId, sale.id),
      ]);
      // A Croatian B2B invoice by transfer not sent as an e-invoice: say why, when it is the
      // missing exchange (issue 33).
      const unlawful =
        readiness?.profile === 'hr-cius' &&
        sale.exchange.status === 'not_required' &&
        sale.livemode &&
        sale.customer.kind === 'business' &&
        sale.paymentMethod === 'bank_transfer' &&
        !(await c.exchangeSettings.get(ctx.user.companyId)).configured;
      const einvoice = readiness ? { ...readiness, unlawful } : null;
      return detail(
        reply,
        ctx,
        sale,
        c.clock.now(),
        noticeOf(ctx, request.query, SALE_NOTICES),
        undefined,
        200,
        sendingsBlock(ctx, 'sale', sale.id, sendings),
        einvoice,
      );
    });

    app.get<{ Params: IdParams; Querystring: { download?: string; layout?: string; facturx?: string } }>(
      '/sales/:id/pdf',
      { config: { hub: 'sales:read' } },
      async (request, reply) => {
        const format = request.query.facturx ? 'facturx' : request.query.layout === 'receipt' ? 'receipt' : 'a4';
        const issued = await c.invoicing.file(request.hub.user.companyId, request.params.id, format, {
          slot: () => reservePrint(c, reply),
        });
        reply.header('etag', `"${issued.sha256}"`);
        return sendDocumentPdf(reply, { number: issued.number, pdf: issued.bytes }, Boolean(request.query.download));
      },
    );

    // The account as it stands: what happened since issue, beside the invoice that stays as issued.
    app.get<{ Params: IdParams }>('/sales/:id/statement', { config: { hub: 'sales:read' } }, async (request, reply) => {
      const { companyId } = request.hub.user;
      await c.sales.get(companyId, request.params.id);
      const printed = await c.sales.renderStatementPdf(companyId, request.params.id, reservePrint(c, reply));
      return sendDocumentPdf(reply, printed, false);
    });

    app.get<{ Params: IdParams; Querystring: { syntax?: string } }>(
      '/sales/:id/e-invoice',
      { config: { hub: 'sales:read' } },
      async (request, reply) => {
        const syntax = request.query.syntax === 'cii' ? 'cii' : 'ubl';
        const einvoice = await c.invoicing.file(request.hub.user.companyId, request.params.id, syntax);
        return reply
          .type('application/xml; charset=utf-8')
          .header('content-disposition', `attachment; filename="${einvoice.number}-${syntax}.xml"`)
          .header('x-content-type-options', 'nosniff')
          .header('etag', `"${einvoice.sha256}"`)
          .send(einvoice.bytes);
      },
    );

    app.post<{ Params: IdParams }>(
      '/sales/:id/payments',
      { config: { hub: 'sales:record-payment' } },
      async (request, reply) => {
        const ctx = request.hub;
        const sale = await c.sales.get(ctx.user.companyId, request.params.id);
        const asked = paymentQuestion(ctx, sale, request.body);
        if (asked) return detail(reply, ctx, sale, c.clock.now(), null, asked, 409);
        const done = await submit(
          PaymentBody,
          request,
          (input) => c.sales.recordPayment(ctx.user.companyId, sale.id, input, ctx.user.userId),
          {
            ...DESK_REFUSALS,
            form: 'pay',
            read: (f) => ({ method: f.method ?? '', amount: decimalPoint(f.amount ?? '') }),
          },
        );
        return done.ok
          ? reply.redirect(withNotice(paths.sale(sale.id), 'paid'), 303)
          : detail(reply, ctx, sale, c.clock.now(), null, done.state, done.status);
      },
    );

    app.post<{ Params: IdParams & { pid: string } }>(
      '/sales/:id/payments/:pid/void',
      { config: { hub: 'payments:void' } },
      async (request, reply) => {
        const ctx = request.hub;
        const sale = await c.sales.get(ctx.user.companyId, request.params.id);
        const done = await submit(
          CancelBody,
          request,
          (input) =>
            c.sales.voidPayment(ctx.user.companyId, sale.id, request.params.pid, input.reason, ctx.user.userId),
          { ...CORRECTION_REFUSALS, form: `void-${request.params.pid}` },
        );
        return done.ok
          ? reply.redirect(withNotice(paths.sale(sale.id), 'voided'), 303)
          : detail(reply, ctx, sale, c.clock.now(), null, done.state, done.status);
      },
    );

    app.post<{ Params: IdParams }>(
      '/sales/:id/refunds',
      { config: { hub: 'sales:record-payment' } },
      async (request, reply) => {
        const ctx = request.hub;
        const sale = await c.sales.get(ctx.user.companyId, request.params.id);
        const done = await submit(
          RefundBody,
          request,
          (input) => c.invoicing.refund(ctx.user.companyId, sale.id, input, ctx.user.userId),
          {
            ...CORRECTION_REFUSALS,
            form: 'refund',
            read: (f) => {
              const amount = decimalPoint(f.amount ?? '').trim();
              return { method: f.method ?? '', ...(amount ? { amount } : {}) };
            },
          },
        );
        return done.ok
          ? reply.redirect(withNotice(paths.sale(sale.id), 'refunded'), 303)
          : detail(reply, ctx, sale, c.clock.now(), null, done.state, done.status);
      },
    );

    app.post<{ Params: IdParams }>(
      '/sales/:id/cancel',
      { config: { hub: 'invoices:cancel-own' } },
      async (request, reply) => {
        const ctx = request.hub;
        const sale = await c.sales.get(ctx.user.companyId, request.params.id);
        mayCancelInvoice(ctx.user, sale, ctx.user.timezone, c.clock.now());
        const done = await submit(
          InvoiceCancelBody,
          request,
          (input) => c.invoicing.cancel(ctx.user.companyId, sale.id, input.reason, ctx.user.userId, input.refund),
          {
            ...CORRECTION_REFUSALS,
            form: 'cancel',
            read: (f) => ({ reason: f.reason ?? '', ...refundOf(f) }),
          },
        );
        return done.ok
          ? reply.redirect(withNotice(paths.sale(done.result.id), 'stornoIssued'), 303)
          : detail(reply, ctx, sale, c.clock.now(), null, done.state, done.status);
      },
    );

    app.post<{ Params: IdParams }>(
      '/sales/:id/credit-notes',
      { config: { hub: 'invoices:correct' } },
      async (request, reply) => {
        const ctx = request.hub;
        const sale = await c.sales.get(ctx.user.companyId, request.params.id);
        const done = await submit(
          CreditNoteBody,
          request,
          (input) => c.invoicing.creditNote(ctx.user.companyId, sale.id, toCreditNote(input), ctx.user.userId),
          {
            ...CORRECTION_REFUSALS,
            form: 'credit',
            // One quantity box per line (`q-{lineId}`); the empty ones are not credited.
            read: (f) => ({
              reason: f.reason ?? '',
              ...refundOf(f),
              lines: sale.lines
                .map((l) => ({ lineId: l.id, quantity: decimalPoint(f[`q-${l.id}`] ?? '') }))
                .filter((l) => l.quantity !== ''),
            }),
          },
        );
        return done.ok
          ? reply.redirect(withNotice(paths.sale(done.result.id), 'credited'), 303)
          : detail(reply, ctx, sale, c.clock.now(), null, done.state, done.status);
      },
    );
  };

/** How the money goes back, as the correction forms post it (`refundMethod`); absent: the service's default. */
function refundOf(f: Record<string, string | undefined>): { refund?: { method: PaymentMethod } } {
  const method = f.refundMethod;
  return method ? { refund: { method: method as PaymentMethod } } : {};
}

/**
 * A paid invoice's correction asks how the money goes back (issue 34): cash from the drawer, a
 * card reversal or a transfer, proposed as the invoice was paid.
 */
function refundChoice(ctx: HubContext, s: SaleView, form: string): Html | null {
  if (!(Number(s.paid) > 0)) return null;
  const { t } = ctx;
  const paidWith = s.payments.filter((p) => !p.voided).map((p) => p.method);
  const proposed =
    paidWith[0] ?? ((PAYMENT_METHODS as readonly string[]).includes(s.paymentMethod ?? '') ? s.paymentMethod : 'cash');
  return html`<p><label for="${form}-refund">${t('hub.refund.method', { amount: money(ctx, s.paid) })}</label><br>
<select id="${form}-refund" name="refundMethod">${PAYMENT_METHODS.map((m) => html`<option value="${m}"${m === proposed ? html` selected` : null}>${t(`payment.method.${m}`)}</option>`)}</select></p>`;
}

/** How money goes back: the three ways a refund is given (RefundRequest). */
const REFUND_METHODS = ['cash', 'card', 'bank_transfer'] as const;

/** A later refund is proposed as the invoice was paid, else as it says it is paid. */
function proposedRefund(s: SaleView): string {
  const paidWith = s.payments.filter((p) => !p.voided).map((p) => p.method);
  const known = (m: string | null | undefined) => (REFUND_METHODS as readonly string[]).includes(m ?? '');
  return paidWith.find(known) ?? (known(s.paymentMethod) ? s.paymentMethod! : 'bank_transfer');
}

/** Whether the cancel form is offered: the rule the cancel route enforces (access.ts). */
function mayCancel(ctx: HubContext, s: SaleView, now: Date): boolean {
  try {
    mayCancelInvoice(ctx.user, s, ctx.user.timezone, now);
    return true;
  } catch {
    return false;
  }
}

/**
 * What the payment form proposes: the invoice's own method (cash where it names none of the
 * three a payment can have) and the balance. Cash taken at the sale's page, not at the counter,
 * is counted from the hand: its amount is typed, so a click cannot book the whole balance as
 * cash that never came (issue 34: "one click recorded cash by mistake").
 */
function proposedPayment(ctx: HubContext, s: SaleView): { method: PaymentMethod; amount: string } {
  const method = (PAYMENT_METHODS as readonly string[]).includes(s.paymentMethod ?? '')
    ? (s.paymentMethod as PaymentMethod)
    : 'cash';
  return { method, amount: method === 'cash' ? '' : ctx.fmt.editable(s.balance) };
}

/**
 * A payment by another method than the invoice states is recorded only when asked twice: the
 * first post comes back with the question and the same values, and the form then carries the
 * method confirmed (`confirmMethod`); a confirmation of another method asks again. Null: record it.
 */
function paymentQuestion(ctx: HubContext, s: SaleView, body: unknown): FormState | null {
  const fields = formFields(body);
  const method = fields.method ?? '';
  if (!(PAYMENT_METHODS as readonly string[]).includes(method) || !s.paymentMethod || method === s.paymentMethod)
    return null;
  if (fields.confirmMethod === method) return null;
  const { t } = ctx;
  return {
    form: 'pay',
    values: { method, amount: fields.amount ?? '', confirmMethod: method },
    errors: fieldErrors(),
    message: t('hub.pay.otherMethod', {
      invoiceMethod: t(`payment.method.${s.paymentMethod as PaymentMethod}`),
      method: t(`payment.method.${method as PaymentMethod}`),
    }),
  };
}

const SALE_NOTICES = {
  ...DESK_NOTICES,
  voided: 'hub.invoice.notice.voided',
  stornoIssued: 'hub.invoice.notice.cancelled',
  credited: 'hub.invoice.notice.credited',
  refunded: 'hub.refund.notice',
} as const;

function detail(
  reply: FastifyReply,
  ctx: HubContext,
  s: SaleView,
  /** Now, by the server's clock: whether staff may still cancel their own invoice today. */
  now: Date,
  notice: string | null,
  state?: FormState,
  status = 200,
  /** Its sendings by e-mail, on the page as read. */
  mailed: Html | null = null,
  einvoice: Einvoice | null = null,
) {
  const { t } = ctx;
  const base = paths.sale(s.id);
  const title = t('document.titleWithNumber', { title: t(`document.${s.kind}`), number: s.invoiceNumber ?? s.number });
  const invoice = s.kind === 'invoice';
  const open = invoice && s.status !== 'cancelled';
  const canPay = ctx.can('sales:record-payment') && open && s.status !== 'paid';
  const canCorrect = ctx.can('invoices:correct') && open;
  const canCancel = open && mayCancel(ctx, s, now);
  // Owed back after a correction that recorded no refund (issue 34): given now, as it was paid.
  const canRefund = ctx.can('sales:record-payment') && invoice && s.corrections.length > 0 && s.balance.startsWith('-');
  const body = html`${heading(title, notice !== null)}
<div class="two">
<div>
${saleFacts(ctx, s, now)}
</div>
<div>${totalsFacts(ctx, s.totals)}</div>
</div>
<h2>${t('hub.desk.lines')}</h2>
${linesTable(ctx, s.lines)}
<div class="two">
<div>
${paymentsTable(ctx, s, base, state)}
${methodChangeNote(ctx, s, canCorrect)}
${canPay ? paymentSection(ctx, s, base, state) : null}
${canRefund ? refundSection(ctx, s, base, state) : null}
${canCorrect ? creditSection(ctx, s, base, state) : null}
${canCancel ? cancelSection(ctx, s, base, state) : null}
</div>
<div>
${documentLinks(ctx, s, base, einvoice)}
</div>
</div>
${mailed}
<p><a href="${paths.sales}">${t('action.back')}</a></p>`;
  return sendPage(reply, ctx, { title, body, notice, status });
}

type Einvoice = { profile: string; missing: Record<string, string[]>; unlawful?: boolean };

/** The sale's facts: numbers, dates, source, customer, money owed. */
function saleFacts(ctx: HubContext, s: SaleView, now: Date): Html {
  const { t } = ctx;
  const invoice = s.kind === 'invoice';
  return html`<dl class="facts">
  <dt>${t('common.status')}</dt><dd>${statusBadge(ctx, 'sale', s.status)}</dd>
  <dt>${t('hub.invoice.kind')}</dt><dd>${t(`document.${s.kind}`)}</dd>
  ${s.invoiceNumber ? html`<dt>${t('hub.invoice.number')}</dt><dd>${s.invoiceNumber}</dd>` : null}
  <dt>${t('hub.invoice.internal')}</dt><dd>${s.number}</dd>
  <dt>${t('print.issuedAt')}</dt><dd>${ctx.fmt.dateTime(s.issuedAt ?? s.createdAt)}</dd>
  ${s.paymentMethod ? html`<dt>${t('print.paymentMethod')}</dt><dd>${t(`payment.method.${s.paymentMethod}`)}</dd>` : null}
  ${s.dueDate && invoice ? html`<dt>${t('print.dueDate')}</dt><dd>${ctx.fmt.day(s.dueDate)}</dd>` : null}
  ${s.operator ? html`<dt>${t('print.operator')}</dt><dd>${s.operator.name ?? ''}${s.operator.oib ? html` (OIB ${s.operator.oib})` : null}</dd>` : null}
  ${fiscalFacts(ctx, s, now)}
  ${
    s.correctsSaleId
      ? html`<dt>${t('hub.invoice.corrects')}</dt><dd><a href="${paths.sale(s.correctsSaleId)}">${s.source.number}</a>${s.correctionReason ? html`<br>${s.correctionReason}` : null}</dd>`
      : s.source.type === 'counter'
        ? html`<dt>${t('print.sourceDocument')}</dt><dd>${t('hub.counter.title')}</dd>`
        : html`<dt>${t('print.sourceDocument')}</dt><dd><a href="${paths.document(s.source.type as 'quotation' | 'order', s.source.id)}">${s.source.number}</a></dd>`
  }
  ${s.corrections.length > 0 ? html`<dt>${t('hub.invoice.corrections')}</dt><dd>${s.corrections.map((k) => html`<a href="${paths.sale(k.id)}">${t(`document.${k.kind}`)} ${k.invoiceNumber ?? ''}</a><br>`)}</dd>` : null}
  <dt>${t('print.customer')}</dt><dd>${s.customer.id ? html`<a href="${paths.customer(s.customer.id)}">${s.customer.name}</a>` : s.customer.name}${s.customer.taxId ? html`<br>${t(taxIdLabel(s.customer.address?.country ?? ctx.user.companyCountry))}: ${s.customer.taxId}` : null}</dd>
  ${s.note ? html`<dt>${t('print.note')}</dt><dd>${s.note}</dd>` : null}
  ${s.repriced ? html`<dt>${t('hub.desk.repriced')}</dt><dd>${t('hub.desk.repricedYes')}</dd>` : null}
  <dt>${t('common.total')}</dt><dd>${money(ctx, s.totals.withTax)}</dd>
  <dt>${t('common.paid')}</dt><dd>${money(ctx, s.paid)}</dd>
  ${s.tendered !== null && s.change !== null ? html`<dt>${t('hub.counter.tendered')}</dt><dd>${money(ctx, s.tendered)}</dd><dt>${t('hub.counter.change')}</dt><dd>${money(ctx, s.change)}</dd>` : null}
  ${s.refunds.map((r) => html`<dt>${t('hub.refund.refunded')}</dt><dd data-refund>${money(ctx, r.amount)} (${t(`payment.method.${r.method}`)}), ${ctx.fmt.dateTime(r.createdAt)}</dd>`)}
  ${
    s.balance.startsWith('-')
      ? html`<dt>${t('print.toRefund')}</dt><dd><strong>${money(ctx, s.balance.slice(1))}</strong></dd>`
      : html`<dt>${t('common.due')}</dt><dd><strong>${money(ctx, s.balance)}</strong></dd>`
  }
</dl>`;
}

/** Where the document stands with the tax authority (fiscal, exchange). */
function fiscalFacts(ctx: HubContext, s: SaleView, now: Date): Html {
  const { t } = ctx;
  return html`<dt>${t('hub.invoice.fiscal')}</dt><dd>${t(`hub.invoice.fiscal.${s.fiscal.status}`)}${s.fiscal.zki ? html`<br>ZKI ${s.fiscal.zki}` : null}${s.fiscal.jir ? html`<br>JIR ${s.fiscal.jir}` : null}${s.fiscal.error ? html`<br>${s.fiscal.error.code} ${s.fiscal.error.message}` : null}</dd>
  ${s.exchange.status !== 'not_required' ? exchangeFacts(ctx, s, now) : null}`;
}

/** The payments, each voidable by who may. */
function paymentsTable(ctx: HubContext, s: SaleView, base: string, state: FormState | undefined): Html {
  const { t } = ctx;
  const canVoid = ctx.can('payments:void');
  return html`<h2 id="payments-heading">${t('hub.desk.payments')}</h2>
${
  s.payments.length === 0
    ? html`<p class="muted">${t('hub.desk.noPayments')}</p>`
    : html`<table aria-labelledby="payments-heading">
<thead><tr><th scope="col">${t('print.date')}</th><th scope="col">${t('hub.desk.method')}</th><th scope="col" class="num">${t('print.payment.amount')}</th><th scope="col">${t('hub.desk.actions')}</th></tr></thead>
<tbody>${s.payments.map(
        (
          p,
        ) => html`<tr><td>${ctx.fmt.dateTime(p.createdAt)}</td><td>${t(`payment.method.${p.method}`)}</td><td class="num">${p.voided ? html`<s>${money(ctx, p.amount)}</s>` : money(ctx, p.amount)}</td>
<td>${
          p.voided
            ? t('hub.invoice.voided', { date: ctx.fmt.dateTime(p.voided.at), reason: p.voided.reason })
            : canVoid
              ? html`${postForm(ctx, `${base}/payments/${p.id}/void`, html` class="row"`)}${field({ id: `void-${p.id}`, schema: CancelBody, state: stateOf(state, `void-${p.id}`) }, 'reason', { label: t('hub.invoice.voidReason') })}<button type="submit">${t('hub.invoice.void')}</button></form>`
              : null
        }</td></tr>`,
      )}</tbody>
</table>`
}`;
}

/** Record a payment; a method other than the invoice's is asked about once (confirmMethod). */
function paymentSection(ctx: HubContext, s: SaleView, base: string, state: FormState | undefined): Html {
  const { t } = ctx;
  const pay = {
    id: 'pay',
    schema: PaymentBody,
    state: stateOf(state, 'pay'),
    values: proposedPayment(ctx, s),
  };
  const confirming = pay.state?.values.confirmMethod;
  return html`<section aria-labelledby="pay-heading">
<h2 id="pay-heading">${t('action.recordPayment')}</h2>
${postForm(ctx, `${base}/payments`, html` class="stack" novalidate`)}
${formError(t, pay.state)}
${confirming ? html`<input type="hidden" name="confirmMethod" value="${confirming}">` : null}
${field(pay, 'method', { label: t('hub.desk.method'), control: 'select', options: PAYMENT_METHODS.map((m) => ({ value: m, label: t(`payment.method.${m}`) })) })}
${field(pay, 'amount', { label: t('hub.desk.amountIn', { currency: s.currency }), inputmode: 'decimal' })}
<p><button type="submit">${confirming ? t('hub.pay.confirm', { method: t(`payment.method.${confirming as PaymentMethod}`) }) : t('action.recordPayment')}</button></p>
</form>
</section>`;
}

/** Give back what a correction left owed. */
function refundSection(ctx: HubContext, s: SaleView, base: string, state: FormState | undefined): Html {
  const { t } = ctx;
  const refundForm = {
    id: 'refund',
    schema: RefundBody,
    state: stateOf(state, 'refund'),
    values: { method: proposedRefund(s), amount: ctx.fmt.editable(s.balance.slice(1)) },
  };
  return html`<section aria-labelledby="refund-heading">
<h2 id="refund-heading">${t('hub.refund.give')}</h2>
${postForm(ctx, `${base}/refunds`, html` class="stack" novalidate`)}
${formError(t, refundForm.state)}
${field(refundForm, 'method', { label: t('hub.desk.method'), control: 'select', options: REFUND_METHODS.map((m) => ({ value: m, label: t(`payment.method.${m}`) })) })}
${field(refundForm, 'amount', { label: t('hub.desk.amountIn', { currency: s.currency }), inputmode: 'decimal' })}
<p><button type="submit">${t('hub.refund.giveSubmit')}</button></p>
</form>
</section>`;
}

/** A credit note for part of the invoice. */
function creditSection(ctx: HubContext, s: SaleView, base: string, state: FormState | undefined): Html {
  const { t } = ctx;
  const creditForm = { id: 'credit', schema: CreditNoteBody, state: stateOf(state, 'credit') };
  return html`<section aria-labelledby="credit-heading">
<h2 id="credit-heading">${t('hub.invoice.credit')}</h2>
${postForm(ctx, `${base}/credit-notes`, html` class="stack" novalidate`)}
${formError(t, creditForm.state)}
${s.lines
  .filter((l) => l.creditable !== null && Number(l.creditable) > 0)
  .map(
    (l) =>
      html`<p><label for="credit-q-${l.id}">${t('hub.invoice.creditQuantity', { product: l.productName })} (${t('hub.invoice.creditableLeft', { quantity: quantity(ctx, l.creditable!), unit: l.unitName })})</label><br><input id="credit-q-${l.id}" name="q-${l.id}" inputmode="decimal"></p>`,
  )}
${otherErrors(creditForm.state?.errors, ['reason'])}
${field(creditForm, 'reason', { label: t('common.reason') })}
${refundChoice(ctx, s, 'credit')}
<p><button type="submit">${t('hub.invoice.creditSubmit')}</button></p>
</form>
</section>`;
}

/** The cancellation (storno) of the invoice. */
function cancelSection(ctx: HubContext, s: SaleView, base: string, state: FormState | undefined): Html {
  const { t } = ctx;
  const cancelForm = { id: 'cancel', schema: CancelBody, state: stateOf(state, 'cancel') };
  return html`<section aria-labelledby="cancel-heading">
<h2 id="cancel-heading">${t('hub.invoice.cancel')}</h2>
${postForm(ctx, `${base}/cancel`, html` class="stack" novalidate`)}
${formError(t, cancelForm.state)}
${field(cancelForm, 'reason', { label: t('common.reason') })}
${refundChoice(ctx, s, 'cancel')}
<p><button type="submit">${t('hub.invoice.cancelSubmit')}</button></p>
</form>
</section>`;
}

/** The document's files: PDF, receipt, statement, and the e-invoice for a business buyer. */
function documentLinks(ctx: HubContext, s: SaleView, base: string, einvoice: Einvoice | null): Html {
  const { t } = ctx;
  return html`<h2>PDF</h2>
${pdfPanel(ctx, base, s.number)}
<p><a href="${base}/pdf?layout=receipt">${t('hub.counter.receipt')}<span class="sr-only"> ${s.number}</span></a></p>
${s.kind === 'invoice' ? html`<p><a href="${base}/statement">${t('hub.sale.statement')}<span class="sr-only"> ${s.number}</span></a></p>` : null}
${einvoice && s.customer.kind === 'business' ? einvoiceBox(ctx, base, einvoice) : null}`;
}

/**
 * Where the document's e-invoice is (sent through the exchange, Croatian B2B): delivery, the
 * exchange's id, its fiscalisation, the buyer's rejection, and each payment reported with the
 * deadline the law gives (the 20th of the next month, Zakon o fiskalizaciji art. 50–53).
 */
function exchangeFacts(ctx: HubContext, s: SaleView, now: Date): Html {
  const { t } = ctx;
  const x = s.exchange;
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 20));
  return html`<dt>${t('hub.einvoice.exchange')}</dt><dd id="einvoice-exchange">${t(`hub.einvoice.status.${x.status as 'sent'}`)}${x.documentId ? html`<br>${t('hub.einvoice.documentId', { id: x.documentId })}` : null}${x.fiscalisation ? html`<br>${t(`hub.einvoice.fiscalisation.${x.fiscalisation}`)}` : null}${x.rejection ? html`<br><strong>${x.rejection.type ? t('hub.einvoice.rejectionTyped', { type: x.rejection.type, reason: x.rejection.reason }) : t('hub.einvoice.rejection', { reason: x.rejection.reason })}</strong>` : null}${x.error ? html`<br><span class="error">${t('hub.einvoice.lastError', { error: x.error })}</span>` : null}${
    x.payments.length > 0 || (s.kind === 'invoice' && x.status !== 'failed')
      ? html`<br>${t('hub.einvoice.payments')}:${
          x.payments.length > 0
            ? html`<ul>${x.payments.map(
                (p) =>
                  html`<li>${t('hub.einvoice.payment', { amount: ctx.fmt.money(parseScaled(p.amount, MONEY_SCALE)), date: ctx.fmt.day(p.date), method: p.method, status: t(`hub.einvoice.paymentStatus.${p.status}`) })}</li>`,
              )}</ul>`
            : html` —`
        }<br><small>${t('hub.einvoice.paymentsDue', { deadline: ctx.fmt.day(next.toISOString().slice(0, 10)) })}</small>`
      : null
  }</dd>`;
}

/**
 * The e-invoice of an issued document: its profile and downloads, or, when the standard's
 * fields are not all there, what is missing in the reader's language (the same list the API's
 * 409 names), so that the shop fixes the product or customer first.
 */
function einvoiceBox(
  ctx: HubContext,
  base: string,
  einvoice: { profile: string; missing: Record<string, string[]>; unlawful?: boolean },
) {
  const { t } = ctx;
  const missing = Object.values(einvoice.missing).flat();
  return html`<section aria-labelledby="einvoice-heading">
<h2 id="einvoice-heading">${t('hub.einvoice.title')}</h2>
${einvoice.unlawful ? html`<p class="error" id="einvoice-unlawful">${t('hub.einvoice.unlawful')}${ctx.can('settings:manage') ? html` <a href="${paths.exchange}">${t('hub.einvoice.configure')}</a>` : null}</p>` : null}
<p>${t('hub.einvoice.profile')}: ${t(`hub.einvoice.profile.${einvoice.profile as 'hr-cius' | 'xrechnung' | 'en16931'}`)}</p>
${
  missing.length > 0
    ? html`<div class="error"><p>${t('hub.einvoice.missing')}</p><ul>${missing.map((m) => html`<li>${sayText(t, m)}</li>`)}</ul></div>`
    : html`<ul class="links">
<li><a href="${base}/e-invoice?syntax=ubl" download>${t('hub.einvoice.downloadUbl')}</a></li>
<li><a href="${base}/e-invoice?syntax=cii" download>${t('hub.einvoice.downloadCii')}</a></li>
<li><a href="${base}/pdf?facturx=1&amp;download=1" download>${t('hub.einvoice.downloadFacturx')}</a></li>
</ul>`
}
</section>`;
}

/**
 * Paid another way than the fiscalised receipt says (specification v2.6 §2.1.5): the same day
 * CIS was told (promijeniPodatkeRacuna); on a later day it can no longer be, so the receipt is
 * cancelled and issued again with the method it was paid by.
 */
function methodChangeNote(ctx: HubContext, s: SaleView, canCorrect: boolean): Html | null {
  if (s.kind !== 'invoice' || s.fiscal.status === 'not_required' || !s.paymentMethod || s.status === 'cancelled')
    return null;
  const other = s.payments.filter((p) => !p.voided && p.method !== s.paymentMethod);
  if (other.length === 0) return null;
  const issuedDay = ctx.fmt.date(s.issuedAt ?? s.createdAt);
  const late = other.some((p) => ctx.fmt.date(p.createdAt) !== issuedDay);
  if (!late) return html`<p class="muted" role="note">${ctx.t('hub.invoice.methodChangeReported')}</p>`;
  return html`<p class="error" role="alert">${ctx.t('hub.invoice.methodChangeLate')}${canCorrect ? html` <a href="#cancel-heading">${ctx.t('hub.invoice.cancel')}</a>` : null}</p>`;
}
