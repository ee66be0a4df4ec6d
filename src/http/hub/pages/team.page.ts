import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Container } from '../../../container.ts';
import { AppError, type FieldErrors } from '../../../lib/errors.ts';
import type { ResetLink, TeamMember } from '../../../modules/accounts/index.ts';
import { USER_ROLES } from '../../../modules/companies/index.ts';
import { html, type Html } from '../html.ts';
import type { HubContext } from '../hub-context.ts';
import { csrfField } from '../layout.ts';
import { bodyText, fieldErrorsOf, input, noticeOf, select, sendPage } from '../form.ts';
import { ACCOUNT_NOTICES, roleLabel } from './account-texts.ts';
import { baseUrl } from '../../base-url.ts';

interface Shown {
  status?: number;
  notice?: string | null;
  /** A reset link just made: shown on this one response only, never stored in a redirect. */
  link?: { user: string; url: string; expiresAt: string };
  errors?: FieldErrors;
  draft?: { email: string; name: string; role: string };
  problem?: string;
}

/** Team: the company's users, their roles and status; add, change role, disable, reset password. Admins only. */
export const teamPage =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    const show = async (request: FastifyRequest, reply: FastifyReply, shown: Shown) => {
      const ctx = request.hub;
      const team = await c.accounts.listTeam(ctx.user.companyId);
      // A user whose sign-in is being slowed by failed attempts (someone guessing) is shown so.
      const failures = await c.signInThrottle.failures(team.map((u) => u.email));
      const slowed = new Map([...failures].filter(([, n]) => c.signInThrottle.isSlowed(n)));
      const body = render(ctx, team, shown, slowed);
      return sendPage(reply, ctx, { title: ctx.t('hub.team.title'), body, notice: shown.notice, status: shown.status });
    };
    const linkOf = (request: FastifyRequest, user: string, link: ResetLink) => ({
      user,
      url: `${baseUrl(c.config, request)}/hub/reset/${link.token}`,
      expiresAt: link.expiresAt,
    });
    /** The last-admin refusal is shown on the team page, in the user's words, not as an error page. */
    const guarded = async (
      request: FastifyRequest,
      reply: FastifyReply,
      work: () => Promise<void>,
      notice: string,
      then = '/hub/team',
    ) => {
      try {
        await work();
      } catch (error) {
        if (error instanceof AppError && error.code === 'conflict')
          return show(request, reply, { status: 409, problem: request.hub.t('hub.team.lastAdmin') });
        if (error instanceof AppError && error.code === 'validation_failed')
          return show(request, reply, { status: 400, problem: request.hub.t('hub.form.fixErrors') });
        throw error;
      }
      return reply.redirect(`${then}?notice=${notice}`, 303);
    };
    const member = (request: FastifyRequest) => (request.params as { id: string }).id;

    app.get('/team', { config: { hub: 'settings:manage' } }, async (request, reply) =>
      show(request, reply, { notice: noticeOf(request.hub, request.query, ACCOUNT_NOTICES) }),
    );

    app.post('/team', { config: { hub: 'settings:manage' } }, async (request, reply) => {
      const ctx = request.hub;
      const draft = {
        email: bodyText(request.body, 'email'),
        name: bodyText(request.body, 'name'),
        role: bodyText(request.body, 'role'),
      };
      try {
        const { user, link } = await c.accounts.createUser(ctx.user.companyId, ctx.user.userId, draft);
        return show(request, reply, {
          notice: ctx.t('hub.team.notice.created', { name: user.name }),
          link: linkOf(request, user.name, link),
        });
      } catch (error) {
        return show(request, reply, { status: 400, errors: fieldErrorsOf(error), draft });
      }
    });

    app.post('/team/:id/role', { config: { hub: 'settings:manage' } }, async (request, reply) => {
      const role = bodyText(request.body, 'role');
      // An admin who steps down may no longer open the team page: they land on their account instead.
      const then = member(request) === request.hub.user.userId && role !== 'admin' ? '/hub/account' : '/hub/team';
      return guarded(
        request,
        reply,
        () => c.accounts.changeRole(request.hub.user.companyId, member(request), role),
        'roleChanged',
        then,
      );
    });
    app.post('/team/:id/disable', { config: { hub: 'settings:manage' } }, async (request, reply) =>
      guarded(
        request,
        reply,
        () => c.accounts.setDisabled(request.hub.user.companyId, member(request), true),
        'disabled',
      ),
    );
    app.post('/team/:id/enable', { config: { hub: 'settings:manage' } }, async (request, reply) =>
      guarded(
        request,
        reply,
        () => c.accounts.setDisabled(request.hub.user.companyId, member(request), false),
        'enabled',
      ),
    );

    app.post('/team/:id/reset', { config: { hub: 'settings:manage' } }, async (request, reply) => {
      const ctx = request.hub;
      const link = await c.accounts.createResetLink(ctx.user.companyId, ctx.user.userId, member(request));
      const user = (await c.accounts.listTeam(ctx.user.companyId)).find((u) => u.id === member(request));
      return show(request, reply, { link: linkOf(request, user?.name ?? '', link) });
    });
  };

function render(ctx: HubContext, team: TeamMember[], shown: Shown, slowed: ReadonlyMap<string, number>): Html {
  const { t } = ctx;
  const roles = USER_ROLES.map((r) => ({ value: r, label: roleLabel(t, r) }));
  const draft = shown.draft ?? { email: '', name: '', role: 'staff' };
  return html`<h1>${t('hub.team.title')}</h1>
${shown.problem ? html`<p class="error" role="alert">${shown.problem}</p>` : null}
${
  shown.link
    ? html`<section class="card reset-link" aria-labelledby="link-heading">
  <h2 id="link-heading">${t('hub.team.linkHeading', { name: shown.link.user })}</h2>
  <p>${t('hub.team.linkOnce', { until: ctx.fmt.dateTime(shown.link.expiresAt) })}</p>
  <p class="secret" id="reset-link">${shown.link.url}</p>
  <button type="button" class="secondary" data-copy="reset-link" data-copied="${t('hub.team.copied')}">${t('hub.team.copy')}</button>
</section>`
    : null
}
<table>
  <caption class="muted">${t('hub.team.caption', { count: team.length })}</caption>
  <thead><tr>
    <th scope="col">${t('hub.team.name')}</th><th scope="col">${t('hub.team.email')}</th>
    <th scope="col">${t('hub.team.role')}</th><th scope="col">${t('hub.team.status')}</th><th scope="col">${t('hub.team.actions')}</th>
  </tr></thead>
  <tbody>
  ${team.map(
    (u) => html`<tr>
    <th scope="row">${u.name}${u.id === ctx.user.userId ? html` <span class="muted">(${t('hub.team.you')})</span>` : null}</th>
    <td>${u.email}</td>
    <td><form method="post" action="/hub/team/${u.id}/role" class="row team-role">${csrfField(ctx)}
      <label for="role-${u.id}" class="sr-only">${t('hub.team.roleOf', { name: u.name })}</label>
      <select id="role-${u.id}" name="role">${roles.map((r) => html`<option value="${r.value}"${r.value === u.role ? html` selected` : null}>${r.label}</option>`)}</select>
      <button type="submit" class="secondary">${t('hub.team.changeRole')}</button></form></td>
    <td>${statusOf(ctx, u)}${slowed.has(u.email) ? html` <span class="status disabled" role="note">${t('hub.team.status.slowed', { count: slowed.get(u.email)! })}</span>` : null}</td>
    <td class="team-actions">
      ${
        u.disabled
          ? html`<form method="post" action="/hub/team/${u.id}/enable" class="inline">${csrfField(ctx)}<button type="submit" class="secondary">${t('hub.team.enable')}</button></form>`
          : html`<form method="post" action="/hub/team/${u.id}/disable" class="inline" data-confirm="${t('hub.team.disableConfirm', { name: u.name })}">${csrfField(ctx)}<button type="submit" class="danger">${t('hub.team.disable')}</button></form>`
      }
      <form method="post" action="/hub/team/${u.id}/reset" class="inline">${csrfField(ctx)}<button type="submit" class="secondary">${t('hub.team.reset')}<span class="sr-only"> (${u.name})</span></button></form>
    </td>
  </tr>`,
  )}
  </tbody>
</table>
<section aria-labelledby="add-heading">
  <h2 id="add-heading">${t('hub.team.addHeading')}</h2>
  ${shown.errors ? html`<p class="error" role="alert">${t('hub.form.fixErrors')}</p>` : null}
  <p class="muted">${t('hub.team.addHint')}</p>
  <form method="post" action="/hub/team" class="stack">
    ${csrfField(ctx)}
    ${input({ id: 'new-email', name: 'email', label: t('hub.team.email'), type: 'email', value: draft.email, required: true, autocomplete: 'off', errors: shown.errors?.email })}
    ${input({ id: 'new-name', name: 'name', label: t('hub.team.name'), value: draft.name, required: true, autocomplete: 'off', errors: shown.errors?.name })}
    ${select({ id: 'new-role', name: 'role', label: t('hub.team.role'), value: draft.role, options: roles, errors: shown.errors?.role })}
    <button type="submit">${t('hub.team.add')}</button>
  </form>
</section>`;
}

/** Status in words (not colour alone). */
function statusOf(ctx: HubContext, u: TeamMember): Html {
  const { t } = ctx;
  if (u.disabled) return html`<span class="status disabled">${t('hub.team.status.disabled')}</span>`;
  if (!u.hasPassword) return html`<span class="status new">${t('hub.team.status.noPassword')}</span>`;
  return html`<span class="status accepted">${t('hub.team.status.active')}</span>`;
}
