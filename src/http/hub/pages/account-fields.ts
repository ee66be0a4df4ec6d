import type { FieldErrors } from '../../../lib/errors.ts';
import { AppError } from '../../../lib/errors.ts';
import { html, type Html } from '../html.ts';

/** A form's field errors by field name (the service's `details`), or none. */
export type Errors = FieldErrors | undefined;

/** The field errors of a validation failure, or the error itself thrown on. */
export function validationDetails(error: unknown): FieldErrors {
  if (error instanceof AppError && error.code === 'validation_failed' && error.details) return error.details;
  throw error;
}

function described(id: string, messages: string[] | undefined): { attrs: Html | null; note: Html | null } {
  if (!messages?.length) return { attrs: null, note: null };
  return {
    attrs: html` aria-invalid="true" aria-describedby="${id}-error"`,
    note: html`<p class="field-error" id="${id}-error">${messages.join(' ')}</p>`,
  };
}

export interface InputOptions {
  id: string;
  name: string;
  label: string;
  value?: string | number | null;
  type?: string;
  autocomplete?: string;
  required?: boolean;
  /** Extra attributes we write ourselves (minlength, maxlength…), never user text. */
  extra?: Html;
  errors?: string[];
}

/** A labelled input with its error message next to it (aria-describedby, aria-invalid). */
export function input(o: InputOptions): Html {
  const e = described(o.id, o.errors);
  return html`<label for="${o.id}">${o.label}</label>
<input id="${o.id}" name="${o.name}" type="${o.type ?? 'text'}"${o.value !== undefined && o.value !== null ? html` value="${String(o.value)}"` : null}${o.autocomplete ? html` autocomplete="${o.autocomplete}"` : null}${o.required ? html` required` : null}${o.extra ?? null}${e.attrs}>
${e.note}`;
}

export function select(o: { id: string; name: string; label: string; value: string; options: Array<{ value: string; label: string }>; errors?: string[] }): Html {
  const e = described(o.id, o.errors);
  return html`<label for="${o.id}">${o.label}</label>
<select id="${o.id}" name="${o.name}"${e.attrs}>
${o.options.map((opt) => html`<option value="${opt.value}"${opt.value === o.value ? html` selected` : null}>${opt.label}</option>`)}
</select>
${e.note}`;
}
