import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Container } from '../../../../container.ts';
import { CSV_COLUMNS } from '../../../../modules/catalog/index.ts';
import { html, type Html } from '../../html.ts';
import type { HubContext } from '../../hub-context.ts';
import { postForm, type IdRoute } from '../../form.ts';
import { catalogPage } from './catalog-frame.ts';
import { createImportJobs, type ImportJob } from './import-jobs.ts';
import { acceptUploads, uploadOf } from './uploads.ts';
import { paths } from '../../paths.ts';
import { sayText } from '../../texts/index.ts';

/** 20,000 rows (the import's limit) of ordinary product lines fit well within this. */
const IMPORT_MAX_BYTES = 16 * 1024 * 1024;
const POLL = 'every 500ms';

/**
 * CSV import: the upload starts the import in the background of this process, and the page
 * polls its progress (htmx) until the report. Without JavaScript the POST waits for the end
 * and redirects to the same report.
 */
export const importPage =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    const jobs = createImportJobs(c.catalogImport, (error) =>
      c.logger.error({ err: error }, 'hub catalog import failed'),
    );

    function renderForm(request: FastifyRequest, reply: FastifyReply, error?: string) {
      const ctx = request.hub;
      const { t } = ctx;
      const body = html`<h1>${t('hub.catalog.import')}</h1>
<p id="import-help">${t('hub.catalog.importHelp', { columns: CSV_COLUMNS.join(', ') })}</p>
${postForm(
  ctx,
  paths.catalogImport,
  html` enctype="multipart/form-data" class="row"
  hx-post="${paths.catalogImport}" hx-encoding="multipart/form-data" hx-target="#import-status" hx-swap="outerHTML"`,
)}
  <div><label for="import-file">${t('hub.catalog.importFile')}</label>
  <input id="import-file" name="file" type="file" accept=".csv,text/csv" required aria-describedby="import-help${error ? ' import-file-error' : ''}"${error ? html` aria-invalid="true"` : null}>
  ${error ? html`<span class="field-error" id="import-file-error">${error}</span>` : null}</div>
  <button type="submit">${t('hub.catalog.importStart')}</button>
</form>
<div id="import-status"></div>
<p><a href="${paths.catalogExport}" download>${t('hub.catalog.export')}</a></p>`;
      return catalogPage(ctx, reply, { title: t('hub.catalog.import'), body, status: error ? 400 : 200 });
    }

    app.get('/catalog/import', { config: { hub: 'catalog:write' } }, (request, reply) => renderForm(request, reply));

    // The file to edit and import again: the import's columns, barcodes included.
    app.get('/catalog/export.csv', { config: { hub: 'catalog:read' } }, async (request, reply) =>
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="catalog.csv"')
        .send(await c.catalogImport.exportCsv(request.hub.user.companyId)),
    );

    await app.register(async (scope) => {
      await acceptUploads(scope, IMPORT_MAX_BYTES);
      scope.post('/catalog/import', { config: { hub: 'catalog:write' } }, async (request, reply) => {
        const ctx = request.hub;
        const { t } = ctx;
        const file = uploadOf(request.body, 'file');
        let text: string | null = null;
        let error: string | undefined;
        if (!file) error = t('hub.catalog.chooseFile');
        else if (file.tooLarge)
          error = t('hub.catalog.tooLarge', { size: `${ctx.fmt.number(IMPORT_MAX_BYTES / 1048576)} MB` });
        else {
          try {
            text = new TextDecoder('utf-8', { fatal: true }).decode(file.bytes);
          } catch {
            error = t('hub.catalog.notUtf8');
          }
        }
        const htmx = Boolean(request.headers['hx-request']);
        if (error || text === null) {
          // htmx swaps only a 2xx answer, so its copy of the refusal comes as 200 into the status area.
          if (htmx)
            return reply
              .type('text/html; charset=utf-8')
              .send(html`<div id="import-status"><p class="error" role="alert">${error}</p></div>`.value);
          return renderForm(request, reply, error);
        }
        const job = jobs.start(ctx.user.companyId, file!.filename.slice(0, 200), text);
        if (htmx) return reply.type('text/html; charset=utf-8').send(status(ctx, job).value);
        await job.finished;
        return reply.redirect(paths.importJob(job.id), 303);
      });
    });

    const jobOf = (request: FastifyRequest<IdRoute>) => jobs.find(request.hub.user.companyId, request.params.id);

    app.get<IdRoute>('/catalog/import/:id', { config: { hub: 'catalog:write' } }, async (request, reply) => {
      const ctx = request.hub;
      const job = jobOf(request);
      const body = html`<h1>${ctx.t('hub.catalog.import')}</h1>${job ? status(ctx, job) : gone(ctx)}`;
      return catalogPage(ctx, reply, { title: ctx.t('hub.catalog.import'), body, status: job ? 200 : 404 });
    });

    app.get<IdRoute>('/catalog/import/:id/status', { config: { hub: 'catalog:write' } }, async (request, reply) => {
      const job = jobOf(request);
      return reply.type('text/html; charset=utf-8').send((job ? status(request.hub, job) : gone(request.hub)).value);
    });
  };

function gone(ctx: HubContext): Html {
  return html`<div id="import-status"><p class="error" role="alert">${ctx.t('hub.catalog.importGone')}</p>
<p><a href="${paths.catalogImport}">${ctx.t('hub.catalog.importAgain')}</a></p></div>`;
}

/** The progress and, once ended, the report; while running it asks for itself again every 500 ms. */
function status(ctx: HubContext, job: ImportJob): Html {
  const { t, fmt } = ctx;
  const running = job.phase === 'checking' || job.phase === 'writing';
  const max = Math.max(job.total, 1);
  const value = running ? (job.phase === 'writing' ? job.done : null) : max;
  const line =
    job.phase === 'checking'
      ? t('hub.catalog.importChecking')
      : job.phase === 'writing'
        ? t('hub.catalog.importWriting', { done: job.done, total: job.total })
        : t('hub.catalog.importDone');
  const report = job.report;
  return html`<div id="import-status" class="import-status"${running ? html` hx-get="${paths.importJobStatus(job.id)}" hx-trigger="${POLL}" hx-swap="outerHTML"` : null}>
<p><strong>${job.fileName}</strong></p>
<label for="import-progress">${t('hub.catalog.importProgress')}</label>
<progress id="import-progress" max="${max}"${value === null ? null : html` value="${value}"`}>${value === null ? '' : `${value} / ${max}`}</progress>
<p role="status" id="import-phase">${line}</p>
${job.phase === 'failed' ? html`<p class="error" role="alert">${t('hub.catalog.importCrashed')}</p>` : null}
${
  report
    ? html`<dl class="facts">
  <dt>${t('hub.catalog.importCreated')}</dt><dd>${fmt.number(report.created)}</dd>
  <dt>${t('hub.catalog.importUpdated')}</dt><dd>${fmt.number(report.updated)}</dd>
</dl>
${
  report.errors.length > 0
    ? html`<p class="error" role="alert">${t('hub.catalog.importFailed', { count: report.errors.length })}</p>
<table><caption>${t('hub.catalog.importErrors')}</caption>
<thead><tr><th scope="col" class="num">${t('hub.catalog.importRow')}</th><th scope="col">${t('hub.catalog.importField')}</th><th scope="col">${t('hub.catalog.importMessage')}</th></tr></thead>
<tbody>${report.errors.map((e) => html`<tr><td class="num">${e.row}</td><td>${e.field ?? ''}</td><td>${sayText(t, e.message)}</td></tr>`)}</tbody></table>`
    : null
}`
    : null
}
${running ? null : html`<p><a href="${paths.catalogImport}">${t('hub.catalog.importAgain')}</a></p>`}
</div>`;
}
