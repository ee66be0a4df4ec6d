import type { ErrorObject } from 'ajv';
import { Type, type Static, type TSchema } from 'typebox';
import { AppError, addFieldError, fieldErrors, type FieldErrors } from '../../lib/errors.ts';
import { validationDetails } from '../errors.ts';
import { buildValidator } from '../validation.ts';
import { sayMessage, type HubTranslate } from './texts/index.ts';
import { html, type Html } from './html.ts';
import { formFields, type FormBody } from './form-input.ts';

/** Submitting: the admin API's schema checks the form, the service decides the rest. */

/** What a form shows again after a refusal: what was typed, each field's messages, or one message. */
export interface FormState {
  /** Which form was posted, where a page has several (see `stateOf`). */
  form?: string;
  /** The posted fields as typed (trimmed; blanks kept, so a cleared field stays clear). */
  values: Record<string, string>;
  errors: FieldErrors;
  /** A refusal that names no field (a conflict: the category still has products). */
  message?: string;
}

export type Submitted<R> = { ok: true; result: R } | { ok: false; state: FormState; status: number };

export interface SubmitOptions {
  /** Which form this is, where a page has several. */
  form?: string;
  /**
   * The posted fields (trimmed, blanks left out) as the schema's body: a blank optional field
   * as null, a decimal comma as a point, rows gathered into a list. Without it, the fields as they are.
   */
  read?: (fields: FormBody, body: unknown) => unknown;
  /** Refusals besides a validation failure whose details name fields (a tax id already used). */
  fieldCodes?: readonly string[];
  /**
   * The refusals naming no field that the form answers with their message (the rest go to the
   * hub's error page): by default a failed validation, a conflict and too large an upload.
   */
  refusals?: readonly string[];
}

/** The body of a form that posts nothing but its token (delete, deactivate): any fields are ignored. */
export const NoFields = Type.Object({});

/** What a form posts when only its token matters: nothing to check. */
const nothing = () => ({});

const STATUS: Readonly<Record<string, number>> = {
  validation_failed: 400,
  conflict: 409,
  payload_too_large: 413,
};

/**
 * Checks a posted form with `schema` (the same constant the admin API validates that body with,
 * so the same limits and messages) and runs `work` with the typed body. A failure the user can
 * fix (the check, a service's validation failure or conflict) comes back as the state to render
 * the form again with; anything else is thrown on to the hub's error page.
 */
export async function submit<S extends TSchema, R>(
  schema: S,
  request: { body: unknown; hub: { t: HubTranslate } },
  work: (input: Static<S>) => Promise<R>,
  options: SubmitOptions = {},
): Promise<Submitted<R>> {
  const values = typedValues(request.body);
  const refused = (errors: FieldErrors, status: number, message?: string): Submitted<R> => ({
    ok: false,
    state: { form: options.form, values, errors, ...(message === undefined ? {} : { message }) },
    status,
  });
  const input = (options.read ?? ((schema as TSchema) === NoFields ? nothing : (f: FormBody) => f))(
    formFields(request.body),
    request.body,
  );
  const invalid = check(schema, input, request.hub.t);
  if (invalid) return refused(invalid, 400);
  try {
    return { ok: true, result: await work(input as Static<S>) };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const t = request.hub.t;
    if (error.details && (error.code === 'validation_failed' || options.fieldCodes?.includes(error.code)))
      return refused(spokenDetails(error, t), 400);
    if ((options.refusals ?? Object.keys(STATUS)).includes(error.code))
      return refused(fieldErrors(), STATUS[error.code] ?? 400, spokenMessage(error, t));
    throw error;
  }
}

/** A refusal's field messages in the reader's language, where the service said them by key. */
export function spokenDetails(error: AppError, t: HubTranslate): FieldErrors {
  // The same kind of map as the service's (prototype-free or not), each field defined, never assigned.
  const details = error.details ?? fieldErrors();
  const out = Object.create(Object.getPrototypeOf(details)) as FieldErrors;
  for (const [path, list] of Object.entries(details))
    Object.defineProperty(out, path, {
      value: list.map((text, i) => sayMessage(t, text, error.detailKeys?.[path]?.[i])),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return out;
}

/** A refusal's own message in the reader's language, where the service said it by key. */
export function spokenMessage(error: AppError, t: HubTranslate): string {
  return sayMessage(t, error.message, error.messageKey);
}

/** The posted fields as typed, trimmed, for showing again; the CSRF token left out. */
function typedValues(body: unknown): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  if (!body || typeof body !== 'object') return out;
  for (const [key, value] of Object.entries(body)) {
    const text = Array.isArray(value) ? value[0] : value;
    if (key !== '_csrf' && typeof text === 'string') out[key] = text.trim();
  }
  return out;
}

const compiled = new WeakMap<TSchema, ((data: unknown) => boolean) & { errors?: ErrorObject[] | null }>();

/**
 * The schema's refusals by field, as the admin API words them; the two a person meets most
 * (a required field left empty, too long a text) in their own language. Null when it passes.
 */
function check(schema: TSchema, value: unknown, t: HubTranslate): FieldErrors | null {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = buildValidator({})({ schema, httpPart: 'body', method: 'POST', url: '/' }) as NonNullable<
      typeof validate
    >;
    compiled.set(schema, validate);
  }
  if (validate(value)) return null;
  const errors = validate.errors ?? [];
  // The admin API's words, in the reader's language where the catalog has them.
  const details = spokenDetails(AppError.invalid(validationDetails(errors, 'body').details), t);
  for (const error of errors) {
    const said = spoken(error, t);
    if (said === null) continue;
    for (const path of Object.keys(validationDetails([error], 'body').details)) {
      delete details[path];
      addFieldError(details, path, said);
    }
  }
  return details;
}

function spoken(error: ErrorObject, t: HubTranslate): string | null {
  const limit = (error.params as { limit?: number }).limit;
  if (error.keyword === 'required' || (error.keyword === 'minLength' && limit === 1)) return t('hub.form.required');
  if (error.keyword === 'maxLength' && limit !== undefined) return t('hub.form.tooLong', { max: limit });
  return null;
}

/** The state of this form only; another form on the same page renders fresh. */
export function stateOf(state: FormState | undefined, form: string): FormState | undefined {
  return state?.form === form ? state : undefined;
}

/** The form-level line above a refused form: "correct the fields" or the refusal's own words. */
export function formError(t: HubTranslate, state: FormState | undefined): Html | null {
  if (!state) return null;
  return html`<p class="error" role="alert">${state.message ?? t('hub.form.fixErrors')}</p>`;
}
