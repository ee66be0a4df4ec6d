import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import type { FieldErrors } from '../../../lib/errors.ts';
import type { Container } from '../../../container.ts';
import type { Company, Location, SettingsPatch } from '../../../modules/companies/index.ts';
import { AppError } from '../../../lib/errors.ts';
import { SettingsBody } from '../../requests/companies.ts';
import { html } from '../html.ts';
import type { HubContext } from '../hub-context.ts';
import { bodyText, field, noticeOf, postForm, submit } from '../form.ts';
import { ACCOUNT_NOTICES } from './account-texts.ts';
import { paths, withNotice } from '../paths.ts';
import { sendCompanyPage } from './company-frame.ts';
import { taxIdLabel } from '../../../modules/i18n/index.ts';
import { sayMessage } from '../texts/index.ts';

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
    paymentTermsDays: Type.String(),
    vatRegistered: Type.String(),
    fiscalEnabled: Type.String(),
    sequenceMode: Type.String(),
    zkiHash: Type.String(),
    pricesIncludeTax: Type.String(),
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
        { locations: await c.companies.listLocations(request.hub.user.companyId) },
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
        return send(reply, done.status, ctx, company, draftFrom(request.body), done.state.errors, null, {
          locations: await c.companies.listLocations(ctx.user.companyId),
        });
      }
      return reply.redirect(withNotice(paths.company, 'companySaved'), 303);
    });

    // A location's name and address (printed on its documents) and its labels in Croatian invoice
    // numbers `{sequence}/{premises}/{device}`; a new location also takes its code. One handler
    // for both: a refusal shows the page again with the fields named.
    const saveLocation = async (request: FastifyRequest, reply: FastifyReply, id: string | null) => {
      const ctx = request.hub;
      const field = (name: string) => bodyText(request.body, name).trim();
      const fields = {
        name: field('name'),
        address: field('address') || null,
        fiscalPremises: field('fiscalPremises') || null,
        fiscalDevice: field('fiscalDevice') || null,
      };
      try {
        if (id === null) await c.companies.createLocation(ctx.user.companyId, { ...fields, code: field('code') });
        else await c.companies.updateLocation(ctx.user.companyId, id, fields);
      } catch (error) {
        if (!(error instanceof AppError) || error.code !== 'validation_failed') throw error;
        const company = await c.companies.getCompany(ctx.user.companyId);
        return send(reply, 400, ctx, company, draftOf(company), undefined, null, {
          locations: await c.companies.listLocations(ctx.user.companyId),
          locationErrors: {
            id: id ?? 'new',
            text: Object.entries(error.details ?? {})
              .map(
                ([name, texts]) =>
                  `${ctx.t(`hub.location.${name}` as never) ?? name}: ${texts.map((text, i) => sayMessage(ctx.t, text, error.detailKeys?.[name]?.[i])).join(' ')}`,
              )
              .join(' · '),
          },
        });
      }
      return reply.redirect(withNotice(paths.company, 'companySaved'), 303);
    };
    app.post('/company/locations', { config: { hub: 'settings:manage' } }, (request, reply) =>
      saveLocation(request, reply, null),
    );
    app.post<{ Params: { id: string } }>(
      '/company/locations/:id',
      { config: { hub: 'settings:manage' } },
      (request, reply) => saveLocation(request, reply, request.params.id),
    );
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
    paymentTermsDays: text('paymentTermsDays'),
    vatRegistered: text('vatRegistered'),
    fiscalEnabled: text('fiscalEnabled'),
    sequenceMode: text('sequenceMode'),
    zkiHash: text('zkiHash'),
    pricesIncludeTax: text('pricesIncludeTax'),
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
    // Left blank (or not in the form): unchanged.
    ...(draft.paymentTermsDays === '' ? {} : { paymentTermsDays: Number(draft.paymentTermsDays) }),
    quotationValidityDays: draft.quotationValidityDays === '' ? Number.NaN : Number(draft.quotationValidityDays),
    ...(draft.pricesIncludeTax ? { pricesIncludeTax: draft.pricesIncludeTax === 'gross' } : {}),
    fiscal: {
      enabled: draft.fiscalEnabled === 'on',
      vatRegistered: draft.vatRegistered === 'on',
      ...(draft.sequenceMode ? { sequenceMode: draft.sequenceMode } : {}),
      ...(draft.zkiHash ? { zkiHash: draft.zkiHash } : {}),
    },
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
    paymentTermsDays: String(company.paymentTermsDays),
    vatRegistered: company.fiscal.vatRegistered ? 'on' : '',
    fiscalEnabled: company.fiscal.enabled ? 'on' : '',
    sequenceMode: company.fiscal.sequenceMode,
    zkiHash: company.fiscal.zkiHash,
    pricesIncludeTax: company.pricesIncludeTax ? 'gross' : 'net',
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
  more: { locations: Location[]; locationErrors?: { id: string; text: string } } = { locations: [] },
) {
  const { t } = ctx;
  const checked = (value: string) => (value === 'on' ? html` checked` : null);
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
  ${field(view, 'paymentTermsDays', { id: 'payment-terms', label: t('hub.company.paymentTermsDays'), type: 'number', extra: html` step="1" min="0" max="365"` })}
  ${field(view, 'quotationValidityDays', { id: 'validity', label: t('hub.company.validityDays'), type: 'number', required: true, extra: html` step="1"` })}
  <fieldset>
    <legend>${t('hub.prices.legend')}</legend>
    <p><label><input type="radio" name="pricesIncludeTax" value="gross"${d.pricesIncludeTax === 'gross' ? html` checked` : null}> ${t('hub.prices.gross')}</label></p>
    <p><label><input type="radio" name="pricesIncludeTax" value="net"${d.pricesIncludeTax === 'net' ? html` checked` : null}> ${t('hub.prices.net')}</label></p>
    <p class="muted">${t('hub.prices.hint')}</p>
  </fieldset>
  <fieldset>
    <legend>${t('hub.invoice.fiscal')}</legend>
    <p><label><input type="checkbox" name="vatRegistered"${checked(d.vatRegistered)}> ${t('hub.company.vatRegistered')}</label></p>
    <p><label><input type="checkbox" name="fiscalEnabled"${checked(d.fiscalEnabled)}> ${t('hub.invoice.fiscal')}</label></p>
    ${company.fiscal.enabled ? null : html`<p class="muted">${t('hub.invoice.fiscal.not_required')}</p>`}
    <p><label for="sequence-mode">${t('hub.company.sequenceMode')}</label><br><select id="sequence-mode" name="sequenceMode">
      <option value="premises"${d.sequenceMode === 'premises' ? html` selected` : null}>${t('hub.company.sequence.premises')}</option>
      <option value="device"${d.sequenceMode === 'device' ? html` selected` : null}>${t('hub.company.sequence.device')}</option>
    </select></p>
    <p><label for="zki-hash">${t('hub.invoice.zkiHash')}</label><br><select id="zki-hash" name="zkiHash">
      <option value="sha1"${d.zkiHash !== 'sha256' ? html` selected` : null}>SHA-1 (${t('hub.invoice.zkiHash.spec')})</option>
      <option value="sha256"${d.zkiHash === 'sha256' ? html` selected` : null}>SHA-256</option>
    </select></p>
  </fieldset>
  <button type="submit">${t('action.save')}</button>
</form>
${html`<h2>${t('print.location')}</h2>
<p class="muted">${t('hub.location.hint')}</p>
<table><thead><tr><th scope="col">${t('hub.location.code')}</th><th scope="col">${t('hub.location.nameAddress')} · ${t('hub.invoice.premises')} / ${t('hub.invoice.device')}</th></tr></thead>
<tbody>${more.locations.map((l) =>
  locationRow(
    ctx,
    `${paths.company}/locations/${l.id}`,
    l.id,
    html`<th scope="row">${l.code}</th>`,
    l,
    more.locationErrors?.id === l.id ? more.locationErrors.text : null,
  ),
)}
${locationRow(ctx, `${paths.company}/locations`, 'new', html`<th scope="row"><label for="code-new" class="sr-only">${t('hub.location.code')}</label><input id="code-new" name="code" form="location-new" maxlength="10" required placeholder="${t('hub.location.code')}"></th>`, null, more.locationErrors?.id === 'new' ? more.locationErrors.text : null)}</tbody></table>`}
<dl class="facts">
  <dt>${t('hub.company.currency')}</dt><dd>${company.currency}</dd>
  <dt>${t('hub.company.timezone')}</dt><dd>${company.timezone}</dd>
</dl>
<p class="muted">${t('hub.company.fixedHint')}</p>`;
  return sendCompanyPage(reply, ctx, { title: t('hub.company.title'), body, notice, status });
}

/** One location's form in the table (or the empty one that adds a location): name, address, premises, device. */
function locationRow(
  ctx: HubContext,
  action: string,
  id: string,
  head: ReturnType<typeof html>,
  l: Location | null,
  error: string | null,
) {
  const t = ctx.t;
  return html`<tr>${head}<td>${postForm(ctx, action, html` class="row" id="location-${id}"`)}
<label for="name-${id}" class="sr-only">${t('hub.location.name')}</label><input id="name-${id}" name="name" maxlength="100" required placeholder="${t('hub.location.name')}" value="${l?.name ?? ''}">
<label for="address-${id}" class="sr-only">${t('hub.location.address')}</label><input id="address-${id}" name="address" maxlength="300" placeholder="${t('hub.location.address')}" value="${l?.address ?? ''}">
<label for="premises-${id}" class="sr-only">${t('hub.invoice.premises')}</label><input id="premises-${id}" name="fiscalPremises" maxlength="20" placeholder="${l?.code ?? t('hub.invoice.premises')}" value="${l?.fiscalPremises ?? ''}">
<label for="device-${id}" class="sr-only">${t('hub.invoice.device')}</label><input id="device-${id}" name="fiscalDevice" maxlength="20" inputmode="numeric" placeholder="1" value="${l?.fiscalDevice ?? ''}">
<button type="submit" class="secondary">${l ? t('action.save') : t('hub.location.add')}</button></form>
${error ? html`<p class="error" role="alert">${error}</p>` : null}</td></tr>`;
}
