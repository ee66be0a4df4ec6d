import type { FastifyReply } from 'fastify';
import type { FieldErrors } from '../../../../lib/errors.ts';
import type { HubMessageKey } from '../../texts/index.ts';
import { html, type Html } from '../../html.ts';
import type { HubContext } from '../../hub-context.ts';
import { sendPage, type NoticeKey } from '../../form.ts';
import { paths, withNotice } from '../../paths.ts';

/** Developer settings' sections, shown as a sub-navigation on each of their pages. */
const SECTIONS = [
  { href: paths.developer, label: 'hub.developer.nav.apiKeys' },
  { href: paths.webhooks, label: 'hub.developer.nav.webhooks' },
  { href: paths.catalogScope, label: 'hub.developer.nav.catalogScope' },
  { href: paths.mailSettings, label: 'hub.mail.settings' },
] as const satisfies ReadonlyArray<{ href: string; label: HubMessageKey }>;

/** Notices a redirect may name (`?notice=`): only these, so a link cannot put words on the page. */
export const DEVELOPER_NOTICES = {
  keyRevoked: 'hub.developer.notice.keyRevoked',
  webhookSaved: 'hub.developer.notice.webhookSaved',
  webhookDeleted: 'hub.developer.notice.webhookDeleted',
  webhookEnabled: 'hub.developer.notice.webhookEnabled',
  redelivered: 'hub.developer.notice.redelivered',
  scopeSaved: 'hub.developer.notice.scopeSaved',
  printSaved: 'hub.developer.notice.printSaved',
  fiscalSaved: 'hub.fiscal.saved',
  exchangeSaved: 'hub.exchange.saved',
  testDataDeleted: 'hub.developer.notice.testDataDeleted',
} as const satisfies Record<string, NoticeKey>;
export type DeveloperNotice = keyof typeof DEVELOPER_NOTICES;

export function sendDeveloperPage(
  reply: FastifyReply,
  ctx: HubContext,
  options: { title: string; body: Html; notice?: string | null; status?: number },
): FastifyReply {
  const here = (href: string) =>
    href === paths.developer ? ctx.path === href : ctx.path === href || ctx.path.startsWith(`${href}/`);
  const body = html`<nav class="subnav" aria-label="${ctx.t('hub.nav.developer')}"><ul>
  ${SECTIONS.map((s) => html`<li><a href="${s.href}"${here(s.href) ? html` aria-current="page"` : null}>${ctx.t(s.label)}</a></li>`)}
</ul></nav>
${options.body}`;
  return sendPage(reply, ctx, { ...options, body });
}

export function redirectWith(reply: FastifyReply, path: string, notice: DeveloperNotice): FastifyReply {
  return reply.redirect(withNotice(path, notice), 303);
}

/** Errors no field shows (a field the form does not have), above the form. */
export function formErrors(ctx: HubContext, errors: FieldErrors, shown: readonly string[]): Html | null {
  if (Object.keys(errors).length === 0) return null;
  const rest = Object.entries(errors)
    .filter(([field]) => !shown.includes(field))
    .flatMap(([, list]) => list);
  return html`<div class="error" role="alert"><p>${ctx.t('hub.form.fixErrors')}</p>${rest.length > 0 ? html`<ul>${rest.map((m) => html`<li>${m}</li>`)}</ul>` : null}</div>`;
}

/** A timestamp the way the user reads dates, or a dash. */
export function when(ctx: HubContext, iso: string | null): string {
  return iso ? ctx.fmt.dateTime(iso) : '—';
}
