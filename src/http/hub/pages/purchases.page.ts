import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../../container.ts';
import { AppError } from '../../../lib/errors.ts';
import {
  PURCHASE_PAYMENT_METHODS,
  PURCHASE_STATUSES,
  REJECTION_TYPES,
  type PurchaseInvoiceDetail,
} from '../../../modules/einvoice/index.ts';
import { fileHeaders } from '../../file-reply.ts';
import { html, type Html } from '../html.ts';
import type { HubContext } from '../hub-context.ts';
import type { HubMessageKey } from '../texts/index.ts';
import {
  fieldError,
  messagesAt,
  NoFields,
  postForm,
  queryChoice,
  queryText,
  sendPage,
  submit,
  type FormState,
  type Route,
} from '../form.ts';
import { paths } from '../paths.ts';
import { acceptUploads, uploadOf } from './catalog/uploads.ts';
import { helpLink } from './help.page.ts';

type IdParams = { id: string };
const XML_MAX_BYTES = 20 * 1024 * 1024;
/** An amount in the invoice's own currency (a supplier may invoice in NOK): for display only. */
const money = (ctx: HubContext, amount: string, currency: string) =>
  new Intl.NumberFormat(ctx.fmt.locale, { style: 'currency', currency }).format(Number(amount));
/** A figure of the document as written (up to six decimals on a price), in the reader's notation. */
const figure = (ctx: HubContext, value: string | null) =>
  value === null || value === ''
    ? ''
    : new Intl.NumberFormat(ctx.fmt.locale, { minimumFractionDigits: 2, maximumFractionDigits: 6 }).format(
        Number(value),
      );
const statusText = (ctx: HubContext, status: string) =>
  ctx.t(`hub.purchases.status.${status}` as HubMessageKey & `hub.purchases.status.${string}`);
const badge = (ctx: HubContext, status: string) =>
  html`<span class="status ${status === 'received' ? 'open' : status}">${statusText(ctx, status)}</span>`;

const RejectForm = Type.Object({
  type: Type.Enum(REJECTION_TYPES),
  reason: Type.String({ minLength: 1, maxLength: 1024 }),
});
const PaymentForm = Type.Object({
  amount: Type.String({ maxLength: 20 }),
  date: Type.String({ maxLength: 10 }),
  method: Type.Enum(PURCHASE_PAYMENT_METHODS),
});

/** Received e-invoices: the list, a readable view of one, and (admins) accept, reject, pay, upload. */
export const purchasesPages =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    async function renderList(
      reply: FastifyReply,
      ctx: HubContext,
      query: unknown,
      upload?: { errors: Record<string, string[]>; status: number },
    ) {
      const { t } = ctx;
      const q = (query ?? {}) as Record<string, unknown>;
      const status = queryChoice(q.status, PURCHASE_STATUSES);
      const supplier = queryText(q.supplier, 200);
      const [rows, exchange] = await Promise.all([
        c.purchaseInvoices.list(ctx.user.companyId, {
          ...(status ? { status } : {}),
          ...(supplier ? { supplier } : {}),
        }),
        ctx.can('settings:manage') ? c.exchangeSettings.get(ctx.user.companyId) : null,
      ]);
      const file = fieldError('purchase-file', messagesAt(upload?.errors, ['xml', 'file']));
      const body = html`<h1>${t('hub.purchases.title')}</h1>${helpLink(ctx, 'purchases')}
<p>${t('hub.purchases.intro')}</p>
${exchange && !exchange.configured ? html`<p class="error" role="alert">${t('hub.purchases.noExchange')} <a href="${paths.exchange}">${t('hub.exchange.nav')}</a></p>` : null}
<form method="get" action="${paths.purchases}" class="row" role="search">
  <div><label for="status">${t('hub.purchases.status')}</label><br><select id="status" name="status">
    <option value="">${t('hub.purchases.all')}</option>
    ${PURCHASE_STATUSES.map((s) => html`<option value="${s}"${s === status ? html` selected` : null}>${statusText(ctx, s)}</option>`)}
  </select></div>
  <div><label for="supplier">${t('hub.purchases.supplier')}</label><br><input id="supplier" name="supplier" value="${supplier ?? ''}"></div>
  <button type="submit">${t('hub.purchases.filter')}</button>
</form>
${
  rows.length === 0
    ? html`<p class="muted">${t('hub.purchases.none')}</p>`
    : html`<table>
<thead><tr><th scope="col">${t('hub.purchases.number')}</th><th scope="col">${t('hub.purchases.supplier')}</th><th scope="col">${t('hub.purchases.issued')}</th><th scope="col">${t('hub.purchases.due')}</th><th scope="col" class="num">${t('hub.purchases.total')}</th><th scope="col" class="num">${t('hub.purchases.open')}</th><th scope="col">${t('hub.purchases.status')}</th></tr></thead>
<tbody>${rows.map(
        (
          p,
        ) => html`<tr><td><a href="${paths.purchase(p.id)}">${p.number}</a></td><td>${p.supplier.name}${p.supplier.oib ? html` <small class="muted">${p.supplier.oib}</small>` : null}</td>
<td>${ctx.fmt.day(p.issueDate)}</td><td>${p.dueDate ? ctx.fmt.day(p.dueDate) : '—'}</td><td class="num">${money(ctx, p.totals.total, p.currency)}</td><td class="num">${money(ctx, p.totals.due, p.currency)}</td><td>${badge(ctx, p.status)}</td></tr>`,
      )}</tbody></table>`
}
${
  ctx.can('purchases:handle')
    ? html`<h2>${t('hub.purchases.upload')}</h2>
${postForm(ctx, paths.purchases, html` enctype="multipart/form-data" class="stack"`)}
  <label for="purchase-file">${t('hub.purchases.uploadFile')}</label>
  <input id="purchase-file" name="file" type="file" accept=".xml,application/xml,text/xml" required${file.attrs}>${file.note}
  <button type="submit">${t('hub.purchases.uploadButton')}</button>
</form>`
    : null
}`;
      return sendPage(reply, ctx, { title: t('hub.purchases.title'), body, status: upload?.status });
    }

    function reportLine(ctx: HubContext, p: PurchaseInvoiceDetail): Html | null {
      const r = p.rejection?.report;
      if (!r) return null;
      const { t } = ctx;
      if (r.status === 'done') return html`<p class="notice">${t('hub.purchases.report.done')}</p>`;
      if (r.status === 'failed')
        return html`<p class="error" role="alert">${t('hub.purchases.report.failed', { error: r.lastError ?? '' })}</p>`;
      return html`<p class="notice">${t('hub.purchases.report.pending', { attempts: String(r.attempts + 1), error: r.lastError ?? '' })}</p>`;
    }

    async function renderOne(reply: FastifyReply, ctx: HubContext, id: string, state?: FormState, status?: number) {
      const { t } = ctx;
      const p = await c.purchaseInvoices.get(ctx.user.companyId, id);
      const d = p.document;
      const err = (form: string, field: string) =>
        fieldError(`${form}-${field}`, state?.form === form ? messagesAt(state.errors, [field]) : []);
      const reason = err('reject', 'reason');
      const amount = err('pay', 'amount');
      const date = err('pay', 'date');
      const handle = ctx.can('purchases:handle');
      const body = html`<h1>${t('hub.purchases.number')} ${p.number} ${badge(ctx, p.status)}</h1>
${p.readProblem ? html`<p class="error" role="alert">${t('hub.purchases.unreadable', { reason: p.readProblem })}</p>` : null}
${state?.message ? html`<p class="error" role="alert">${state.message}</p>` : null}
<dl>
  <dt>${t('hub.purchases.supplier')}</dt><dd>${p.supplier.name}${p.supplier.oib ? html`, OIB ${p.supplier.oib}` : null}${p.supplier.vatId ? html`, ${p.supplier.vatId}` : null}${d?.supplierAddress ? html`<br>${d.supplierAddress}` : null}</dd>
  <dt>${t('hub.purchases.issued')}</dt><dd>${ctx.fmt.day(p.issueDate)}</dd>
  <dt>${t('hub.purchases.due')}</dt><dd>${p.dueDate ? ctx.fmt.day(p.dueDate) : '—'}</dd>
  <dt>${t('hub.purchases.total')}</dt><dd>${money(ctx, p.totals.total, p.currency)}</dd>
  <dt>${t('hub.purchases.open')}</dt><dd>${money(ctx, p.totals.due, p.currency)}</dd>
  ${p.iban ? html`<dt>${t('hub.purchases.iban')}</dt><dd><code>${p.iban}</code></dd>` : null}
  ${p.paymentReference ? html`<dt>${t('hub.purchases.reference')}</dt><dd><code>${p.paymentReference}</code></dd>` : null}
</dl>
${p.rejection ? html`<p>${t('hub.purchases.rejected', { type: p.rejection.type, reason: p.rejection.reason })}</p>${reportLine(ctx, p)}` : null}
${
  d
    ? html`<h2>${t('hub.purchases.lines')}</h2><table>
<thead><tr><th scope="col">#</th><th scope="col">${t('hub.purchases.item')}</th><th scope="col">${t('hub.purchases.kpd')}</th><th scope="col" class="num">${t('hub.purchases.quantity')}</th><th scope="col" class="num">${t('hub.purchases.price')}</th><th scope="col" class="num">${t('hub.purchases.vat')}</th><th scope="col" class="num">${t('hub.purchases.net')}</th></tr></thead>
<tbody>${d.lines.map(
        (
          l,
        ) => html`<tr><td>${l.id}</td><td>${l.name}</td><td>${l.kpd ? html`<code>${l.kpd}</code> ${l.kpdName ? html`<small class="muted">${l.kpdName}</small>` : html`<small class="error">${t('hub.purchases.kpdUnknown')}</small>`}` : '—'}</td>
<td class="num">${figure(ctx, l.quantity)} ${l.unitCode ?? ''}</td><td class="num">${figure(ctx, l.unitPrice)}</td><td class="num">${l.vatCategory ?? ''} ${l.vatRate ? `${l.vatRate} %` : ''}</td><td class="num">${figure(ctx, l.net)}</td></tr>`,
      )}</tbody></table>
<h2>${t('hub.purchases.vatBreakdown')}</h2><table>
<thead><tr><th scope="col">${t('hub.purchases.vat')}</th><th scope="col" class="num">${t('hub.purchases.base')}</th><th scope="col" class="num">${t('hub.purchases.vat')}</th></tr></thead>
<tbody>${d.taxes.map((x) => html`<tr><td>${x.category} ${x.rate ? `${x.rate} %` : ''}${x.exemptionReason ? html`<br><small>${x.exemptionReason}</small>` : null}</td><td class="num">${figure(ctx, x.base)}</td><td class="num">${figure(ctx, x.amount)}</td></tr>`)}</tbody></table>
${d.notes.map((n) => html`<p class="muted">${n}</p>`)}
${d.attachments.map((a) => html`<p><a href="${paths.purchaseAttachment(p.id, a.index)}">${t('hub.purchases.attachment')}: ${a.filename ?? a.description ?? a.mimeCode ?? ''}</a></p>`)}`
    : null
}
<p><a href="${paths.purchaseXml(p.id)}">${t('hub.purchases.original')}</a></p>
${
  handle && p.status === 'received'
    ? html`${postForm(ctx, paths.purchaseAccept(p.id), html` class="row"`)}<button type="submit">${t('hub.purchases.accept')}</button></form>
<h2>${t('hub.purchases.reject')}</h2>
${postForm(ctx, paths.purchaseReject(p.id), html` class="stack"`)}
  <label for="reject-type">${t('hub.purchases.rejectType')}</label>
  <select id="reject-type" name="type">${REJECTION_TYPES.map((r) => html`<option value="${r}"${state?.form === 'reject' && state.values.type === r ? html` selected` : null}>${t(`hub.purchases.rejectType.${r}`)}</option>`)}</select>
  <label for="reject-reason">${t('hub.purchases.rejectReason')}</label>
  <textarea id="reject-reason" name="reason" required maxlength="1024"${reason.attrs}>${state?.form === 'reject' ? (state.values.reason ?? '') : ''}</textarea>${reason.note}
  <button type="submit" class="danger">${t('hub.purchases.reject')}</button>
</form>`
    : null
}
<h2>${t('hub.purchases.payments')}</h2>
${p.payments.length === 0 ? html`<p class="muted">—</p>` : html`<table><tbody>${p.payments.map((x) => html`<tr><td>${ctx.fmt.day(x.date)}</td><td>${t(`hub.purchases.method.${x.method as 'cash'}`)}</td><td class="num">${money(ctx, x.amount, p.currency)}</td></tr>`)}</tbody></table>`}
${
  ctx.can('purchases:pay') && p.status !== 'rejected' && p.totals.due !== '0.00'
    ? html`${postForm(ctx, paths.purchasePayment(p.id), html` class="row"`)}
  <div><label for="pay-amount">${t('hub.purchases.amount')}</label><br><input id="pay-amount" name="amount" inputmode="decimal" value="${state?.form === 'pay' ? (state.values.amount ?? '') : ctx.fmt.editable(p.totals.due)}"${amount.attrs}>${amount.note}</div>
  <div><label for="pay-date">${t('hub.purchases.date')}</label><br><input id="pay-date" name="date" type="date" value="${state?.form === 'pay' ? (state.values.date ?? '') : new Date().toISOString().slice(0, 10)}"${date.attrs}>${date.note}</div>
  <div><label for="pay-method">${t('hub.purchases.method')}</label><br><select id="pay-method" name="method">${PURCHASE_PAYMENT_METHODS.map((m) => html`<option value="${m}">${t(`hub.purchases.method.${m}`)}</option>`)}</select></div>
  <button type="submit">${t('hub.purchases.recordPayment')}</button>
</form>`
    : null
}`;
      return sendPage(reply, ctx, { title: `${t('hub.purchases.number')} ${p.number}`, body, status });
    }

    app.get<Route>('/purchases', { config: { hub: 'purchases:read' } }, async (request, reply) =>
      renderList(reply, request.hub, request.query),
    );

    app.get<{ Params: IdParams }>('/purchases/:id', { config: { hub: 'purchases:read' } }, async (request, reply) =>
      renderOne(reply, request.hub, request.params.id),
    );

    app.get<{ Params: IdParams }>(
      '/purchases/:id/original.xml',
      { config: { hub: 'purchases:read' } },
      async (request, reply) => {
        const { number, bytes } = await c.purchaseInvoices.originalXml(request.hub.user.companyId, request.params.id);
        return fileHeaders(reply, 'uploaded', `${number}.xml`).type('application/xml').send(bytes);
      },
    );

    app.get<{ Params: IdParams & { index: string } }>(
      '/purchases/:id/attachments/:index',
      { config: { hub: 'purchases:read' } },
      async (request, reply) => {
        const found = await c.purchaseInvoices.attachment(
          request.hub.user.companyId,
          request.params.id,
          Number(request.params.index),
        );
        // A supplier's file: always a download, sandboxed, whatever it claims to be.
        return fileHeaders(reply, 'uploaded', found.filename ?? `attachment-${request.params.index}`)
          .type(found.mimeCode === 'application/pdf' ? 'application/pdf' : 'application/octet-stream')
          .send(found.content);
      },
    );

    app.post<{ Params: IdParams }>(
      '/purchases/:id/accept',
      { config: { hub: 'purchases:handle' } },
      async (request, reply) => {
        const ctx = request.hub;
        const done = await submit(NoFields, request, () =>
          c.purchaseInvoices.accept(ctx.user.companyId, request.params.id, ctx.user.userId),
        );
        return done.ok
          ? reply.redirect(paths.purchase(request.params.id), 303)
          : renderOne(reply, ctx, request.params.id, done.state, done.status);
      },
    );

    app.post<{ Params: IdParams }>(
      '/purchases/:id/reject',
      { config: { hub: 'purchases:handle' } },
      async (request, reply) => {
        const ctx = request.hub;
        const done = await submit(
          RejectForm,
          request,
          (input) => c.purchaseInvoices.reject(ctx.user.companyId, request.params.id, ctx.user.userId, input),
          { form: 'reject' },
        );
        return done.ok
          ? reply.redirect(paths.purchase(request.params.id), 303)
          : renderOne(reply, ctx, request.params.id, done.state, done.status);
      },
    );

    app.post<{ Params: IdParams }>(
      '/purchases/:id/payments',
      { config: { hub: 'purchases:pay' } },
      async (request, reply) => {
        const ctx = request.hub;
        const done = await submit(
          PaymentForm,
          request,
          (input) => c.purchaseInvoices.recordPayment(ctx.user.companyId, request.params.id, ctx.user.userId, input),
          // A decimal comma, as a Croatian or German reader types it.
          { form: 'pay', read: (fields) => ({ ...fields, amount: String(fields.amount ?? '').replace(',', '.') }) },
        );
        return done.ok
          ? reply.redirect(paths.purchase(request.params.id), 303)
          : renderOne(reply, ctx, request.params.id, done.state, done.status);
      },
    );

    await app.register(async (scope) => {
      await acceptUploads(scope, XML_MAX_BYTES);
      scope.post('/purchases', { config: { hub: 'purchases:handle' } }, async (request, reply) => {
        const ctx = request.hub;
        const upload = uploadOf(request.body, 'file');
        const done = await submit(NoFields, request, async () => {
          if (!upload || upload.tooLarge) throw AppError.invalid({ file: [ctx.t('hub.purchases.chooseFile')] });
          return c.purchaseInvoices.file(ctx.user.companyId, { bytes: upload.bytes, source: 'upload' });
        });
        return done.ok
          ? reply.redirect(paths.purchase(done.result.view.id), 303)
          : renderList(reply, ctx, {}, { errors: done.state.errors, status: done.status });
      });
    });
  };
