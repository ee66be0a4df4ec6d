import type { Container } from '../../../../container.ts';
import type { Location } from '../../../../modules/companies/index.ts';
import { html, type Html } from '../../html.ts';
import type { HubContext } from '../../hub-context.ts';

/** The company's locations and the one this user works at (the one last chosen, else the first). */
export async function locationChoice(c: Container, ctx: HubContext, posted?: string) {
  const [locations, preferred] = await Promise.all([
    c.companies.listLocations(ctx.user.companyId),
    c.companies.preferredLocation(ctx.user.companyId, ctx.user.userId),
  ]);
  const chosen = locations.find((l) => l.id === posted)?.id ?? preferred?.id ?? '';
  return { locations, chosen };
}

/**
 * Where the counter sells or a quotation is made: a choice only when the company has more than
 * one location (the documents print its name and address, and a Croatian invoice its premises).
 */
export function locationSelect(ctx: HubContext, choice: { locations: Location[]; chosen: string }): Html | null {
  if (choice.locations.length < 2) return null;
  return html`<p class="row"><label for="location">${ctx.t('hub.location.choose')}</label>
<select id="location" name="locationId">${choice.locations.map(
    (l) =>
      html`<option value="${l.id}"${l.id === choice.chosen ? html` selected` : null}>${l.name} (${l.fiscalPremises ?? l.code})</option>`,
  )}</select></p>`;
}

/** After a document was made there: the counter and the next quotation open at the same location. */
export async function rememberLocation(c: Container, ctx: HubContext, locationId: string | undefined) {
  if (locationId) await c.companies.rememberLocation(ctx.user.companyId, ctx.user.userId, locationId);
}
