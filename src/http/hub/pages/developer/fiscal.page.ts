import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Container } from '../../../../container.ts';
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
      const settings = await c.fiscalSettings.get(ctx.user.companyId);
      const errors = options.errors ?? {};
      const file = fieldError('fiscal-file', messagesAt(errors, ['p12']));
      const password = fieldError('fiscal-password', messagesAt(errors, ['password']));
      const cert = settings.certificate;
      const body = html`<h1>${t('hub.fiscal.title')}</h1>
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
