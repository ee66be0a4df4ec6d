import type { TSchema } from 'typebox';
import type { ErrorObject } from 'ajv';
import { AppError, type FieldErrors } from '../../../../lib/errors.ts';
import { validationDetails } from '../../../errors.ts';
import { buildValidator } from '../../../validation.ts';
import { html, type Html } from '../../html.ts';

/**
 * Forms of the sales desk: a posted form is text fields, trimmed, blanks left out; it is
 * checked by the same validator (and so the same messages) as the admin API's JSON bodies,
 * and a validation error is shown next to its field.
 */

export type FormBody = Record<string, string>;

/** The posted fields as trimmed text, the CSRF token and blanks left out. */
export function formFields(body: unknown): FormBody {
  const out: FormBody = Object.create(null) as FormBody;
  if (!body || typeof body !== 'object') return out;
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    const text = Array.isArray(value) ? value[0] : value;
    if (key === '_csrf' || typeof text !== 'string') continue;
    const trimmed = text.trim();
    if (trimmed !== '') out[key] = trimmed;
  }
  return out;
}

const compiled = new WeakMap<TSchema, (data: unknown) => boolean>();

/** Checks `value` against a body schema; a failure is the AppError a service would throw, with details. */
export function checkBody<T>(schema: TSchema, value: unknown): T {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = buildValidator({})({ schema, httpPart: 'body', method: 'POST', url: '/hub' }) as (data: unknown) => boolean;
    compiled.set(schema, validate);
  }
  if (!validate(value)) {
    const errors = (validate as unknown as { errors?: ErrorObject[] }).errors ?? [];
    throw AppError.invalid(validationDetails(errors, 'body').details);
  }
  return value as T;
}

/** The field errors of a validation failure (to re-render the form), or the error again. */
export function fieldErrorsOf(error: unknown): FieldErrors {
  if (error instanceof AppError && (error.code === 'validation_failed' || error.code === 'conflict') && error.details) return error.details;
  throw error;
}

export interface FieldOptions {
  id: string;
  name: string;
  label: string;
  value?: string | null;
  type?: string;
  required?: boolean;
  autocomplete?: string;
  /** The error paths shown at this field (the service's path, e.g. `address.city` or `newCustomer.taxId`). */
  paths?: readonly string[];
  errors?: FieldErrors;
  inputmode?: string;
}

/** A labelled input, its errors beside it (aria-describedby, aria-invalid). */
export function field(o: FieldOptions): Html {
  const messages = (o.paths ?? [o.name]).flatMap((path) => o.errors?.[path] ?? []);
  const errorId = `${o.id}-error`;
  return html`<label for="${o.id}">${o.label}</label>
<input id="${o.id}" name="${o.name}" type="${o.type ?? 'text'}" value="${o.value ?? ''}"${o.required ? html` required` : null}${o.autocomplete ? html` autocomplete="${o.autocomplete}"` : null}${o.inputmode ? html` inputmode="${o.inputmode}"` : null}${messages.length > 0 ? html` aria-invalid="true" aria-describedby="${errorId}"` : null}>
${messages.length > 0 ? html`<p class="field-error" id="${errorId}">${messages.join(' ')}</p>` : null}`;
}

/** A labelled select of fixed choices. */
export function select(o: { id: string; name: string; label: string; value?: string; choices: ReadonlyArray<{ value: string; label: string }>; errors?: FieldErrors }): Html {
  const messages = o.errors?.[o.name] ?? [];
  const errorId = `${o.id}-error`;
  return html`<label for="${o.id}">${o.label}</label>
<select id="${o.id}" name="${o.name}"${messages.length > 0 ? html` aria-invalid="true" aria-describedby="${errorId}"` : null}>
${o.choices.map((c) => html`<option value="${c.value}"${c.value === o.value ? html` selected` : null}>${c.label}</option>`)}
</select>
${messages.length > 0 ? html`<p class="field-error" id="${errorId}">${messages.join(' ')}</p>` : null}`;
}

/** Errors not tied to a field shown (a path the form has no input for), so none is lost. */
export function otherErrors(errors: FieldErrors | undefined, shown: readonly string[]): Html | null {
  if (!errors) return null;
  const rest = Object.entries(errors).filter(([path]) => !shown.includes(path));
  return rest.length === 0 ? null : html`<ul class="error">${rest.map(([path, list]) => html`<li><code>${path}</code>: ${list.join(' ')}</li>`)}</ul>`;
}
