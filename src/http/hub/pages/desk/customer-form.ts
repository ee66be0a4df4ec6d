import type { FieldErrors } from '../../../../lib/errors.ts';
import { CUSTOMER_KINDS, type Customer, type NewCustomer } from '../../../../modules/customers/index.ts';
import { CustomerInput } from '../../../requests/customers.ts';
import { html, type Html } from '../../html.ts';
import type { HubContext } from '../../hub-context.ts';
import { csrfField } from '../../layout.ts';
import { input, messagesAt, select, type FormBody } from '../../form.ts';
import { checkBody, otherErrors } from './desk-form.ts';

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
  };
}

/**
 * The posted form as the admin API's customer body: a blank optional field is null (cleared),
 * the address present when any of its fields is. Checked by the same schema as that body.
 */
export function customerInput(f: FormBody): NewCustomer {
  const hasAddress =
    f.street !== undefined || f.postalCode !== undefined || f.city !== undefined || f.country !== undefined;
  const input = {
    kind: f.kind ?? 'person',
    name: f.name ?? '',
    taxId: f.taxId ?? null,
    email: f.email ?? null,
    phone: f.phone ?? null,
    address: hasAddress
      ? { street: f.street ?? '', postalCode: f.postalCode ?? '', city: f.city ?? '', country: f.country ?? '' }
      : null,
    note: f.note ?? null,
  };
  return checkBody<NewCustomer>(CustomerInput, input);
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
  const id = (name: string) => `${o.idPrefix}-${name}`;
  const paths = (name: string) => [name, `${o.prefix ?? ''}${name}`];
  const v = o.values;
  return html`<form method="post" action="${o.action}" class="stack" novalidate>
${csrfField(ctx)}
${e ? html`<p class="error" role="alert">${t('hub.form.fixErrors')}</p>` : null}
${select({ id: id('kind'), name: 'kind', label: t('hub.desk.customer.kind'), value: v.kind ?? 'person', errors: e?.kind, options: CUSTOMER_KINDS.map((k) => ({ value: k, label: t(`customer.kind.${k}`) })) })}
${input({ id: id('name'), name: 'name', label: t('hub.desk.customer.name'), value: v.name, required: true, errors: messagesAt(e, paths('name')) })}
${input({ id: id('taxId'), name: 'taxId', label: t('print.taxId'), value: v.taxId, errors: messagesAt(e, paths('taxId')) })}
${input({ id: id('email'), name: 'email', label: t('print.email'), value: v.email, type: 'email', autocomplete: 'off', errors: messagesAt(e, paths('email')) })}
${input({ id: id('phone'), name: 'phone', label: t('print.phone'), value: v.phone, type: 'tel', autocomplete: 'off', errors: messagesAt(e, paths('phone')) })}
<fieldset class="stack">
  <legend>${t('print.address')}</legend>
  ${input({ id: id('street'), name: 'street', label: t('hub.desk.customer.street'), value: v.street, errors: messagesAt(e, ['address', ...paths('address.street')]) })}
  ${input({ id: id('postalCode'), name: 'postalCode', label: t('hub.desk.customer.postalCode'), value: v.postalCode, errors: messagesAt(e, paths('address.postalCode')) })}
  ${input({ id: id('city'), name: 'city', label: t('hub.desk.customer.city'), value: v.city, errors: messagesAt(e, paths('address.city')) })}
  ${input({ id: id('country'), name: 'country', label: t('hub.desk.customer.country'), value: v.country, errors: messagesAt(e, paths('address.country')) })}
</fieldset>
<label for="${id('note')}">${t('print.note')}</label>
<textarea id="${id('note')}" name="note">${v.note ?? ''}</textarea>
${otherErrors(e, [...SHOWN, ...SHOWN.map((s) => `${o.prefix ?? ''}${s}`)])}
<p><button type="submit">${o.submit}</button></p>
</form>`;
}
