import type { TSchema } from 'typebox';
import type { ErrorObject } from 'ajv';
import { AppError, type FieldErrors } from '../../../../lib/errors.ts';
import { validationDetails } from '../../../errors.ts';
import { buildValidator } from '../../../validation.ts';
import { html, type Html } from '../../html.ts';
import { paths } from '../../paths.ts';

/**
 * Forms of the sales desk: a posted form (form.ts `formFields`) is checked by the same validator
 * (and so the same messages) as the admin API's JSON bodies.
 */

const compiled = new WeakMap<TSchema, (data: unknown) => boolean>();

/** Checks `value` against a body schema; a failure is the AppError a service would throw, with details. */
export function checkBody<T>(schema: TSchema, value: unknown): T {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = buildValidator({})({ schema, httpPart: 'body', method: 'POST', url: paths.today }) as (
      data: unknown,
    ) => boolean;
    compiled.set(schema, validate);
  }
  if (!validate(value)) {
    const errors = (validate as unknown as { errors?: ErrorObject[] }).errors ?? [];
    throw AppError.invalid(validationDetails(errors, 'body').details);
  }
  return value as T;
}

/** Errors not tied to a field shown (a path the form has no input for), so none is lost. */
export function otherErrors(errors: FieldErrors | undefined, shown: readonly string[]): Html | null {
  if (!errors) return null;
  const rest = Object.entries(errors).filter(([path]) => !shown.includes(path));
  return rest.length === 0
    ? null
    : html`<ul class="error">${rest.map(([path, list]) => html`<li><code>${path}</code>: ${list.join(' ')}</li>`)}</ul>`;
}
