import { html, type Html } from './html.ts';
import type { HubContext } from './hub-context.ts';

export type DataMode = 'live' | 'test';

/** The lists show live data unless the "test data" switch is on (`?data=test`): never both. */
export function dataModeOf(query: Record<string, unknown>): DataMode {
  return query.data === 'test' ? 'test' : 'live';
}

/** The switch, a checkbox inside a list's filter form (id `data`, for liveFilter). */
export function testDataSwitch(ctx: HubContext, mode: DataMode): Html {
  return html`<label class="check"><input type="checkbox" id="data" name="data" value="test"${mode === 'test' ? html` checked` : null}> ${ctx.t('hub.developer.apiKeys.testData')}</label>`;
}
