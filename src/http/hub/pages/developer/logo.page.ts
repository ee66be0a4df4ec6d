import type { FastifyPluginAsync } from 'fastify';
import type { Container } from '../../../../container.ts';
import { AppError } from '../../../../lib/errors.ts';
import { LOGO_MAX_BYTES, type Company } from '../../../../modules/companies/index.ts';
import { fileHeaders } from '../../../file-reply.ts';
import { html, type Html } from '../../html.ts';
import type { HubContext } from '../../hub-context.ts';
import { NoFields, postForm, submit } from '../../form.ts';
import { paths } from '../../paths.ts';
import { acceptUploads, uploadOf } from '../catalog/uploads.ts';
import { redirectWith } from './developer-frame.ts';

/** The print template's logo on its settings page: what is printed now, a new one, or none. */
export function logoSection(ctx: HubContext, company: Company, error?: string): Html {
  const { t } = ctx;
  return html`<section aria-labelledby="logo-heading">
<h2 id="logo-heading">${t('hub.logo.title')}</h2>
${company.logo ? html`<p><img class="logo-preview" src="${paths.printLogo}?v=${company.logo.sha256.slice(0, 12)}" alt="${t('hub.logo.current')}"></p>` : html`<p class="muted">${t('hub.logo.none')}</p>`}
${postForm(ctx, paths.printLogo, html` enctype="multipart/form-data" class="row"`)}
<label for="logo-file">${t('hub.logo.choose')}</label>
<input type="file" id="logo-file" name="logo" accept="image/png"${error ? html` aria-invalid="true" aria-describedby="logo-error"` : null}>
<button type="submit">${t('hub.logo.upload')}</button>
${error ? html`<span class="error" id="logo-error">${error}</span>` : null}
</form>
${company.logo ? html`${postForm(ctx, paths.printLogoRemove)}<button type="submit" class="secondary">${t('hub.logo.remove')}</button></form>` : null}
<p class="hint">${t('hub.logo.hint')}</p>
</section>`;
}

/** Upload (multipart, bounded), remove, and the current logo's bytes. Admins. */
export const logoPages =
  (
    c: Container,
    rerender: (ctx: HubContext, reply: import('fastify').FastifyReply, logoError: string) => Promise<unknown>,
  ): FastifyPluginAsync =>
  async (app) => {
    app.get('/developer/print/logo', { config: { hub: 'settings:manage' } }, async (request, reply) => {
      const companyId = request.hub.user.companyId;
      const company = await c.companies.getCompany(companyId);
      const bytes = await c.companies.logoPng(companyId, company.logo?.sha256);
      if (!bytes) throw AppError.notFound('Resource');
      return fileHeaders(reply, 'uploaded', 'logo.png').type('image/png').send(bytes);
    });

    app.post('/developer/print/logo/remove', { config: { hub: 'settings:manage' } }, async (request, reply) => {
      const done = await submit(NoFields, request, () => c.companies.removeLogo(request.hub.user.companyId));
      if (!done.ok) return rerender(request.hub, reply, done.state.message ?? '');
      return redirectWith(reply, paths.printSettings, 'printSaved');
    });

    // Multipart only here, bounded by the logo's limit (a larger file is marked, not read whole).
    await app.register(async (scope) => {
      await acceptUploads(scope, LOGO_MAX_BYTES + 1);
      scope.post('/developer/print/logo', { config: { hub: 'settings:manage' } }, async (request, reply) => {
        const ctx = request.hub;
        const file = uploadOf(request.body, 'logo');
        const done = await submit(NoFields, request, async () => {
          if (!file) throw AppError.invalid({ logo: [ctx.t('hub.logo.choose')] });
          return c.companies.setLogo(ctx.user.companyId, file.bytes);
        });
        if (!done.ok)
          return rerender(ctx, reply, Object.values(done.state.errors).flat().join(' ') || (done.state.message ?? ''));
        return redirectWith(reply, paths.printSettings, 'printSaved');
      });
    });
  };
