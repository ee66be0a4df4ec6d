import { dataModeOf, testDataSwitch } from '../../test-data-switch.ts';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Container } from '../../../../container.ts';
import {
  isQuotationOpen,
  mayConvertQuotation,
  QUOTATION_STATUSES,
  type QuotationStatus,
  type QuotationView,
  type RevisionSummary,
} from '../../../../modules/quotations/index.ts';
import { reservePrint } from '../../../pdf-reply.ts';
import { newestFirstPage } from '../../../admin/pagination.ts';
import { html, type Html } from '../../html.ts';
import { sendingsBlock } from './sending.page.ts';
import { answerBlock } from './quotation-mail.ts';
import type { HubContext } from '../../hub-context.ts';
import { noticeOf, queryChoice, queryText, sendPage, submit, type Route } from '../../form.ts';
import { quotationsListTable } from '../../../../modules/reports/index.ts';
import { exportLinks, readListSearch, searchFields, searchParams, sendListExport } from './list-search.ts';
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
import { cancelForm, customerBlock, pdfPanel } from './document-parts.ts';
import { DESK_REFUSALS } from './desk-form.ts';
import { CancelBody } from '../../../requests/documents.ts';
import { conversionPage } from './conversion.page.ts';
import { paths, withNotice } from '../../paths.ts';

type IdParams = { id: string };

/** Quotations: the list and search, one with its PDF, and the ways out of `approved`. */
export const quotationsPages =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    app.get<Route>('/quotations', { config: { hub: 'quotations:read' } }, async (request, reply) => {
      const ctx = request.hub;
      const { t } = ctx;
      const { query } = request;
      const q = queryText(query.q);
      const status = queryChoice(query.status, QUOTATION_STATUSES);
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
      // One batch for the whole page: the rows, their lines, datasheets and assigned names.
      const fetch = async (p: { limit: number; cursor?: string }) => {
        const page = newestFirstPage(p);
        return page.page(await c.quotations.list(ctx.user.companyId, page, filter));
      };
      if (search.format && !invalid)
        return sendListExport(reply, ctx, search.format, 'quotations', fetch, (rows, locale) =>
          quotationsListTable(rows, locale, ctx.user.timezone, (s) => t(`status.quotation.${s as QuotationStatus}`)),
        );
      const { data, nextCursor } = invalid
        ? { data: [], nextCursor: null }
        : await fetch({ limit: 25, ...(cursor ? { cursor } : {}) });
      const params = { q, status, ...searchParams(search), data: mode === 'test' ? 'test' : undefined };
      const body = html`${heading(t('nav.quotations'), false)}
${ctx.can('quotations:make') ? html`<p><a class="button" href="${paths.newQuotation}">${t('hub.make.newQuotation')}</a></p>` : null}
<form method="get" action="${paths.quotations}" class="row" role="search"${liveFilter(paths.quotations, ['q', 'amount', 'from', 'to', 'status', 'data'])}>
  <div><label for="q">${t('hub.desk.searchDocuments')}</label><br><input id="q" name="q" type="search" value="${q ?? ''}"></div>
  ${searchFields(ctx, search, '', true, false)}
  <div><label for="status">${t('common.status')}</label><br><select id="status" name="status">
    <option value="">${t('hub.desk.allStatuses')}</option>
    ${QUOTATION_STATUSES.map((s) => html`<option value="${s}"${s === status ? html` selected` : null}>${t(`status.quotation.${s}`)}</option>`)}
  </select></div>
  ${testDataSwitch(ctx, mode)}
  <button type="submit">${t('action.search')}</button>
</form>
<div id="results">
${
  data.length === 0
    ? html`<p class="muted">${t('common.noResults')}</p>`
    : html`<table>
<thead><tr><th scope="col">${t('print.number')}</th><th scope="col">${t('print.customer')}</th><th scope="col">${t('common.createdAt')}</th><th scope="col">${t('print.validUntil')}</th><th scope="col" class="num">${t('common.total')}</th><th scope="col">${t('common.status')}</th></tr></thead>
<tbody>${data.map(
        (row) => html`<tr>
  <td><a href="${paths.quotation(row.id)}">${row.number}</a></td>
  <td>${row.directoryCustomer ? row.directoryCustomer.name : row.customer.name}</td>
  <td>${ctx.fmt.date(row.createdAt)}</td><td>${ctx.fmt.date(row.expiresAt)}</td>
  <td class="num">${money(ctx, row.totals.withTax)}</td>
  <td>${quotationStatus(ctx, row)}</td>
</tr>`,
      )}</tbody>
</table>`
}
${nextPageLink(paths.quotations, params, nextCursor, t('hub.desk.nextPage'))}
${data.length > 0 ? exportLinks(ctx, paths.quotations, params) : null}
</div>`;
      return sendPage(reply, ctx, { title: t('nav.quotations'), body, status: invalid ? 400 : 200 });
    });

    app.get<{ Params: IdParams }>('/quotations/:id', { config: { hub: 'quotations:read' } }, async (request, reply) => {
      const ctx = request.hub;
      const quotation = await c.quotations.get(ctx.user.companyId, request.params.id);
      const [revisions, sendings, answer] = await Promise.all([
        c.quotations.revisions(ctx.user.companyId, quotation.id),
        c.documentMail.listSendings(ctx.user.companyId, 'quotation', quotation.id),
        c.quotationAnswers.answerOf(ctx.user.companyId, quotation.id),
      ]);
      const extra = html`${answerBlock(ctx, answer)}${sendingsBlock(ctx, 'quotation', quotation.id, sendings)}`;
      return detail(
        reply,
        ctx,
        quotation,
        noticeOf(ctx, request.query, DESK_NOTICES),
        undefined,
        200,
        revisions,
        extra,
      );
    });

    app.get<{ Params: IdParams; Querystring: { download?: string } }>(
      '/quotations/:id/pdf',
      { config: { hub: 'quotations:read' } },
      async (request, reply) => {
        const printed = await c.quotations.renderPdf(
          request.hub.user.companyId,
          request.params.id,
          reservePrint(c, reply),
        );
        return sendDocumentPdf(reply, printed, Boolean(request.query.download));
      },
    );

    await app.register(conversionPage(c));

    app.post<{ Params: IdParams }>(
      '/quotations/:id/cancel',
      { config: { hub: 'quotations:handle' } },
      async (request, reply) => {
        const ctx = request.hub;
        const quotation = await c.quotations.get(ctx.user.companyId, request.params.id);
        const done = await submit(
          CancelBody,
          request,
          ({ reason }) => c.quotations.cancel(ctx.user.companyId, quotation.id, reason),
          DESK_REFUSALS,
        );
        if (!done.ok) {
          const revisions = await c.quotations.revisions(ctx.user.companyId, quotation.id);
          return detail(reply, ctx, quotation, null, done.state.errors.reason?.join(' '), done.status, revisions);
        }
        return reply.redirect(withNotice(paths.quotation(quotation.id), 'cancelled'), 303);
      },
    );
  };

/** Every revision, the current one marked; the earlier ones with the PDF they were sent as. */
function revisionsList(ctx: HubContext, q: QuotationView, revisions: readonly RevisionSummary[]) {
  const { t } = ctx;
  return html`<section aria-labelledby="revisions-heading">
<h2 id="revisions-heading">${t('hub.make.revisions')}</h2>
<table>
<thead><tr><th scope="col">${t('print.number')}</th><th scope="col">${t('common.createdAt')}</th><th scope="col" class="num">${t('common.total')}</th><th scope="col">PDF</th></tr></thead>
<tbody>${[...revisions].reverse().map(
    (r) => html`<tr>
  <th scope="row">${r.number}${r.current ? html` <span class="status open">${t('hub.make.current')}</span>` : null}</th>
  <td>${ctx.fmt.dateTime(r.createdAt)}${r.replacedAt ? html`<br><span class="muted">${t('hub.make.replacedAt', { at: ctx.fmt.dateTime(r.replacedAt) })}</span>` : null}</td>
  <td class="num">${money(ctx, r.total)}</td>
  <td>${r.current ? html`<a href="${paths.quotation(q.id)}/pdf">${t('action.openPdf')}<span class="sr-only"> ${r.number}</span></a>` : html`<a href="${paths.quotationRevisionPdf(q.id, r.revision)}">${t('action.openPdf')}<span class="sr-only"> ${r.number}</span></a>`}</td>
</tr>`,
  )}</tbody>
</table>
</section>`;
}

export function quotationStatus(ctx: HubContext, q: QuotationView) {
  return html`${statusBadge(ctx, 'quotation', q.status)}${q.status === 'approved' && q.expired ? html` ${statusBadge(ctx, 'quotation', 'expired')}` : null}`;
}

function detail(
  reply: FastifyReply,
  ctx: HubContext,
  q: QuotationView,
  notice: string | null,
  cancelError?: string,
  status = 200,
  revisions: readonly RevisionSummary[] = [],
  /** The customer's answer and the sendings by e-mail (quotation-mail.ts), on the page as read. */
  mailed: Html | null = null,
) {
  const { t } = ctx;
  const open = isQuotationOpen(q.status);
  const handle = ctx.can('quotations:handle');
  // An expired quotation converts only at today's prices, which only an admin may do: others see why, not a button.
  const canConvert = mayConvertQuotation(q, { handle, reprice: ctx.can('quotations:reprice') });
  const base = paths.quotation(q.id);
  const title = t('document.titleWithNumber', { title: t('document.quotation'), number: q.number });
  // Facts and totals first, the lines across the page, then the actions before the PDF: the
  // PDF viewer holds many controls, and a keyboard user reaches the convert step before them.
  const body = html`${heading(title, notice !== null)}
<div class="two">
<div>
<dl class="facts">
  <dt>${t('common.status')}</dt><dd>${quotationStatus(ctx, q)}</dd>
  <dt>${t('print.issued')}</dt><dd>${ctx.fmt.dateTime(q.createdAt)}</dd>
  <dt>${t('print.validUntil')}</dt><dd>${ctx.fmt.dateTime(q.expiresAt)}</dd>
  ${q.note ? html`<dt>${t('print.note')}</dt><dd>${q.note}</dd>` : null}
  ${q.saleId ? html`<dt>${t('document.sale')}</dt><dd><a href="${paths.sale(q.saleId)}">${t('hub.desk.openSale')}</a></dd>` : null}
  ${q.cancellationReason ? html`<dt>${t('common.reason')}</dt><dd>${q.cancellationReason}</dd>` : null}
</dl>
${customerBlock(ctx, q, base, open && handle)}
</div>
<div>${totalsFacts(ctx, q.totals)}</div>
</div>
<h2>${t('hub.desk.lines')}</h2>
${linesTable(ctx, q.lines)}
<div class="two">
<div>
${
  open
    ? html`<section aria-labelledby="convert-heading">
<h2 id="convert-heading">${t('action.convert')}</h2>
${q.expired && !ctx.can('quotations:reprice') ? html`<p>${t('hub.desk.expiredAdminOnly')}</p>` : null}
${!q.directoryCustomer && canConvert ? html`<p>${t('hub.desk.assignFirst')}</p>` : null}
<p><a class="button${canConvert ? '' : ' secondary'}" href="${base}/conversion">${t('hub.desk.previewConversion')}</a></p>
</section>`
    : null
}
${
  open && !q.expired && ctx.can('quotations:make')
    ? html`<p><a class="button secondary" href="${paths.quotationEdit(q.id)}">${t('hub.make.revise')}</a></p>`
    : null
}
${
  open && handle
    ? html`<section aria-labelledby="cancel-heading">
<h2 id="cancel-heading">${t('action.cancelQuotation')}</h2>
${cancelForm(ctx, `${base}/cancel`, t('action.cancelQuotation'), cancelError)}
</section>`
    : null
}
</div>
<div>
<h2>PDF</h2>
${pdfPanel(ctx, base, q.number)}
</div>
</div>
${revisions.length > 1 ? revisionsList(ctx, q, revisions) : null}
${mailed}
<p><a href="${paths.quotations}">${t('action.back')}</a></p>`;
  return sendPage(reply, ctx, { title, body, notice, status });
}
