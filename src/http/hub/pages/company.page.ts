import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { Type, type Static } from 'typebox';
import type { FieldErrors } from '../../../lib/errors.ts';
import type { Container } from '../../../container.ts';
import type { Company, SettingsPatch } from '../../../modules/companies/index.ts';
import { SettingsBody } from '../../requests/companies.ts';
import { html } from '../html.ts';
import type { HubContext } from '../hub-context.ts';
import { bodyText, field, noticeOf, postForm, sendPage, submit } from '../form.ts';
import { ACCOUNT_NOTICES } from './account-texts.ts';
import { paths, withNotice } from '../paths.ts';
import { taxIdLabel } from '../../../modules/i18n/index.ts';

/**
 * The form's shape only: the service checks every field of the change at once (a bad tax id and
 * a bad validity are named together), and the fields' limits come from the admin API's `SettingsBody`.
 */
const CompanyForm = Type.Object(
  {
    name: Type.String(),
    street: Type.String(),
    postalCode: Type.String(),
    city: Type.String(),
    country: Type.String(),
    taxId: Type.String(),
    locale: Type.String(),
    quotationValidityDays: Type.String(),
  },
  { additionalProperties: false },
);
type Draft = Static<typeof CompanyForm>;

/**
 * Company profile: name, address, country, tax id, locale, quotation validity, through the same
 * `updateSettings` as the admin API's adminUpdateSettings. Bank account and print template live
 * on developer settings; currency and time zone are shown, as the service does not change them.
 */
export const companyPage =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    app.get('/company', { config: { hub: 'settings:manage' } }, async (request, reply) => {
      const company = await c.companies.getCompany(request.hub.user.companyId);
      return send(
        reply,
        200,
        request.hub,
        company,
        draftOf(company),
        undefined,
        noticeOf(request.hub, request.query, ACCOUNT_NOTICES),
      );
    });

    app.post('/company', { config: { hub: 'settings:manage' } }, async (request, reply) => {
      const ctx = request.hub;
      const done = await submit(
        CompanyForm,
        request,
        (draft) => c.companies.updateSettings(ctx.user.companyId, patchOf(draft)),
        { read: (_, body) => draftFrom(body), refusals: [] },
      );
      if (!done.ok) {
        const company = await c.companies.getCompany(ctx.user.companyId);
        return send(reply, done.status, ctx, company, draftFrom(request.body), done.state.errors, null);
      }
      return reply.redirect(withNotice(paths.company, 'companySaved'), 303);
    });
  };

/** The posted form, each field as typed (trimmed). */
function draftFrom(body: unknown): Draft {
  const text = (name: keyof Draft) => bodyText(body, name).trim();
  return {
    name: text('name'),
    street: text('street'),
    postalCode: text('postalCode'),
    city: text('city'),
    country: text('country'),
    taxId: text('taxId'),
    locale: text('locale'),
    quotationValidityDays: text('quotationValidityDays'),
  };
}

/** The form as the service's change: blank optional fields cleared, no address when all three are blank. */
function patchOf(draft: Draft): SettingsPatch {
  return {
    name: draft.name,
    // All three address fields empty: no address. A city without a street is named by the service.
    address:
      draft.street || draft.postalCode || draft.city
        ? { street: draft.street, postalCode: draft.postalCode || null, city: draft.city || null }
        : null,
    country: draft.country || null,
    taxId: draft.taxId || null,
    locale: draft.locale,
    quotationValidityDays: draft.quotationValidityDays === '' ? Number.NaN : Number(draft.quotationValidityDays),
  };
}

function draftOf(company: Company): Draft {
  return {
    name: company.name,
    street: company.address?.street ?? '',
    postalCode: company.address?.postalCode ?? '',
    city: company.address?.city ?? '',
    country: company.country ?? '',
    taxId: company.taxId ?? '',
    locale: company.locale,
    quotationValidityDays: String(company.quotationValidityDays),
  };
}

function send(
  reply: FastifyReply,
  status: number,
  ctx: HubContext,
  company: Company,
  d: Draft,
  errors: FieldErrors | undefined,
  notice: string | null,
) {
  const { t } = ctx;
  // What was typed (or is stored), with each field's limits from the admin API's settings body.
  const view = { id: 'company', schema: SettingsBody, values: d, state: errors ? { values: {}, errors } : undefined };
  const body = html`<h1>${t('hub.company.title')}</h1>
${errors ? html`<p class="error" role="alert">${t('hub.form.fixErrors')}</p>` : null}
${postForm(ctx, paths.company, html` class="stack company-profile"`)}
  ${field(view, 'name', { id: 'name', label: t('hub.company.name'), required: true })}
  <fieldset>
    <legend>${t('hub.company.address')}</legend>
    ${field(view, 'street', { id: 'street', path: 'address.street', label: t('hub.company.street'), autocomplete: 'street-address' })}
    ${field(view, 'postalCode', { id: 'postal-code', path: 'address.postalCode', label: t('hub.company.postalCode'), autocomplete: 'postal-code' })}
    ${field(view, 'city', { id: 'city', path: 'address.city', label: t('hub.company.city'), autocomplete: 'address-level2' })}
  </fieldset>
  ${field(view, 'country', { id: 'country', label: t('hub.company.country'), extra: html` size="3"` })}
  ${field(view, 'taxId', { id: 'tax-id', label: company.country ? t(taxIdLabel(company.country)) : t('hub.company.taxId') })}
  ${field(view, 'locale', { id: 'locale', label: t('hub.company.locale'), required: true })}
  ${field(view, 'quotationValidityDays', { id: 'validity', label: t('hub.company.validityDays'), type: 'number', required: true, extra: html` step="1"` })}
  <button type="submit">${t('action.save')}</button>
</form>
<dl class="facts">
  <dt>${t('hub.company.currency')}</dt><dd>${company.currency}</dd>
  <dt>${t('hub.company.timezone')}</dt><dd>${company.timezone}</dd>
</dl>
<p class="muted">${t('hub.company.fixedHint')}</p>`;
  return sendPage(reply, ctx, { title: t('hub.company.title'), body, notice, status });
}
