import type { FastifyReply } from 'fastify';
import type { HubMessageKey } from '../texts/index.ts';
import { html, type Html } from '../html.ts';
import type { HubContext } from '../hub-context.ts';
import { sendPage } from '../form.ts';
import { paths } from '../paths.ts';

/**
 * Company settings' sections: what an owner looks for (the profile, the print template with the
 * bank account, the fiscal certificate) in one place, not among the developer settings (issue 34).
 * The pages keep their addresses; only where they are found moved.
 */
export const COMPANY_SECTIONS = [
  { href: paths.company, label: 'hub.nav.company' },
  { href: paths.printSettings, label: 'hub.company.nav.print' },
  { href: paths.fiscal, label: 'hub.fiscal.nav' },
  { href: paths.exchange, label: 'hub.exchange.nav' },
] as const satisfies ReadonlyArray<{ href: string; label: HubMessageKey }>;

export function sendCompanyPage(
  reply: FastifyReply,
  ctx: HubContext,
  options: { title: string; body: Html; notice?: string | null; status?: number },
): FastifyReply {
  const here = (href: string) => ctx.path === href || ctx.path.startsWith(`${href}/`);
  const body = html`<nav class="subnav" aria-label="${ctx.t('hub.nav.company')}"><ul>
  ${COMPANY_SECTIONS.map((s) => html`<li><a href="${s.href}"${here(s.href) ? html` aria-current="page"` : null}>${ctx.t(s.label)}</a></li>`)}
</ul></nav>
${options.body}`;
  return sendPage(reply, ctx, { ...options, body });
}
