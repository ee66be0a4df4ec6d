import type { FieldErrors } from '../../../../lib/errors.ts';
import { CUSTOMER_KINDS, type Customer, type NewCustomer } from '../../../../modules/customers/index.ts';
import { CustomerInput } from '../../../requests/customers.ts';
import { html, type Html } from '../../html.ts';
import type { HubContext } from '../../hub-context.ts';
import { field, postForm, type FormBody } from '../../form.ts';
import { otherErrors } from './desk-form.ts';
import { LANGUAGES, taxIdLabel } from '../../../../modules/i18n/index.ts';

/** The fields of a customer as a form shows them (address flattened). */
export interface CustomerFormValues {
  kind?: string;
  name?: string;
  taxId?: string | null;
  email?: string | null;
  phone?: string | null;
  street?: string;
  postalCode?: string;
  city?: string;
  country?: string;
  note?: string | null;
  endpointId?: string | null;
  endpointScheme?: string | null;
  buyerReference?: string | null;
  language?: string | null;
  paymentTermsDays?: string | null;
}

export function formValuesOf(customer: Customer): CustomerFormValues {
  return {
    kind: customer.kind,
    name: customer.name,
    taxId: customer.taxId,
    email: customer.email,
    phone: customer.phone,
    street: customer.address?.street,
    postalCode: customer.address?.postalCode,
    city: customer.address?.city,
    country: customer.address?.country,
    note: customer.note,
    endpointId: customer.electronicAddress?.id ?? null,
    endpointScheme: customer.electronicAddress?.scheme ?? null,
    buyerReference: customer.buyerReference,
    language: customer.language,
    paymentTermsDays: customer.paymentTermsDays === null ? null : String(customer.paymentTermsDays),
  };
}

/**
 * The posted form as the admin API's customer body (`CustomerInput`, which checks it): a blank
 * optional field is null (cleared), the address present when any of its fields is.
 */
export function customerBody(f: FormBody): NewCustomer {
  const hasAddress =
    f.street !== undefined || f.postalCode !== undefined || f.city !== undefined || f.country !== undefined;
  return {
    kind: (f.kind ?? 'person') as NewCustomer['kind'],
    name: f.name ?? '',
    taxId: f.taxId ?? null,
    email: f.email ?? null,
    phone: f.phone ?? null,
    address: hasAddress
      ? { street: f.street ?? '', postalCode: f.postalCode ?? '', city: f.city ?? '', country: f.country ?? '' }
      : null,
    note: f.note ?? null,
    // A blank address leaves the default (a Croatian business's OIB); a scheme alone is ignored.
    electronicAddress: f.endpointId ? { id: f.endpointId, scheme: f.endpointScheme ?? '' } : null,
    buyerReference: f.buyerReference ?? null,
    // The empty choice is the company's language.
    language: f.language || null,
    // Empty: the company's terms; anything not a whole number of days is named by the service.
    paymentTermsDays: f.paymentTermsDays ? Number(f.paymentTermsDays) : null,
  };
}

const SHOWN = [
  'kind',
  'name',
  'taxId',
  'email',
  'phone',
  'address',
  'address.street',
  'address.postalCode',
  'address.city',
  'address.country',
  'note',
  'electronicAddress',
  'electronicAddress.id',
  'electronicAddress.scheme',
  'buyerReference',
  'language',
  'paymentTermsDays',
];

/**
 * The customer form, for creating, editing, or creating from a document's placeholder (the
 * service then names fields `newCustomer.…`: `prefix` shows those errors at the same inputs).
 */
export function customerForm(
  ctx: HubContext,
  o: {
    action: string;
    values: CustomerFormValues;
    errors?: FieldErrors;
    submit: string;
    idPrefix: string;
    prefix?: string;
  },
): Html {
  const { t } = ctx;
  const e = o.errors;
  const view = {
    id: o.idPrefix,
    schema: CustomerInput,
    values: { kind: 'person', ...o.values },
    state: e ? { values: {}, errors: e } : undefined,
  };
  // The service names a placeholder's new customer `newCustomer.…`: those messages show at the same inputs.
  const at = (path: string) => ({ path, alsoErrors: o.prefix ? [`${o.prefix}${path}`] : [] });
  return html`${postForm(ctx, o.action, html` class="stack" novalidate`)}
${e ? html`<p class="error" role="alert">${t('hub.form.fixErrors')}</p>` : null}
${field(view, 'kind', { label: t('hub.desk.customer.kind'), control: 'select', options: CUSTOMER_KINDS.map((k) => ({ value: k, label: t(`customer.kind.${k}`) })) })}
${field(view, 'name', { ...at('name'), label: t('hub.desk.customer.name') })}
${field(view, 'taxId', { ...at('taxId'), label: t(taxIdLabel(o.values.country || ctx.user.companyCountry)) })}
${field(view, 'email', { ...at('email'), label: t('print.email'), type: 'email', autocomplete: 'off' })}
${field(view, 'phone', { ...at('phone'), label: t('print.phone'), type: 'tel', autocomplete: 'off' })}
<fieldset class="stack">
  <legend>${t('print.address')}</legend>
  ${field(view, 'street', { ...at('address.street'), alsoErrors: ['address', ...at('address.street').alsoErrors], label: t('hub.desk.customer.street') })}
  ${field(view, 'postalCode', { ...at('address.postalCode'), label: t('hub.desk.customer.postalCode') })}
  ${field(view, 'city', { ...at('address.city'), label: t('hub.desk.customer.city') })}
  ${field(view, 'country', { ...at('address.country'), label: t('hub.desk.customer.country') })}
</fieldset>
<fieldset>
  <legend>${t('hub.desk.customer.einvoice')}</legend>
  ${field(view, 'endpointId', { ...at('electronicAddress.id'), alsoErrors: ['electronicAddress', ...at('electronicAddress.id').alsoErrors], label: t('hub.desk.customer.endpointId') })}
  ${field(view, 'endpointScheme', { ...at('electronicAddress.scheme'), label: t('hub.desk.customer.endpointScheme') })}
  ${field(view, 'buyerReference', { ...at('buyerReference'), label: t('hub.desk.customer.buyerReference') })}
</fieldset>
${field(view, 'paymentTermsDays', { ...at('paymentTermsDays'), label: t('hub.desk.customer.paymentTermsDays'), type: 'number', extra: html` step="1" min="0" max="365"` })}
${field(view, 'language', {
  ...at('language'),
  label: t('hub.desk.customer.language'),
  control: 'select',
  options: [
    { value: '', label: t('hub.desk.customer.languageCompany') },
    ...LANGUAGES.map((l) => ({ value: l, label: t(`hub.account.language.${l}`) })),
  ],
})}
${field(view, 'note', { ...at('note'), label: t('print.note'), control: 'textarea' })}
${otherErrors(e, [...SHOWN, ...SHOWN.map((s) => `${o.prefix ?? ''}${s}`)])}
<p><button type="submit">${o.submit}</button></p>
</form>`;
}
