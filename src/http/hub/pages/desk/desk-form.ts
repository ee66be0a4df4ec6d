import type { FieldErrors } from '../../../../lib/errors.ts';
import { html, type Html } from '../../html.ts';
import type { SubmitOptions } from '../../form.ts';

/**
 * The desk's forms are checked with the admin API's schemas (form.ts `submit`). A refusal that
 * names fields (a validation failure, a conflict such as a tax id already used) is shown at
 * them; any other goes to the hub's error page, as it does for the API.
 */
export const DESK_REFUSALS = { fieldCodes: ['conflict'], refusals: [] } as const satisfies SubmitOptions;

/** Errors not tied to a field shown (a path the form has no input for), so none is lost. */
export function otherErrors(errors: FieldErrors | undefined, shown: readonly string[]): Html | null {
  if (!errors) return null;
  const rest = Object.entries(errors).filter(([path]) => !shown.includes(path));
  return rest.length === 0
    ? null
    : html`<ul class="error">${rest.map(([path, list]) => html`<li><code>${path}</code>: ${list.join(' ')}</li>`)}</ul>`;
}
