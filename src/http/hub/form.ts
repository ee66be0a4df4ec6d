import type { FastifyReply } from 'fastify';
import { AppError, type FieldErrors } from '../../lib/errors.ts';
import type { HubMessageArgs, HubMessageKey } from './texts/index.ts';
import { html, type Html } from './html.ts';
import type { HubContext } from './hub-context.ts';
import { page } from './layout.ts';

/**
 * What every hub page does with a form: read what was posted (or asked in the query) without
 * trusting its shape, turn a service's validation failure into messages by field, show each
 * field with its label and its message beside it, read a redirect's notice, and send the page.
 */

export type { FieldErrors };

// ---- Reading input: a body or query is unknown, and a repeated field arrives as an array.

/**
 * A posted field's value as text exactly as typed (passwords are not trimmed); '' when absent,
 * and when repeated (an array), so the form's own validation names the field rather than
 * one of two values being picked for the user.
 */
export function textOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
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
<select id="${o.id}" name="${o.name}"${e.attrs}>
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
