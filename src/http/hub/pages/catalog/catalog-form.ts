import type { FastifyReply } from 'fastify';
import { AppError, addFieldError, fieldErrors, type FieldErrors } from '../../../../lib/errors.ts';
import type { HubTranslate } from '../../texts/index.ts';
import { html, type Html } from '../../html.ts';
import type { HubContext } from '../../hub-context.ts';
import {
  input,
  select as sharedSelect,
  sendPage,
  textarea as sharedTextarea,
  type Choice,
  type FieldOptions as SharedField,
  type NoticeKey,
} from '../../form.ts';
import { paths } from '../../paths.ts';

/**
 * What a catalog form shows again after a refusal: which form (several share a page), what was
 * typed, and each field's message. A page renders its forms from this, so a 400 keeps the input.
 */
export interface FormState {
  form: string;
  values: Record<string, string>;
  errors: FieldErrors;
  /** A refusal that names no field (a conflict: the category still has products). */
  message?: string;
}

export type Body = Record<string, unknown>;

/**
 * The shape the admin API's schema gives (required, bounded text) checked on the form's
 * strings, so a bad field is named on the page; the service still decides everything else.
 */
export function checkText(
  t: HubTranslate,
  values: Record<string, string>,
  rules: Record<string, { max: number; required?: boolean }>,
): void {
  const details = fieldErrors();
  for (const [name, rule] of Object.entries(rules)) {
    const value = values[name] ?? '';
    if (rule.required && value === '') addFieldError(details, name, t('hub.catalog.required'));
    else if (value.length > rule.max) addFieldError(details, name, t('hub.catalog.tooLong', { max: rule.max }));
  }
  if (Object.keys(details).length > 0) throw AppError.invalid(details);
}

/**
 * Runs a form's work; a refusal the user can fix (invalid field, conflict) comes back as the
 * form's state with its status, anything else is thrown on to the hub's error page.
 */
export async function attempt(
  form: string,
  values: Record<string, string>,
  work: () => Promise<void>,
): Promise<{ state: FormState; status: number } | null> {
  try {
    await work();
    return null;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (error.code === 'validation_failed')
      return {
        state: {
          form,
          values,
          errors: error.details ?? fieldErrors(),
          message: error.details ? undefined : error.message,
        },
        status: 400,
      };
    if (error.code === 'conflict')
      return { state: { form, values, errors: fieldErrors(), message: error.message }, status: 409 };
    if (error.code === 'payload_too_large')
      return { state: { form, values, errors: fieldErrors(), message: error.message }, status: 413 };
    throw error;
  }
}

/** The state of this form only; another form on the same page renders fresh. */
export function stateOf(state: FormState | undefined, form: string): FormState | undefined {
  return state?.form === form ? state : undefined;
}

interface FieldOptions extends Omit<SharedField, 'errors' | 'note' | 'value'> {
  state?: FormState;
  value?: string | null;
}

/** A field as the shared one (form.ts) shows it: after a refusal, what was typed and its message. */
function fromState(o: FieldOptions): SharedField {
  const { state, ...rest } = o;
  return {
    ...rest,
    value: state ? (state.values[o.name] ?? '') : (o.value ?? ''),
    errors: state?.errors[o.name],
    note: 'span',
  };
}

export const field = (o: FieldOptions): Html => input(fromState(o));
export const textarea = (o: FieldOptions): Html => sharedTextarea(fromState(o));
export const select = (o: FieldOptions & { options: readonly Choice[] }): Html =>
  sharedSelect({ ...fromState(o), options: o.options });

/** The form-level line: "correct the fields" or the refusal's own words. */
export function formError(t: HubTranslate, state: FormState | undefined): Html | null {
  if (!state) return null;
  return html`<p class="error" role="alert">${state.message ?? t('hub.form.fixErrors')}</p>`;
}

/** The catalog's own sub-navigation, the same on each of its pages. */
export function catalogPage(
  ctx: HubContext,
  reply: FastifyReply,
  options: { title: string; body: Html; status?: number; notice?: string | null },
): FastifyReply {
  const { t } = ctx;
  const links = [
    [paths.catalog, t('hub.catalog.categories')],
    [paths.products, t('hub.catalog.products')],
    [paths.models, t('hub.catalog.models')],
    [paths.taxRates, t('hub.catalog.taxRates')],
    ...(ctx.can('catalog:write') ? [[paths.catalogImport, t('hub.catalog.import')] as const] : []),
  ] as const;
  const body = html`<div class="catalog"><nav class="subnav" aria-label="${t('hub.catalog.sections')}"><ul>
${links.map(([href, label]) => html`<li><a href="${href}"${ctx.path === href ? html` aria-current="page"` : null}>${label}</a></li>`)}
</ul></nav>
${ctx.can('catalog:write') ? null : html`<p class="muted">${t('hub.catalog.readOnly')}</p>`}
${options.body}</div>`;
  return sendPage(reply, ctx, { ...options, body });
}

/** The notices a catalog redirect may name (`?notice=<key>`). */
export const CATALOG_NOTICES = {
  created: 'hub.catalog.created',
  saved: 'hub.catalog.saved',
  deleted: 'hub.catalog.deleted',
  deactivated: 'hub.catalog.deactivated',
  uploaded: 'hub.catalog.uploaded',
} as const satisfies Record<string, NoticeKey>;
