import type { FastifyReply } from 'fastify';
import { html, type Html } from '../../html.ts';
import type { HubContext } from '../../hub-context.ts';
import { sendPage, type NoticeKey } from '../../form.ts';
import { paths } from '../../paths.ts';

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
