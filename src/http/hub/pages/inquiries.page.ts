import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Container } from '../../../container.ts';
import { AppError } from '../../../lib/errors.ts';
import { PERMISSIONS, needsRole } from '../../access.ts';
import type { Inquiry } from '../../../modules/inquiries/index.ts';
import { newestFirstPage } from '../../admin/pagination.ts';
import { html, type Html } from '../html.ts';
import { postForm, type Route, type IdRoute, type FormState, fieldError, noticeOf, sendPage, submit } from '../form.ts';
import { ReplyBody } from '../../requests/mail.ts';
import { repliesBlock } from './inquiry-replies.ts';
import type { HubContext } from '../hub-context.ts';
import { filterParams, readInquiryFilter, type InquiryFilterForm } from './inquiry-filter.ts';
import { paths, withNotice, withQuery } from '../paths.ts';
import { dataModeOf, testDataSwitch, type DataMode } from '../test-data-switch.ts';

const PAGE_SIZE = 25;

/** Inquiries from the websites' contact forms: a filtered list, one inquiry with its photo, mark handled. */
export const inquiriesPages =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    app.get<Route>('/inquiries', { config: { hub: 'inquiries:read' } }, async (request, reply) => {
      const ctx = request.hub;
      const { t } = ctx;
      const { query } = request;
      const { form, filter: read, errors } = readInquiryFilter(query, ctx.user.timezone, t);
      const mode = dataModeOf(query);
      const spam = query.folder === 'spam';
      if (spam && !ctx.can('inquiries:spam')) throw new AppError('forbidden', needsRole(PERMISSIONS['inquiries:spam']));
      const filter = { ...read, mode, folder: spam ? ('spam' as const) : ('inbox' as const) };
      const invalid = Object.keys(errors).length > 0;
      let list: Html | null = null;
      if (!invalid) {
        const paging = newestFirstPage({
          limit: PAGE_SIZE,
          cursor: typeof query.cursor === 'string' ? query.cursor : undefined,
        });
        const { data, nextCursor } = paging.page(await c.inquiries.list(ctx.user.companyId, paging, filter));
        const next = nextCursor
          ? `${paths.inquiries}?${new URLSearchParams([...filterParams(form), ...(mode === 'test' ? [['data', 'test']] : []), ...(spam ? [['folder', 'spam']] : []), ['cursor', nextCursor]]).toString()}`
          : null;
        list = inquiryTable(ctx, data, next);
      }
      const body = html`<h1>${spam ? t('hub.inquiries.spamFolder') : t('hub.inquiries.title')}</h1>
${spam ? html`<p><a href="${paths.inquiries}">← ${t('hub.inquiries.inbox')}</a></p>` : ctx.can('inquiries:spam') ? html`<p><a href="${withQuery(paths.inquiries, { folder: 'spam' })}">${t('hub.inquiries.spamFolder')}</a></p>` : null}
${invalid ? html`<p class="error" role="alert">${t('hub.form.fixErrors')}</p>` : null}
${filterForm(ctx, form, errors, mode, spam)}
${list}`;
      return sendPage(reply, ctx, { title: t('hub.inquiries.title'), body, status: invalid ? 400 : 200 });
    });

    app.get<IdRoute>('/inquiries/:id', { config: { hub: 'inquiries:read' } }, async (request, reply) => {
      const ctx = request.hub;
      const inquiry = visible(ctx, await c.inquiries.get(ctx.user.companyId, request.params.id));
      const notice = noticeOf(ctx, request.query, {
        handled: 'hub.inquiries.markedHandled',
        released: 'hub.inquiries.released',
        replied: 'hub.inquiries.replied',
        reopened: 'hub.inquiries.reopened',
      });
      return showInquiry(reply, ctx, inquiry, notice);
    });

    async function showInquiry(
      reply: FastifyReply,
      ctx: HubContext,
      inquiry: Inquiry,
      notice: string | null,
      state?: FormState,
      status = 200,
    ) {
      const [fetched, replies] = await Promise.all([
        c.inquiries.photo(ctx.user.companyId, inquiry.id),
        c.inquiries.replies(ctx.user.companyId, inquiry.id),
      ]);
      const body = html`${inquiryDetail(ctx, inquiry, fetched)}${repliesBlock(ctx, inquiry, replies, state)}`;
      return sendPage(reply, ctx, { title: inquiry.subject, body, notice, status });
    }

    app.post<IdRoute>('/inquiries/:id/reply', { config: { hub: 'inquiries:answer' } }, async (request, reply) => {
      const ctx = request.hub;
      const inquiry = visible(ctx, await c.inquiries.get(ctx.user.companyId, request.params.id));
      const done = await submit(
        ReplyBody,
        request,
        ({ message }) =>
          c.inquiryReplies.reply({ companyId: ctx.user.companyId, userId: ctx.user.userId }, inquiry.id, message),
        { refusals: ['validation_failed', 'conflict', 'unavailable'] },
      );
      if (!done.ok) return showInquiry(reply, ctx, inquiry, null, done.state, done.status);
      return reply.redirect(withNotice(paths.inquiry(inquiry.id), 'replied'), 303);
    });

    app.post<IdRoute>('/inquiries/:id/reopen', { config: { hub: 'inquiries:handle' } }, async (request, reply) => {
      const inquiry = await c.inquiries.reopen(request.hub.user.companyId, request.params.id);
      return reply.redirect(withNotice(paths.inquiry(inquiry.id), 'reopened'), 303);
    });

    app.get<IdRoute>('/inquiries/:id/photo', { config: { hub: 'inquiries:read' } }, async (request, reply) => {
      const inquiry = visible(request.hub, await c.inquiries.get(request.hub.user.companyId, request.params.id));
      const fetched = await c.inquiries.photo(request.hub.user.companyId, inquiry.id);
      if (fetched.state !== 'fetched') throw AppError.notFound('Photo');
      return reply
        .type(fetched.contentType)
        .header('cache-control', 'private, max-age=3600')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(fetched.bytes);
    });

    app.post<IdRoute>('/inquiries/:id/release', { config: { hub: 'inquiries:handle' } }, async (request, reply) => {
      const inquiry = await c.inquiries.release(request.hub.user.companyId, request.params.id);
      return reply.redirect(withNotice(paths.inquiry(inquiry.id), 'released'), 303);
    });

    app.post<IdRoute>('/inquiries/:id/handled', { config: { hub: 'inquiries:answer' } }, async (request, reply) => {
      const ctx = request.hub;
      visible(ctx, await c.inquiries.get(ctx.user.companyId, request.params.id));
      const inquiry = await c.inquiries.markHandled(ctx.user.companyId, request.params.id, ctx.user.userId);
      return reply.redirect(withNotice(paths.inquiry(inquiry.id), 'handled'), 303);
    });
  };

/** An inquiry held as spam is not there for a role without the spam folder (staff): not found, not forbidden. */
function visible(ctx: HubContext, inquiry: Inquiry): Inquiry {
  if (inquiry.spamReason !== null && !ctx.can('inquiries:spam')) throw AppError.notFound('Inquiry');
  return inquiry;
}

function stateOf(ctx: HubContext, inquiry: Inquiry): Html {
  return inquiry.handledAt
    ? html`<span class="status converted">${ctx.t('hub.inquiries.state.handled')}</span>`
    : html`<span class="status open">${ctx.t('hub.inquiries.state.open')}</span>`;
}

/** A filter with its label; its message (form.ts `fieldError`) after the control. */
function field(
  id: keyof InquiryFilterForm,
  label: string,
  control: (attrs: Html | null) => Html,
  error: string | undefined,
): Html {
  const e = fieldError(`f-${id}`, error ? [error] : undefined, 'span');
  return html`<div class="field"><label for="f-${id}">${label}</label>${control(e.attrs)}${e.note}</div>`;
}

function filterForm(
  ctx: HubContext,
  form: InquiryFilterForm,
  errors: Partial<Record<keyof InquiryFilterForm, string>>,
  mode: DataMode,
  spam: boolean,
): Html {
  const { t } = ctx;
  const option = (value: InquiryFilterForm['state'], label: string) =>
    html`<option value="${value}"${form.state === value ? html` selected` : null}>${label}</option>`;
  return html`<form method="get" action="${paths.inquiries}" class="row filters" role="search" aria-label="${t('hub.inquiries.filters')}">
  ${field('q', t('hub.inquiries.search'), (attrs) => html`<input id="f-q" name="q" type="search" value="${form.q}"${attrs}>`, errors.q)}
  ${field('topic', t('hub.inquiries.topic'), (attrs) => html`<input id="f-topic" name="topic" value="${form.topic}"${attrs}>`, errors.topic)}
  ${field('state', t('hub.inquiries.state'), () => html`<select id="f-state" name="state">${option('', t('hub.inquiries.state.any'))}${option('open', t('hub.inquiries.state.open'))}${option('handled', t('hub.inquiries.state.handled'))}</select>`, errors.state)}
  ${field('from', t('hub.inquiries.dateFrom'), (attrs) => html`<input id="f-from" name="from" type="date" value="${form.from}"${attrs}>`, errors.from)}
  ${field('to', t('hub.inquiries.dateTo'), (attrs) => html`<input id="f-to" name="to" type="date" value="${form.to}"${attrs}>`, errors.to)}
  ${testDataSwitch(ctx, mode)}
  ${spam ? html`<input type="hidden" name="folder" value="spam">` : null}
  <button type="submit">${t('action.search')}</button>
</form>`;
}

function inquiryTable(ctx: HubContext, rows: Inquiry[], next: string | null): Html {
  const { t } = ctx;
  if (rows.length === 0) return html`<p>${t('common.noResults')}</p>`;
  return html`<table>
<thead><tr><th scope="col">${t('hub.inquiries.received')}</th><th scope="col">${t('hub.inquiries.subject')}</th><th scope="col">${t('hub.inquiries.sender')}</th><th scope="col">${t('hub.inquiries.topic')}</th><th scope="col">${t('hub.inquiries.state')}</th></tr></thead>
<tbody>${rows.map(
    (r) => html`<tr>
  <td>${ctx.fmt.dateTime(r.createdAt)}</td>
  <td><a href="${paths.inquiry(r.id)}">${r.subject}</a></td>
  <td>${r.name ? html`${r.name}<br>` : null}<small>${r.email}</small></td>
  <td>${r.topic}</td>
  <td>${stateOf(ctx, r)}</td>
</tr>`,
  )}</tbody>
</table>
${next ? html`<p><a href="${next}" class="button secondary">${t('action.more')}</a></p>` : null}`;
}

/**
 * The photo as Portico fetched it, served from here: staff browsers never load the sender's URL
 * (a tracking pixel). One that could not be fetched is a link, with the reason; one past its
 * retention a link, with that.
 */
function photo(ctx: HubContext, inquiry: Inquiry, fetched: PhotoState): Html {
  const { t } = ctx;
  const url = inquiry.productPhotoUrl;
  if (!url) return html`<p>${t('hub.inquiries.noPhoto')}</p>`;
  const link = html`<a href="${url}" rel="noreferrer noopener" target="_blank">${url}</a>`;
  if (fetched.state === 'fetched')
    return html`<figure class="inquiry-photo"><img src="${paths.inquiryPhoto(inquiry.id)}" alt="${t('hub.inquiries.photoAlt', { subject: inquiry.subject })}" loading="lazy"><figcaption>${link}</figcaption></figure>`;
  if (fetched.state === 'removed')
    return html`<p>${link}</p><p class="muted">${t('hub.inquiries.photoRemoved', { days: fetched.days })}</p>`;
  const reason = fetched.state === 'failed' ? fetched.reason : t('hub.inquiries.photoNotFetched');
  return html`<p>${link}</p><p class="muted">${t('hub.inquiries.photoFailed', { reason })}</p>`;
}

type PhotoState = Awaited<ReturnType<Container['inquiries']['photo']>>;

function inquiryDetail(ctx: HubContext, inquiry: Inquiry, fetched: PhotoState): Html {
  const { t } = ctx;
  return html`<p><a href="${paths.inquiries}">← ${t('hub.inquiries.title')}</a></p>
<h1>${inquiry.subject}</h1>
${
  inquiry.spamReason
    ? html`<div class="notice warning" role="note"><p>${t('hub.inquiries.spamHeld')}</p>${ctx.can('inquiries:handle') ? html`${postForm(ctx, paths.inquiryRelease(inquiry.id), html` class="inline"`)}<button type="submit">${t('hub.inquiries.release')}</button></form>` : null}</div>`
    : null
}
<dl class="facts">
  <dt>${t('hub.inquiries.state')}</dt><dd>${stateOf(ctx, inquiry)}${inquiry.handledAt ? html` ${t('hub.inquiries.handledOn', { date: ctx.fmt.dateTime(inquiry.handledAt) })}` : null}</dd>
  <dt>${t('hub.inquiries.received')}</dt><dd>${ctx.fmt.dateTime(inquiry.createdAt)}</dd>
  <dt>${t('hub.inquiries.topic')}</dt><dd>${inquiry.topic}</dd>
  <dt>${t('hub.inquiries.sender')}</dt><dd>${inquiry.name ? html`${inquiry.name}<br>` : null}<a href="mailto:${inquiry.email}">${inquiry.email}</a></dd>
  <dt>${t('print.phone')}</dt><dd><a href="tel:${inquiry.phone.replace(/[^\d+]/g, '')}">${inquiry.phone}</a></dd>
</dl>
<h2>${t('hub.inquiries.message')}</h2>
<p class="inquiry-message">${inquiry.message}</p>
<h2>${t('hub.inquiries.photo')}</h2>
${photo(ctx, inquiry, fetched)}
<p class="row">
  ${
    inquiry.handledAt
      ? ctx.can('inquiries:handle')
        ? html`${postForm(ctx, paths.inquiryReopen(inquiry.id), html` class="inline"`)}<button type="submit" class="secondary">${t('hub.inquiries.reopen')}</button></form>`
        : null
      : ctx.can('inquiries:answer')
        ? html`${postForm(ctx, paths.inquiryHandled(inquiry.id), html` class="inline"`)}<button type="submit">${t('action.markHandled')}</button></form>`
        : null
  }
  ${ctx.can('quotations:handle') ? html`<a class="button secondary" href="${paths.newQuotationFromInquiry(inquiry.id)}">${t('hub.inquiries.makeQuotation')}</a>` : null}
</p>`;
}
