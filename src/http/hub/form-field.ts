import type { TSchema } from 'typebox';
import type { FieldErrors } from '../../lib/errors.ts';
import { html, type Html } from './html.ts';
import type { FormState } from './form-submit.ts';

/**
 * A form's fields: a label, the control, what was typed (or is stored) and its message tied to it;
 * `field` takes `required` and `maxlength` from the body's schema.
 */

// ---- Messages by field.

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
