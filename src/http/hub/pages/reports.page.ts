import fs from 'node:fs';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { fileHeaders } from '../../file-reply.ts';
import type { Container } from '../../../container.ts';
import { AppError } from '../../../lib/errors.ts';
import {
  formatDate,
  GROUP_BYS,
  type ArchiveJob,
  type GroupBy,
  type ReportName,
  type Table,
} from '../../../modules/reports/index.ts';
import { sendTable } from '../../export-reply.ts';
import { html, type Html } from '../html.ts';
import { queryChoice, queryText } from '../form-input.ts';
import { postForm, sendPage, type IdRoute } from '../form.ts';
import type { HubContext } from '../hub-context.ts';
import { paths, withQuery } from '../paths.ts';
import { sayMessage } from '../texts/index.ts';
import { helpLink } from './help.page.ts';

const REPORTS: readonly ReportName[] = ['sales', 'vat', 'book', 'payments', 'receivables'];
const FORMATS = ['csv', 'xlsx'] as const;

/** The company's today and the first of its month, as the company's calendar has them. */
function thisMonth(timeZone: string, now: Date): { from: string; to: string } {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone }).format(now);
  return { from: `${today.slice(0, 8)}01`, to: today };
}

function readQuery(query: unknown, ctx: HubContext, now: Date) {
  const q = query as Record<string, unknown>;
  const report = queryChoice(q.report, REPORTS) ?? 'sales';
  const month = thisMonth(ctx.user.timezone, now);
  const groupBy: GroupBy = queryChoice(q.groupBy, GROUP_BYS) ?? (report === 'payments' ? 'day' : 'month');
  return {
    report,
    from: queryText(q.from, 10) ?? month.from,
    to: queryText(q.to, 10) ?? month.to,
    groupBy,
    locationId: queryText(q.locationId, 64),
  };
}

/**
 * Reports for admins: the same tables the CSV and XLSX exports write, read on the page in the
 * reader's language, with the two downloads beside them. A GET form, so a report is a link.
 */
export const reportsPage =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    app.get('/reports', { config: { hub: 'reports:run' } }, async (request, reply) => {
      const ctx = request.hub;
      const { t } = ctx;
      const q = readQuery(request.query, ctx, c.clock.now());
      const locations = await c.companies.listLocations(ctx.user.companyId);
      let content: Html;
      try {
        const table = await c.reports.table(ctx.user.companyId, q.report, q, ctx.user.language);
        const exportLink = (format: (typeof FORMATS)[number]) =>
          withQuery(paths.reportsExport, { ...q, groupBy: q.groupBy, format });
        content = html`<p>${t('hub.reports.download')} <a href="${exportLink('csv')}" download>${t('hub.reports.csv')}</a> · <a href="${exportLink('xlsx')}" download>${t('hub.reports.xlsx')}</a></p>
${q.report === 'sales' ? await comparison(c, ctx, q) : null}
${renderTable(ctx, table)}`;
      } catch (error) {
        if (!(error instanceof AppError) || error.code !== 'validation_failed') throw error;
        const messages = Object.entries(error.details ?? {}).map(
          ([field, texts]) =>
            `${field}: ${texts.map((text, i) => sayMessage(t, text, error.detailKeys?.[field]?.[i])).join(' ')}`,
        );
        content = html`<p class="error" role="alert">${messages.join(' · ')}</p>`;
      }
      const body = html`<h1>${t('hub.reports.title')}</h1>${helpLink(ctx, 'reports')}
<form method="get" action="${paths.reports}" class="row">
  <div><label for="report">${t('hub.reports.report')}</label><br><select id="report" name="report">
    ${REPORTS.map((r) => html`<option value="${r}"${r === q.report ? html` selected` : null}>${t(`hub.reports.${r}`)}</option>`)}
  </select></div>
  <div><label for="from">${t('hub.reports.from')}</label><br><input id="from" name="from" type="date" value="${q.from}" required></div>
  <div><label for="to">${t('hub.reports.to')}</label><br><input id="to" name="to" type="date" value="${q.to}" required></div>
  <div><label for="groupBy">${t('hub.reports.groupBy')}</label><br><select id="groupBy" name="groupBy">
    ${GROUP_BYS.map((g) => html`<option value="${g}"${g === q.groupBy ? html` selected` : null}>${t(`hub.reports.${g}`)}</option>`)}
  </select></div>
  <div><label for="locationId">${t('hub.reports.location')}</label><br><select id="locationId" name="locationId">
    <option value="">${t('hub.reports.allLocations')}</option>
    ${locations.map((l) => html`<option value="${l.id}"${l.id === q.locationId ? html` selected` : null}>${l.code} ${l.name}</option>`)}
  </select></div>
  <button type="submit">${t('hub.reports.show')}</button>
</form>
${content}
<section aria-labelledby="archive-title">
<h2 id="archive-title">${t('hub.reports.archive')}</h2>
<p id="archive-help">${t('hub.reports.archiveHelp')}</p>
${postForm(ctx, paths.reportsArchive, html` class="row"`)}
  <div><label for="month">${t('hub.reports.archiveMonth')}</label><br><input id="month" name="month" type="month" value="${q.from.slice(0, 7)}" required pattern="\\d{4}-\\d{2}" aria-describedby="archive-help"></div>
  <button type="submit">${t('hub.reports.archiveStart')}</button>
</form>
</section>`;
      return sendPage(reply, ctx, { title: t('hub.reports.title'), body });
    });

    app.post('/reports/archive', { config: { hub: 'reports:run' } }, async (request, reply) => {
      const ctx = request.hub;
      const month = queryText((request.body as Record<string, unknown>).month, 7) ?? '';
      const job = c.monthArchives.start(ctx.user.companyId, month, ctx.user.language);
      return reply.redirect(paths.reportsArchiveJob(job.id), 303);
    });

    const jobOf = (request: FastifyRequest<IdRoute>) => {
      try {
        return c.monthArchives.find(request.hub.user.companyId, request.params.id);
      } catch (error) {
        if (error instanceof AppError && error.code === 'not_found') return null;
        throw error;
      }
    };

    app.get<IdRoute>('/reports/archive/:id', { config: { hub: 'reports:run' } }, async (request, reply) => {
      const ctx = request.hub;
      const job = jobOf(request);
      const body = html`<h1>${ctx.t('hub.reports.archive')}</h1>${archiveStatus(ctx, job)}`;
      return sendPage(reply, ctx, { title: ctx.t('hub.reports.archive'), body, status: job ? 200 : 404 });
    });

    app.get<IdRoute>('/reports/archive/:id/status', { config: { hub: 'reports:run' } }, async (request, reply) =>
      reply.type('text/html; charset=utf-8').send(archiveStatus(request.hub, jobOf(request)).value),
    );

    app.get<IdRoute>('/reports/archive/:id/download', { config: { hub: 'reports:run' } }, async (request, reply) => {
      const file = c.monthArchives.file(request.hub.user.companyId, request.params.id);
      return fileHeaders(reply, 'ours', file.name)
        .header('content-disposition', `attachment; filename="${file.name}"`)
        .type('application/zip')
        .send(fs.createReadStream(file.path));
    });

    app.get('/reports/export', { config: { hub: 'reports:run' } }, async (request, reply) => {
      const ctx = request.hub;
      const q = readQuery(request.query, ctx, c.clock.now());
      const format = queryChoice((request.query as Record<string, unknown>).format, FORMATS) ?? 'csv';
      const table = await c.reports.table(ctx.user.companyId, q.report, q, ctx.user.language);
      const range = q.report === 'receivables' ? q.to : `${q.from}-${q.to}`;
      return sendTable(reply, table, format, ctx.user.language, `${q.report}-${range}`);
    });
  };

/** The archive's progress bar, asking for itself again each second while it is built. */
function archiveStatus(ctx: HubContext, job: ArchiveJob | null): Html {
  const { t } = ctx;
  if (!job)
    return html`<div id="archive-status"><p class="error" role="alert">${t('hub.reports.archiveGone')}</p>
<p><a href="${paths.reports}">${t('hub.reports.title')}</a></p></div>`;
  const building = job.status === 'building';
  const max = Math.max(job.total, 1);
  const value = building ? job.done : max;
  return html`<div id="archive-status"${building ? html` hx-get="${paths.reportsArchiveStatus(job.id)}" hx-trigger="every 1s" hx-swap="outerHTML"` : null}>
<p><strong>${job.month}</strong></p>
<label for="archive-progress">${t('hub.reports.archiveProgress')}</label>
<progress id="archive-progress" max="${max}" value="${value}">${value} / ${max}</progress>
<p role="status" id="archive-phase">${
    building
      ? t('hub.reports.archiveBuilding', { done: String(job.done), total: String(job.total) })
      : job.status === 'done'
        ? t('hub.reports.archiveDone', { total: String(job.total) })
        : ''
  }</p>
${job.status === 'failed' ? html`<p class="error" role="alert">${t('hub.reports.archiveFailed')}</p>` : null}
${job.status === 'done' ? html`<p><a class="button" href="${paths.reportsArchiveFile(job.id)}" download>${t('hub.reports.archiveDownload')}</a></p>` : null}
</div>`;
}

/** The sales report's total against the period before, in words and numbers (no colour needed). */
async function comparison(c: Container, ctx: HubContext, q: ReturnType<typeof readQuery>): Promise<Html> {
  const { t, fmt } = ctx;
  const report = await c.reports.sales(ctx.user.companyId, q);
  const now = report.total.gross;
  const before = report.previous.total.gross;
  const change =
    before === 0
      ? '—'
      : `${now >= before ? '+' : '−'}${fmt.number(Math.round((Math.abs(now - before) / Math.abs(before)) * 1000) / 10)} %`;
  const locale = ctx.user.language;
  return html`<p id="comparison">${t('hub.reports.total')}: <strong>${fmt.money(now)}</strong>. ${t(
    'hub.reports.previous',
    {
      from: formatDate(report.previous.from, locale),
      to: formatDate(report.previous.to, locale),
      gross: fmt.money(before),
    },
  )}. ${t('hub.reports.change', { change })}</p>`;
}

function renderTable(ctx: HubContext, table: Table): Html {
  const { t, fmt } = ctx;
  if (table.rows.length === 0) return html`<p>${t('hub.reports.empty')}</p>`;
  const cell = (value: string | number | null, type: Table['columns'][number]['type']): string => {
    if (value === null) return '';
    if (type === 'money') return fmt.money(Number(value));
    if (type === 'percent') return fmt.percent(Number(value));
    if (type === 'integer') return fmt.number(Number(value));
    if (type === 'date') return formatDate(String(value), ctx.user.language);
    return String(value);
  };
  const numeric = (type: string) => type !== 'text' && type !== 'date';
  const totals = table.columns.map((col) =>
    col.type === 'money' ? table.rows.reduce((a, r) => a + Number(r[col.key] ?? 0), 0) : null,
  );
  // A wide report (the book's many columns, in German's long words) scrolls in its own box, not the page.
  return html`<div class="table-box" role="region" aria-labelledby="report-caption" tabindex="0"><table id="report">
  <caption id="report-caption">${table.title}</caption>
  <thead><tr>${table.columns.map((col) => html`<th scope="col"${numeric(col.type) ? html` class="num"` : null}>${col.label}</th>`)}</tr></thead>
  <tbody>${table.rows.map(
    (row) =>
      html`<tr>${table.columns.map((col) => html`<td${numeric(col.type) ? html` class="num"` : null}>${cell(row[col.key] ?? null, col.type)}</td>`)}</tr>`,
  )}</tbody>
  <tfoot><tr>${table.columns.map((col, i) =>
    i === 0
      ? html`<th scope="row">${t('hub.reports.total')}</th>`
      : html`<td${numeric(col.type) ? html` class="num"` : null}>${totals[i] === null ? '' : fmt.money(totals[i]!)}</td>`,
  )}</tr></tfoot>
</table></div>`;
}
