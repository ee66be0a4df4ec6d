import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { FieldErrors } from '../../../lib/errors.ts';
import type { Container } from '../../../container.ts';
import type { Company, SettingsPatch } from '../../../modules/companies/index.ts';
import { html, raw } from '../html.ts';
import type { HubContext } from '../hub-context.ts';
import { postForm, bodyText, fieldErrorsOf, input, noticeOf, sendPage } from '../form.ts';
import { ACCOUNT_NOTICES } from './account-texts.ts';
import { paths, withNotice } from '../paths.ts';

type Draft = Record<
  'name' | 'street' | 'postalCode' | 'city' | 'country' | 'taxId' | 'locale' | 'quotationValidityDays',
  string
>;

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
      const text = (name: keyof Draft) => bodyText(request.body, name).trim();
      const draft: Draft = {
        name: text('name'),
        street: text('street'),
        postalCode: text('postalCode'),
        city: text('city'),
        country: text('country'),
        taxId: text('taxId'),
        locale: text('locale'),
        quotationValidityDays: text('quotationValidityDays'),
      };
      const days = Number(draft.quotationValidityDays);
      const patch: SettingsPatch = {
        name: draft.name,
        // All three address fields empty: no address. A city without a street is named by the service.
        address:
          draft.street || draft.postalCode || draft.city
            ? { street: draft.street, postalCode: draft.postalCode || null, city: draft.city || null }
            : null,
        country: draft.country || null,
        taxId: draft.taxId || null,
        locale: draft.locale,
        quotationValidityDays: draft.quotationValidityDays === '' ? Number.NaN : days,
      };
      try {
        await c.companies.updateSettings(ctx.user.companyId, patch);
      } catch (error) {
        const details = fieldErrorsOf(error);
        const company = await c.companies.getCompany(ctx.user.companyId);
        return send(reply, 400, ctx, company, draft, details, null);
      }
      return reply.redirect(withNotice(paths.company, 'companySaved'), 303);
    });
  };

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
  const body = html`<h1>${t('hub.company.title')}</h1>
${errors ? html`<p class="error" role="alert">${t('hub.form.fixErrors')}</p>` : null}
${postForm(ctx, paths.company, html` class="stack company-profile"`)}
  ${input({ id: 'name', name: 'name', label: t('hub.company.name'), value: d.name, required: true, extra: raw(' maxlength="200"'), errors: errors?.name })}
  <fieldset>
    <legend>${t('hub.company.address')}</legend>
    ${input({ id: 'street', name: 'street', label: t('hub.company.street'), value: d.street, autocomplete: 'street-address', errors: errors?.['address.street'] })}
    ${input({ id: 'postal-code', name: 'postalCode', label: t('hub.company.postalCode'), value: d.postalCode, autocomplete: 'postal-code', errors: errors?.['address.postalCode'] })}
    ${input({ id: 'city', name: 'city', label: t('hub.company.city'), value: d.city, autocomplete: 'address-level2', errors: errors?.['address.city'] })}
  </fieldset>
  ${input({ id: 'country', name: 'country', label: t('hub.company.country'), value: d.country, extra: raw(' maxlength="2" size="3"'), errors: errors?.country })}
  ${input({ id: 'tax-id', name: 'taxId', label: t('hub.company.taxId'), value: d.taxId, extra: raw(' maxlength="32"'), errors: errors?.taxId })}
  ${input({ id: 'locale', name: 'locale', label: t('hub.company.locale'), value: d.locale, required: true, extra: raw(' maxlength="35"'), errors: errors?.locale })}
  ${input({ id: 'validity', name: 'quotationValidityDays', label: t('hub.company.validityDays'), type: 'number', value: d.quotationValidityDays, required: true, extra: raw(' min="1" max="3650" step="1"'), errors: errors?.quotationValidityDays })}
  <button type="submit">${t('action.save')}</button>
</form>
<dl class="facts">
  <dt>${t('hub.company.currency')}</dt><dd>${company.currency}</dd>
  <dt>${t('hub.company.timezone')}</dt><dd>${company.timezone}</dd>
</dl>
<p class="muted">${t('hub.company.fixedHint')}</p>`;
  return sendPage(reply, ctx, { title: t('hub.company.title'), body, notice, status });
}
