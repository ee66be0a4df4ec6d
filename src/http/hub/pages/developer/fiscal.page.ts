import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Container } from '../../../../container.ts';
import { Type } from 'typebox';
import { AppError } from '../../../../lib/errors.ts';
import { html } from '../../html.ts';
import type { HubContext } from '../../hub-context.ts';
import {
  fieldError,
  messagesAt,
  noticeOf,
  NoFields,
  postForm,
  submit,
  type FieldErrors,
  type Route,
} from '../../form.ts';
import { paths } from '../../paths.ts';
import { acceptUploads, uploadOf } from '../catalog/uploads.ts';
import { DEVELOPER_NOTICES, formErrors, redirectWith } from './developer-frame.ts';
import { sendCompanyPage } from '../company-frame.ts';
import { helpLink } from '../help.page.ts';

const TseForm = Type.Object({
  apiKey: Type.String({ minLength: 1, maxLength: 200 }),
  apiSecret: Type.String({ minLength: 1, maxLength: 500 }),
  baseUrl: Type.Optional(Type.String({ maxLength: 300 })),
});

// A FINA .p12 is a few kilobytes; this bounds a mistaken upload.
const P12_MAX_BYTES = 64 * 1024;

/** Fiscalisation (Croatia): the FINA certificate, its expiry, the echo test. Admins only. */
export const fiscalPage =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    async function render(
      reply: FastifyReply,
      ctx: HubContext,
      options: { errors?: FieldErrors; notice?: string | null; check?: string | null; status?: number },
    ) {
      const { t } = ctx;
      const [settings, company] = await Promise.all([
        c.fiscalSettings.get(ctx.user.companyId),
        c.companies.getCompany(ctx.user.companyId),
      ]);
      if (company.country === 'DE') return renderTse(reply, ctx, options);
      const errors = options.errors ?? {};
      const file = fieldError('fiscal-file', messagesAt(errors, ['p12']));
      const password = fieldError('fiscal-password', messagesAt(errors, ['password']));
      const cert = settings.certificate;
      const body = html`<h1>${t('hub.fiscal.title')}</h1>${helpLink(ctx, 'fiscal')}
<p>${t('hub.fiscal.intro')}</p>
<p class="${settings.configured ? 'notice' : 'error'}" id="fiscal-state">${settings.configured ? t('hub.fiscal.on') : t('hub.fiscal.off')}</p>
${settings.warning ? html`<p class="error" role="alert">${settings.warning}</p>` : null}
<dl>
  ${cert ? html`<dt>${t('hub.fiscal.subject')}</dt><dd>${cert.subject}</dd><dt>${t('hub.fiscal.oib')}</dt><dd>${cert.oib}</dd><dt>${t('hub.fiscal.expires')}</dt><dd>${ctx.fmt.date(cert.expiresAt)}</dd>` : null}
  <dt>${t('hub.fiscal.endpoint')}</dt><dd><code>${settings.endpoint}</code></dd>
</dl>
<h2>${t('hub.fiscal.upload')}</h2>
${formErrors(ctx, errors, ['p12', 'password'])}
${postForm(ctx, paths.fiscal, html` enctype="multipart/form-data" class="stack"`)}
  <label for="fiscal-file">${t('hub.fiscal.file')}</label>
  <input id="fiscal-file" name="file" type="file" accept=".p12,.pfx,application/x-pkcs12" required${file.attrs}>${file.note}
  <label for="fiscal-password">${t('hub.fiscal.password')}</label>
  <input id="fiscal-password" name="password" type="password" autocomplete="off"${password.attrs}>${password.note}
  <button type="submit">${t('hub.fiscal.save')}</button>
</form>
<h2>${t('hub.fiscal.check')}</h2>
${postForm(ctx, paths.fiscalCheck, html` class="row"`)}
  <button type="submit" class="secondary">${t('hub.fiscal.check')}</button>
</form>
<div id="fiscal-check" aria-live="polite">${options.check ? html`<p class="notice">${options.check}</p>` : null}</div>`;
      return sendCompanyPage(reply, ctx, {
        title: t('hub.fiscal.title'),
        body,
        notice: options.notice ?? null,
        status: options.status,
      });
    }

    /**
     * Germany: the cloud TSE (KassenSichV) instead of CIS: the account (key and secret, the secret
     * never shown), a TSS per location set up with one button, and what the ELSTER notification
     * asks (serial numbers, software and version), as docs/germany.md explains.
     */
    async function renderTse(
      reply: FastifyReply,
      ctx: HubContext,
      options: { errors?: FieldErrors; notice?: string | null; status?: number },
    ) {
      const { t } = ctx;
      const [tse, locations] = await Promise.all([
        c.tseSettings.get(ctx.user.companyId),
        c.companies.listLocations(ctx.user.companyId),
      ]);
      const errors = options.errors ?? {};
      const key = fieldError('tse-key', messagesAt(errors, ['apiKey']));
      const secret = fieldError('tse-secret', messagesAt(errors, ['apiSecret', 'provider']));
      const url = fieldError('tse-url', messagesAt(errors, ['baseUrl']));
      const device = (id: string) => tse?.devices.find((d) => d.locationId === id);
      const body = html`<h1>${t('hub.tse.title')}</h1>${helpLink(ctx, 'tse')}
<p>${t('hub.tse.intro')}</p>
<p class="${tse && tse.devices.length > 0 ? 'notice' : 'error'}" id="tse-state">${tse ? t('hub.tse.on', { hint: tse.apiKeyHint }) : t('hub.tse.off')}</p>
${tse && tse.failed.length > 0 ? html`<p class="error" role="alert">${t('hub.tse.failed', { count: String(tse.failed.length) })}</p>` : null}
<h2>${t('hub.tse.devices')}</h2>
<table id="tse-devices"><thead><tr><th>${t('hub.tse.location')}</th><th>${t('hub.tse.clientSerial')}</th><th>${t('hub.tse.tssSerial')}</th><th>${t('hub.tse.since')}</th><th></th></tr></thead><tbody>
${locations.map((l) => {
  const d = device(l.id);
  return html`<tr><td>${l.name}</td><td><code>${d?.clientSerial ?? '—'}</code></td><td><code>${d?.tssSerial ?? '—'}</code></td><td>${d ? ctx.fmt.date(d.createdAt) : '—'}</td><td>${
    tse && !d
      ? html`${postForm(ctx, `${paths.fiscal}/tse/${l.id}`, html` class="row"`)}<button type="submit" class="secondary">${t('hub.tse.setUp')}</button></form>`
      : null
  }</td></tr>`;
})}
</tbody></table>
<p>${t('hub.tse.elster', { software: 'Portico 1.0.0' })}</p>
<h2>${t('hub.tse.export')}</h2>
<form method="get" action="${paths.fiscal}/dsfinvk" class="row" id="tse-export">
  <label>${t('hub.tse.from')} <input type="date" name="from" required></label>
  <label>${t('hub.tse.to')} <input type="date" name="to" required></label>
  <label>${t('hub.tse.location')} <select name="locationId">${locations.map((l) => html`<option value="${l.id}">${l.name}</option>`)}</select></label>
  <button type="submit" class="secondary">${t('hub.tse.download')}</button>
</form>
<h2>${t('hub.tse.account')}</h2>
${formErrors(ctx, errors, ['apiKey', 'apiSecret', 'baseUrl', 'provider'])}
${postForm(ctx, `${paths.fiscal}/tse`, html` class="stack"`)}
  <label for="tse-key">${t('hub.tse.apiKey')}</label>
  <input id="tse-key" name="apiKey" autocomplete="off" required${key.attrs}>${key.note}
  <label for="tse-secret">${t('hub.tse.apiSecret')}</label>
  <input id="tse-secret" name="apiSecret" type="password" autocomplete="off" required${secret.attrs}>${secret.note}
  <label for="tse-url">${t('hub.tse.baseUrl')}</label>
  <input id="tse-url" name="baseUrl" placeholder="https://kassensichv.fiskaly.com"${url.attrs}>${url.note}
  <button type="submit">${t('hub.tse.save')}</button>
</form>`;
      return sendCompanyPage(reply, ctx, {
        title: t('hub.tse.title'),
        body,
        notice: options.notice ?? null,
        status: options.status,
      });
    }

    app.post('/developer/fiscal/tse', { config: { hub: 'settings:manage' } }, async (request, reply) => {
      const ctx = request.hub;
      const done = await submit(TseForm, request, (input) =>
        c.tseSettings.saveAccount(ctx.user.companyId, {
          provider: 'fiskaly',
          apiKey: input.apiKey,
          apiSecret: input.apiSecret,
          baseUrl: input.baseUrl ?? null,
        }),
      );
      return done.ok
        ? redirectWith(reply, paths.fiscal, 'fiscalSaved')
        : renderTse(reply, ctx, { errors: done.state.errors, status: done.status });
    });

    app.post<{ Params: { id: string } }>(
      '/developer/fiscal/tse/:id',
      { config: { hub: 'settings:manage' } },
      async (request, reply) => {
        const ctx = request.hub;
        const done = await submit(NoFields, request, () =>
          c.tseSettings.setUpDevice(ctx.user.companyId, request.params.id),
        );
        return done.ok
          ? redirectWith(reply, paths.fiscal, 'fiscalSaved')
          : renderTse(reply, ctx, {
              errors: done.state.errors,
              status: done.status,
              notice: done.state.message ?? null,
            });
      },
    );

    app.get<{ Querystring: { from?: string; to?: string; locationId?: string } }>(
      '/developer/fiscal/dsfinvk',
      { config: { hub: 'reports:run' } },
      async (request, reply) => {
        const q = request.query;
        const zip = await c.dsfinvk.build(request.hub.user.companyId, {
          from: String(q.from ?? ''),
          to: String(q.to ?? ''),
          locationId: String(q.locationId ?? ''),
        });
        const name = `dsfinvk-${q.from}-${q.to}.zip`.replace(/[^\w.-]+/g, '_');
        return reply
          .header('content-disposition', `attachment; filename="${name}"`)
          .header('x-content-type-options', 'nosniff')
          .type('application/zip')
          .send(zip);
      },
    );

    app.get<Route>('/developer/fiscal', { config: { hub: 'settings:manage' } }, async (request, reply) =>
      render(reply, request.hub, { notice: noticeOf(request.hub, request.query, DEVELOPER_NOTICES) }),
    );

    app.post('/developer/fiscal/check', { config: { hub: 'settings:manage' } }, async (request, reply) => {
      const { t } = request.hub;
      const result = await c.fiscalSettings.check();
      return render(reply, request.hub, {
        check: result.ok
          ? t('hub.fiscal.checkOk', { millis: String(result.millis) })
          : t('hub.fiscal.checkFailed', { message: result.message }),
      });
    });

    // Multipart only here, bounded: every other hub form stays urlencoded.
    await app.register(async (scope) => {
      await acceptUploads(scope, P12_MAX_BYTES);
      scope.post('/developer/fiscal', { config: { hub: 'settings:manage' } }, async (request, reply) => {
        const ctx = request.hub;
        const upload = uploadOf(request.body, 'file');
        const password = (request.body as Record<string, unknown> | null)?.password;
        const done = await submit(NoFields, request, async () => {
          if (!upload || upload.tooLarge) throw AppError.invalid({ p12: [ctx.t('hub.fiscal.chooseFile')] });
          await c.fiscalSettings.uploadCertificate(ctx.user.companyId, {
            p12: upload.bytes.toString('base64'),
            password: typeof password === 'string' ? password : '',
          });
        });
        return done.ok
          ? redirectWith(reply, paths.fiscal, 'fiscalSaved')
          : render(reply, ctx, { errors: done.state.errors, status: done.status });
      });
    });
  };
