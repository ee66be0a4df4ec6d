import type { FastifyReply } from 'fastify';
import type { ErrorObject } from 'ajv';
import { Type, type Static, type TSchema } from 'typebox';
import { AppError, addFieldError, fieldErrors, type FieldErrors } from '../../lib/errors.ts';
import { validationDetails } from '../errors.ts';
import { buildValidator } from '../validation.ts';
import type { HubMessageArgs, HubMessageKey, HubTranslate } from './texts/index.ts';
import { html, type Html } from './html.ts';
import type { HubContext } from './hub-context.ts';
import { page, postForm } from './layout.ts';

/**
 * What every hub page does with a form: read what was posted (or asked in the query) without
 * trusting its shape, check it with the admin API's schema for the same body and run the
 * service (`submit`), show each field with its label, what was typed and its message beside
 * it (`field`), open a form with its CSRF field (`postForm`), read a redirect's notice, and
 * send the page.
 */

export type { FieldErrors };
export { postForm };

// ---- Reading input: a body or query is unknown, and a repeated field arrives as an array.

/**
 * A posted field's value as text exactly as typed (passwords are not trimmed); '' when absent,
 * and when repeated (an array), so the form's own validation names the field rather than
 * one of two values being picked for the user.
 */
export function textOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/**
 * A hub route's parts as Fastify types them: the path parameters the router matched, and a
 * query of text by name whose shape is not trusted (read with the helpers below).
 */
export interface Route<P extends Record<string, string> = Record<never, string>> {
  Params: P;
  Querystring: Readonly<Record<string, unknown>>;
}
export type IdRoute = Route<{ id: string }>;

/** A field posted any number of times (checkboxes, a multiple select) as its texts; [] when absent. */
export function bodyList(body: unknown, name: string): string[] {
  const value = body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
  return [value ?? []].flat().filter((v): v is string => typeof v === 'string');
}

/** The named field of a posted body (or query) as text, '' when absent. */
export function bodyText(body: unknown, name: string): string {
  return body && typeof body === 'object' ? textOf((body as Record<string, unknown>)[name]) : '';
}

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

/** A query-string value as text: the first when repeated, trimmed, bounded; absent when blank. */
export function queryText(value: unknown, max = 200): string | undefined {
  const trimmed = textOf(Array.isArray(value) ? value[0] : value)
    .trim()
    .slice(0, max);
  return trimmed === '' ? undefined : trimmed;
}

/** One of the allowed values, or absent (an unknown filter value shows everything, as no filter). */
export function queryChoice<T extends string>(value: unknown, allowed: readonly T[]): T | undefined {
  const text = queryText(value, 40);
  return text !== undefined && (allowed as readonly string[]).includes(text) ? (text as T) : undefined;
}

// ---- Notices: `?notice=<key>` after a redirect names one of the page's own; anything else is
// ignored, so a link cannot put words on the page.

/** A message without placeholders: what a notice can be. */
export type NoticeKey = { [K in HubMessageKey]: HubMessageArgs<K> extends [] ? K : never }[HubMessageKey];

export function noticeOf(ctx: HubContext, query: unknown, notices: Readonly<Record<string, NoticeKey>>): string | null {
  const key = queryText((query as Record<string, unknown> | undefined)?.notice, 40);
  return key !== undefined && Object.hasOwn(notices, key) ? ctx.t(notices[key]! as NoticeKey) : null;
}

// ---- Validation failures as messages by field.

/**
 * The field errors of a refusal the user can fix (a validation failure with details, and any
 * of `codes` that carries details), or the error thrown on to the hub's error page. With
 * `unnamed`, a validation failure naming no field comes back under `_`.
 */
export function fieldErrorsOf(
  error: unknown,
  options: { codes?: readonly string[]; unnamed?: boolean } = {},
): FieldErrors {
  if (error instanceof AppError) {
    if ((error.code === 'validation_failed' || options.codes?.includes(error.code)) && error.details)
      return error.details;
    if (options.unnamed && error.code === 'validation_failed') return { _: [error.message] };
  }
  throw error;
}

/**
 * The messages at any of these paths (a field can show the service's nested path too, e.g.
 * `address.city` or `newCustomer.taxId`), in order.
 */
export function messagesAt(errors: FieldErrors | undefined, paths: readonly string[]): string[] {
  return paths.flatMap((path) => errors?.[path] ?? []);
}

// ---- Fields: a label, the control, and its message tied to it (aria-describedby, aria-invalid).

/**
 * The attributes and the message of a field with errors (none without). The message is a
 * paragraph, or a span where it sits inline after the control.
 */
export function fieldError(
  id: string,
  messages: readonly string[] | undefined,
  element: 'p' | 'span' = 'p',
): { attrs: Html | null; note: Html | null } {
  if (!messages?.length) return { attrs: null, note: null };
  const text = messages.join(' ');
  return {
    attrs: html` aria-invalid="true" aria-describedby="${id}-error"`,
    note:
      element === 'p'
        ? html`<p class="field-error" id="${id}-error">${text}</p>`
        : html`<span class="field-error" id="${id}-error">${text}</span>`,
  };
}

export interface FieldOptions {
  id: string;
  name: string;
  label: string;
  value?: string | number | null;
  type?: string;
  required?: boolean;
  autocomplete?: string;
  inputmode?: string;
  maxlength?: number;
  /** Extra attributes we write ourselves (minlength…), never user text. */
  extra?: Html;
  errors?: readonly string[];
  /** How the message is set (see `fieldError`). */
  note?: 'p' | 'span';
}

function common(o: FieldOptions): Html {
  return html`${o.required ? html` required` : null}${o.autocomplete ? html` autocomplete="${o.autocomplete}"` : null}${o.inputmode ? html` inputmode="${o.inputmode}"` : null}${o.maxlength ? html` maxlength="${o.maxlength}"` : null}${o.extra ?? null}`;
}

/** A labelled input with its error message next to it. */
export function input(o: FieldOptions): Html {
  const e = fieldError(o.id, o.errors, o.note);
  return html`<label for="${o.id}">${o.label}</label>
<input id="${o.id}" name="${o.name}" type="${o.type ?? 'text'}"${o.value !== undefined && o.value !== null ? html` value="${String(o.value)}"` : null}${common(o)}${e.attrs}>
${e.note}`;
}

export function textarea(o: FieldOptions): Html {
  const e = fieldError(o.id, o.errors, o.note);
  return html`<label for="${o.id}">${o.label}</label>
<textarea id="${o.id}" name="${o.name}"${common(o)}${e.attrs}>${o.value ?? ''}</textarea>
${e.note}`;
}

export interface Choice {
  value: string;
  label: string;
}

export function select(o: FieldOptions & { options: readonly Choice[] }): Html {
  const e = fieldError(o.id, o.errors, o.note);
  const value = o.value ?? '';
  return html`<label for="${o.id}">${o.label}</label>
<select id="${o.id}" name="${o.name}"${o.required ? html` required` : null}${e.attrs}>
${o.options.map((opt) => html`<option value="${opt.value}"${opt.value === value ? html` selected` : null}>${opt.label}</option>`)}
</select>
${e.note}`;
}

// ---- The reply.

export interface SendOptions {
  title: string;
  body: Html;
  notice?: string | null;
  status?: number;
}

/** The whole page (layout.ts) as the reply. */
export function sendPage(reply: FastifyReply, ctx: HubContext, options: SendOptions): FastifyReply {
  return reply
    .status(options.status ?? 200)
    .type('text/html; charset=utf-8')
    .send(page(ctx, { title: options.title, body: options.body, notice: options.notice ?? null }).value);
}

// ---- Submitting: the admin API's schema checks the form, the service decides the rest.

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
    if (error.details && (error.code === 'validation_failed' || options.fieldCodes?.includes(error.code)))
      return refused(error.details, 400);
    if ((options.refusals ?? Object.keys(STATUS)).includes(error.code))
      return refused(fieldErrors(), STATUS[error.code] ?? 400, error.message);
    throw error;
  }
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
export function check(schema: TSchema, value: unknown, t: HubTranslate): FieldErrors | null {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = buildValidator({})({ schema, httpPart: 'body', method: 'POST', url: '/' }) as NonNullable<
      typeof validate
    >;
    compiled.set(schema, validate);
  }
  if (validate(value)) return null;
  const errors = validate.errors ?? [];
  const details = validationDetails(errors, 'body').details;
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

// ---- One field of a form: label, control, the value typed (or stored), its message.

/** A form as its fields are drawn: its schema (limits), the refused state, the stored values. */
export interface FormView {
  /** Field ids are `${id}-${name}` unless a field gives its own. */
  id: string;
  /** The body's schema: a field is `required` and has a `maxlength` as the schema says. */
  schema?: TSchema;
  state?: FormState;
  /** The values a fresh form shows (the record being edited); a field shows its text or number. */
  values?: object;
  /** How messages are set (see `fieldError`). */
  note?: 'p' | 'span';
}

export interface FieldSpec extends Partial<Omit<FieldOptions, 'name' | 'label' | 'value' | 'errors'>> {
  label: string;
  control?: 'input' | 'textarea' | 'select';
  options?: readonly Choice[];
  /** Where the field sits in the schema and in the refusal's details, when not its name (`address.city`). */
  path?: string;
  /** Further paths whose messages this field shows (a service's nested name). */
  alsoErrors?: readonly string[];
}

/** The schema of a property at a dotted path, through Optional and Nullable. */
function propertyAt(schema: TSchema | undefined, path: string): { schema?: TSchema; required: boolean } {
  let node: TSchema | undefined = schema;
  let required = true;
  for (const key of path.split('.')) {
    node = objectOf(node);
    if (!node) return { required: false };
    required = required && ((node as { required?: string[] }).required ?? []).includes(key);
    node = (node as { properties?: Record<string, TSchema> }).properties?.[key];
  }
  return { schema: node, required: required && node !== undefined };
}

function objectOf(node: TSchema | undefined): TSchema | undefined {
  if (!node) return undefined;
  if ((node as { properties?: unknown }).properties) return node;
  const branches = (node as { anyOf?: TSchema[] }).anyOf;
  return branches?.find((b) => (b as { properties?: unknown }).properties);
}

function maxLengthOf(node: TSchema | undefined): number | undefined {
  if (!node) return undefined;
  const own = (node as { maxLength?: number }).maxLength;
  if (own !== undefined) return own;
  return (node as { anyOf?: TSchema[] }).anyOf?.map(maxLengthOf).find((m) => m !== undefined);
}

/** A number's bounds as the schema gives them (through Optional and Nullable), as min and max. */
function rangeOf(node: TSchema | undefined): Html | null {
  if (!node) return null;
  const { minimum, maximum } = node as { minimum?: number; maximum?: number };
  if (minimum !== undefined || maximum !== undefined)
    return html`${minimum === undefined ? null : html` min="${minimum}"`}${maximum === undefined ? null : html` max="${maximum}"`}`;
  return (node as { anyOf?: TSchema[] }).anyOf?.map(rangeOf).find((r) => r !== null) ?? null;
}

const storedText = (value: unknown): string | number =>
  typeof value === 'string' || typeof value === 'number' ? value : '';

/** The `maxLength` the schema gives the property at a dotted path (through Optional and Nullable). */
export function maxLengthAt(schema: TSchema, path: string): number | undefined {
  return maxLengthOf(propertyAt(schema, path).schema);
}

/**
 * A labelled field of `view`: after a refusal what was typed and its message, otherwise the
 * stored value; required and bounded as the schema says, unless the spec says otherwise.
 */
export function field(view: FormView, name: string, spec: FieldSpec): Html {
  const path = spec.path ?? name;
  const prop = propertyAt(view.schema, path);
  const { state } = view;
  const posted = state && Object.hasOwn(state.values, name);
  const options: FieldOptions = {
    ...spec,
    id: spec.id ?? `${view.id}-${name}`,
    name,
    value: posted ? state.values[name] : storedText((view.values as Record<string, unknown> | undefined)?.[name]),
    required: spec.required ?? (view.schema ? prop.required : undefined),
    maxlength: spec.maxlength ?? maxLengthOf(prop.schema),
    extra: html`${rangeOf(prop.schema)}${spec.extra ?? null}`,
    errors: messagesAt(state?.errors, [path, ...(spec.alsoErrors ?? [])]),
    note: spec.note ?? view.note,
  };
  // A select is marked required only when the page says so: it always has a value chosen.
  if (spec.control === 'select') return select({ ...options, required: spec.required, options: spec.options ?? [] });
  return spec.control === 'textarea' ? textarea(options) : input(options);
}
