import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Container } from '../../../container.ts';
import { AppError } from '../../../lib/errors.ts';
import type { ResetLink, TeamMember } from '../../../modules/accounts/index.ts';
import { USER_ROLES } from '../../../modules/companies/index.ts';
import { html, type Html } from '../html.ts';
import type { HubContext } from '../hub-context.ts';
import { Type } from 'typebox';
import {
  bodyText,
  field,
  noticeOf,
  postForm,
  sendPage,
  spokenDetails,
  submit,
  type FormState,
  type IdRoute,
} from '../form.ts';
import { ACCOUNT_NOTICES, roleLabel } from './account-texts.ts';
import { baseUrl } from '../../base-url.ts';
import { paths, withNotice } from '../paths.ts';

interface Shown {
  status?: number;
  notice?: string | null;
  /** A reset link just made: shown on this one response only, never stored in a redirect. */
  link?: { user: string; url: string; expiresAt: string };
  /** The add-a-user form refused: what was typed and each field's message. */
  state?: FormState;
  problem?: string;
  /** An operator OIB refused: whose, what was typed, and why, shown at that user's field. */
  oib?: { id: string; value: string; message: string };
}

/**
 * A new user as the form posts it. Only its shape: the service checks every field at once (an
 * e-mail already used among them), and there is no admin API body to share.
 */
const NewMemberForm = Type.Object(
  { email: Type.String(), name: Type.String(), role: Type.String() },
  { additionalProperties: false },
);

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
      const oibs = new Map((await c.companies.listUsers(ctx.user.companyId)).map((u) => [u.id, u]));
      const body = render(ctx, team, shown, slowed, oibs);
      return sendPage(reply, ctx, { title: ctx.t('hub.team.title'), body, notice: shown.notice, status: shown.status });
    };
    const linkOf = (request: FastifyRequest, user: string, link: ResetLink) => ({
      user,
      url: `${baseUrl(c.config, request)}${paths.reset(link.token)}`,
      expiresAt: link.expiresAt,
    });
    /** The last-admin refusal is shown on the team page, in the user's words, not as an error page. */
    const guarded = async (
      request: FastifyRequest,
      reply: FastifyReply,
      work: () => Promise<void>,
      notice: string,
      then: string = paths.team,
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
      return reply.redirect(withNotice(then, notice), 303);
    };
    app.get('/team', { config: { hub: 'settings:manage' } }, async (request, reply) =>
      show(request, reply, { notice: noticeOf(request.hub, request.query, ACCOUNT_NOTICES) }),
    );

    app.post('/team', { config: { hub: 'settings:manage' } }, async (request, reply) => {
      const ctx = request.hub;
      const done = await submit(
        NewMemberForm,
        request,
        (member) => c.accounts.createUser(ctx.user.companyId, ctx.user.userId, member),
        {
          read: (_, body) => ({
            email: bodyText(body, 'email'),
            name: bodyText(body, 'name'),
            role: bodyText(body, 'role'),
          }),
          refusals: [],
        },
      );
      if (!done.ok) return show(request, reply, { status: done.status, state: done.state });
      const { user, link } = done.result;
      return show(request, reply, {
        notice: ctx.t('hub.team.notice.created', { name: user.name }),
        link: linkOf(request, user.name, link),
      });
    });

    // The operator OIB told to the fiscal authority (checked by the service) and the label printed instead.
    app.post<IdRoute>('/team/:id/oib', { config: { hub: 'settings:manage' } }, async (request, reply) => {
      const value = bodyText(request.body, 'operatorOib').trim();
      try {
        await c.companies.updateUser(request.hub.user.companyId, request.params.id, {
          operatorOib: value || null,
          operatorLabel: bodyText(request.body, 'operatorLabel') || null,
        });
      } catch (error) {
        // The refusal at the field that caused it, the typed value kept (issue 34: it was lost, no field marked).
        if (!(error instanceof AppError) || error.code !== 'validation_failed') throw error;
        const message = Object.values(spokenDetails(error, request.hub.t)).flat().join(' ');
        return show(request, reply, {
          status: 400,
          problem: request.hub.t('hub.form.fixErrors'),
          oib: { id: request.params.id, value, message },
        });
      }
      return reply.redirect(withNotice(paths.team, 'oibSaved'), 303);
    });

    app.post<IdRoute>('/team/:id/role', { config: { hub: 'settings:manage' } }, async (request, reply) => {
      const role = bodyText(request.body, 'role');
      // An admin who steps down may no longer open the team page: they land on their account instead.
      const then = request.params.id === request.hub.user.userId && role !== 'admin' ? paths.account : paths.team;
      return guarded(
        request,
        reply,
        () => c.accounts.changeRole(request.hub.user.companyId, request.params.id, role),
        'roleChanged',
        then,
      );
    });
    app.post<IdRoute>('/team/:id/disable', { config: { hub: 'settings:manage' } }, async (request, reply) =>
      guarded(
        request,
        reply,
        () => c.accounts.setDisabled(request.hub.user.companyId, request.params.id, true),
        'disabled',
      ),
    );
    app.post<IdRoute>('/team/:id/enable', { config: { hub: 'settings:manage' } }, async (request, reply) =>
      guarded(
        request,
        reply,
        () => c.accounts.setDisabled(request.hub.user.companyId, request.params.id, false),
        'enabled',
      ),
    );

    app.post<IdRoute>('/team/:id/reset', { config: { hub: 'settings:manage' } }, async (request, reply) => {
      const ctx = request.hub;
      const link = await c.accounts.createResetLink(ctx.user.companyId, ctx.user.userId, request.params.id);
      const user = (await c.accounts.listTeam(ctx.user.companyId)).find((u) => u.id === request.params.id);
      return show(request, reply, { link: linkOf(request, user?.name ?? '', link) });
    });
  };

function render(
  ctx: HubContext,
  team: TeamMember[],
  shown: Shown,
  slowed: ReadonlyMap<string, number>,
  oibs: ReadonlyMap<string, { operatorOib: string | null; operatorLabel: string | null }>,
): Html {
  const { t } = ctx;
  const roles = USER_ROLES.map((r) => ({ value: r, label: roleLabel(t, r) }));
  const add = { id: 'new', schema: NewMemberForm, state: shown.state, values: { role: 'staff' } };
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
    <th scope="col">${t('hub.team.role')}</th><th scope="col">${t('hub.team.status')}</th><th scope="col">${t('hub.invoice.operatorOib')} / ${t('hub.team.operatorLabel')}</th><th scope="col">${t('hub.team.actions')}</th>
  </tr></thead>
  <tbody>
  ${team.map(
    (u) => html`<tr>
    <th scope="row">${u.name}${u.id === ctx.user.userId ? html` <span class="muted">(${t('hub.team.you')})</span>` : null}</th>
    <td>${u.email}</td>
    <td>${postForm(ctx, paths.teamUser(u.id, 'role'), html` class="row team-role"`)}
      <label for="role-${u.id}" class="sr-only">${t('hub.team.roleOf', { name: u.name })}</label>
      <select id="role-${u.id}" name="role">${roles.map((r) => html`<option value="${r.value}"${r.value === u.role ? html` selected` : null}>${r.label}</option>`)}</select>
      <button type="submit" class="secondary">${t('hub.team.changeRole')}</button></form></td>
    <td>${statusOf(ctx, u)}${slowed.has(u.email) ? html` <span class="status disabled" role="note">${t('hub.team.status.slowed', { count: slowed.get(u.email)! })}</span>` : null}</td>
    <td>${postForm(ctx, paths.teamUser(u.id, 'oib'), html` class="row"`)}
      <label for="oib-${u.id}" class="sr-only">${t('hub.invoice.operatorOib')} (${u.name})</label>
      <input id="oib-${u.id}" name="operatorOib" inputmode="numeric" maxlength="13" value="${shown.oib?.id === u.id ? shown.oib.value : (oibs.get(u.id)?.operatorOib ?? '')}"${shown.oib?.id === u.id ? html` aria-invalid="true" aria-describedby="oib-${u.id}-error"` : null}>
      <label for="label-${u.id}" class="sr-only">${t('hub.team.operatorLabel')} (${u.name})</label>
      <input id="label-${u.id}" name="operatorLabel" maxlength="40" placeholder="${t('hub.team.operatorLabel')}" value="${oibs.get(u.id)?.operatorLabel ?? ''}">
      <button type="submit" class="secondary">${t('action.save')}</button></form>${shown.oib?.id === u.id ? html`<p class="field-error" id="oib-${u.id}-error">${shown.oib.message}</p>` : null}</td>
    <td class="team-actions">
      ${
        u.disabled
          ? html`${postForm(ctx, paths.teamUser(u.id, 'enable'), html` class="inline"`)}<button type="submit" class="secondary">${t('hub.team.enable')}</button></form>`
          : html`${postForm(ctx, paths.teamUser(u.id, 'disable'), html` class="inline" data-confirm="${t('hub.team.disableConfirm', { name: u.name })}"`)}<button type="submit" class="danger">${t('hub.team.disable')}</button></form>`
      }
      ${postForm(ctx, paths.teamUser(u.id, 'reset'), html` class="inline"`)}<button type="submit" class="secondary">${t('hub.team.reset')}<span class="sr-only"> (${u.name})</span></button></form>
    </td>
  </tr>`,
  )}
  </tbody>
</table>
<section aria-labelledby="add-heading">
  <h2 id="add-heading">${t('hub.team.addHeading')}</h2>
  ${shown.state ? html`<p class="error" role="alert">${t('hub.form.fixErrors')}</p>` : null}
  <p class="muted">${t('hub.team.addHint')}</p>
  ${postForm(ctx, paths.team, html` class="stack"`)}
    ${field(add, 'email', { label: t('hub.team.email'), type: 'email', autocomplete: 'off' })}
    ${field(add, 'name', { label: t('hub.team.name'), autocomplete: 'off' })}
    ${field(add, 'role', { label: t('hub.team.role'), control: 'select', options: roles })}
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
