import type { FastifyPluginAsync } from 'fastify';
import { searchKpd } from '../../../../modules/einvoice/index.ts';
import { html, type Html } from '../../html.ts';
import { queryText } from '../../form.ts';
import { paths } from '../../paths.ts';

const LIST_ID = 'kpd-options';

/**
 * The product form's KPD 2025 picker: the code field asks, as one types, for the codes whose
 * code or Croatian name matches, and offers them as the field's suggestions (a datalist, the
 * browser's own picker); the list itself (3,359 codes) never travels whole.
 */
export function kpdPickerAttrs(): Html {
  return html` list="${LIST_ID}" hx-get="${paths.kpdSearch}" hx-trigger="input changed delay:250ms" hx-target="#${LIST_ID}" hx-swap="outerHTML"`;
}

/** The empty suggestion list the field fills. */
export const kpdPickerList = (): Html => html`<datalist id="${LIST_ID}"></datalist>`;

export const kpdPickerRoute: FastifyPluginAsync = async (app) => {
  app.get('/catalog/kpd', { config: { hub: 'catalog:read' } }, async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const q = queryText(query.classificationCode ?? query.q, 200) ?? '';
    const found = q.length >= 2 ? searchKpd(q, 30) : [];
    const body = html`<datalist id="${LIST_ID}">${found.map((e) => html`<option value="${e.code}">${e.code} ${e.name}</option>`)}</datalist>`;
    return reply.type('text/html; charset=utf-8').send(body.toString());
  });
};
