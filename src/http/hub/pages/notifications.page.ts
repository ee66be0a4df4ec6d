import type { FastifyPluginAsync } from 'fastify';
import type { Container } from '../../../container.ts';
import { cappedText } from '../../../lib/count-cap.ts';
import type { Notification } from '../../../modules/notifications/index.ts';
import { newestFirstPage } from '../../admin/pagination.ts';
import { html, type Html } from '../html.ts';
import { postForm, noticeOf, sendPage, type Route, type IdRoute } from '../form.ts';
import type { HubContext } from '../hub-context.ts';
import { paths, withNotice } from '../paths.ts';
import { sayMessage, sayText } from '../texts/index.ts';

const PAGE_SIZE = 25;

/** Where a notification's subject is shown in the hub, when the user may open it there. */
function subjectHref(ctx: HubContext, n: Notification): string | null {
  if (n.subject?.type === 'inquiry' && ctx.can('inquiries:read')) return paths.inquiry(n.subject.id);
  if (n.subject?.type === 'webhook_endpoint' && ctx.can('settings:manage')) return paths.webhook(n.subject.id);
  if (n.subject?.type === 'quotation' && ctx.can('quotations:read')) return paths.quotation(n.subject.id);
  return null;
}

/** The signed-in user's own notifications: the header's unread count, the list, mark read. */
export const notificationsPages =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    // The header badge polls this every 15 s (layout.ts): the number alone, nothing when none.
    // Polling is no activity of the user's: it does not keep the session alive (hubPoll).
    app.get('/notifications/count', { config: { hub: 'notifications:own', hubPoll: true } }, async (request, reply) => {
      const { user, fmt } = request.hub;
      const count = await c.notifications.countUnread(user.companyId, user.userId);
      const text = count === 0 ? '' : cappedText(count, fmt.number);
      return reply.type('text/html; charset=utf-8').send(text);
    });

    app.get<Route>('/notifications', { config: { hub: 'notifications:own' } }, async (request, reply) => {
      const ctx = request.hub;
      const { t } = ctx;
      const { query } = request;
      const paging = newestFirstPage({
        limit: PAGE_SIZE,
        cursor: typeof query.cursor === 'string' ? query.cursor : undefined,
      });
      const { data, nextCursor } = paging.page(
        await c.notifications.listForUser(ctx.user.companyId, ctx.user.userId, {
          unreadOnly: false,
          limit: paging.limit,
          before: paging.before,
        }),
      );
      const notice = noticeOf(ctx, query, {
        'all-read': 'hub.notifications.allRead',
        read: 'hub.notifications.oneRead',
      });
      const body = html`<h1>${t('hub.notifications.title')}</h1>
${
  data.some((n) => n.readAt === null)
    ? html`${postForm(ctx, paths.notificationsReadAll)}<button type="submit" class="secondary">${t('hub.notifications.markAll')}</button></form>`
    : null
}
${data.length === 0 ? html`<p>${t('hub.notifications.none')}</p>` : html`<ul class="notifications">${data.map((n) => item(ctx, n))}</ul>`}
${nextCursor ? html`<p><a class="button secondary" href="${paths.notifications}?${new URLSearchParams({ cursor: nextCursor }).toString()}">${t('action.more')}</a></p>` : null}`;
      return sendPage(reply, ctx, { title: t('hub.notifications.title'), body, notice });
    });

    app.post('/notifications/read-all', { config: { hub: 'notifications:own' } }, async (request, reply) => {
      const { user } = request.hub;
      await c.notifications.markAllRead(user.companyId, user.userId);
      return reply.redirect(withNotice(paths.notifications, 'all-read'), 303);
    });

    app.post<IdRoute>('/notifications/:id/read', { config: { hub: 'notifications:own' } }, async (request, reply) => {
      const { user } = request.hub;
      await c.notifications.markRead(user.companyId, user.userId, request.params.id);
      return reply.redirect(withNotice(paths.notifications, 'read'), 303);
    });
  };

/**
 * A notification in the reader's language: its kind names the message, said with its stored
 * parameters; one from before parameters were stored reads as it was written.
 */
function said(ctx: HubContext, n: Notification): { title: string; body: string } {
  // A parameter may itself be a message of the catalog (why a webhook was disabled): said too.
  const params = n.params
    ? Object.fromEntries(Object.entries(n.params).map(([k, v]) => [k, typeof v === 'string' ? sayText(ctx.t, v) : v]))
    : null;
  const as = (part: 'title' | 'body', text: string) =>
    sayMessage(ctx.t, text, params ? { key: `hub.notice.${n.kind}.${part}`, params } : null);
  return { title: as('title', n.title), body: as('body', n.body) };
}

function item(ctx: HubContext, stored: Notification): Html {
  const { t } = ctx;
  const n = { ...stored, ...said(ctx, stored) };
  const href = subjectHref(ctx, n);
  const unread = n.readAt === null;
  return html`<li>
  <span class="status ${unread ? 'new' : 'read'}">${unread ? t('hub.notifications.state.unread') : t('hub.notifications.state.read')}</span>
  ${unread ? html`<strong>${n.title}</strong>` : n.title}
  <small>${ctx.fmt.dateTime(n.createdAt)}</small><br>
  ${n.body}
  ${href ? html` <a href="${href}">${t('hub.notifications.open')}<span class="sr-only">: ${n.title}</span></a>` : null}
  ${unread ? html` ${postForm(ctx, paths.notificationRead(n.id), html` class="inline"`)}<button type="submit" class="link">${t('action.markRead')}<span class="sr-only">: ${n.title}</span></button></form>` : null}
</li>`;
}
