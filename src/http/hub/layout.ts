import type { Permission } from '../access.ts';
import type { HubMessageKey, HubTranslate } from './texts/index.ts';
import { html, type Html } from './html.ts';
import type { HubContext } from './hub-context.ts';
import { ASSETS, MANIFEST_PATH } from './assets.ts';
import { inCompanySettings, paths } from './paths.ts';

/** The navigation: each item shown only to roles that may open it (and refused again on request). */
const NAV: ReadonlyArray<{
  href: string;
  label: Extract<HubMessageKey, `hub.nav.${string}`>;
  permission: Permission | null;
}> = [
  { href: paths.today, label: 'hub.nav.today', permission: null },
  { href: paths.inquiries, label: 'hub.nav.inquiries', permission: 'inquiries:read' },
  { href: paths.quotations, label: 'hub.nav.quotations', permission: 'quotations:read' },
  { href: paths.orders, label: 'hub.nav.orders', permission: 'quotations:read' },
  { href: paths.sales, label: 'hub.nav.sales', permission: 'sales:read' },
  { href: paths.counter, label: 'hub.nav.counter', permission: 'sales:counter' },
  { href: paths.drawer, label: 'hub.nav.drawer', permission: 'drawer:operate' },
  { href: paths.customers, label: 'hub.nav.customers', permission: 'customers:read' },
  { href: paths.catalog, label: 'hub.nav.catalog', permission: 'catalog:read' },
  { href: paths.purchases, label: 'hub.nav.purchases', permission: 'purchases:read' },
  { href: paths.reports, label: 'hub.nav.reports', permission: 'reports:run' },
  { href: paths.developer, label: 'hub.nav.developer', permission: 'settings:manage' },
  { href: paths.team, label: 'hub.nav.team', permission: 'settings:manage' },
  { href: paths.company, label: 'hub.nav.company', permission: 'settings:manage' },
  { href: paths.help, label: 'hub.nav.help', permission: null },
];

function head(title: string): Html {
  return html`<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="htmx-config" content='{"includeIndicatorStyles":false,"allowEval":false,"historyCacheSize":0}'>
<title>${title} · Portico</title>
<meta name="application-name" content="Portico">
<meta name="theme-color" content="#12263f">
<link rel="icon" href="${ASSETS.icon}" type="image/svg+xml">
<link rel="manifest" href="${MANIFEST_PATH}">
<link rel="stylesheet" href="${ASSETS.css}">
<script src="${ASSETS.htmx}" defer></script>
<script src="${ASSETS.js}" defer></script>`;
}

export interface PageOptions {
  title: string;
  body: Html;
  /** Shown above the content: one notice line after a redirect (saved, converted…). */
  notice?: string | null;
}

/**
 * The whole document for a signed-in page. The CSRF token rides on <body> as an htmx header,
 * so every htmx request carries it; plain forms carry it in a hidden field (`postForm`).
 * The navigation sits in a <details>: on a narrow screen it folds behind its summary (the menu
 * button), which opens without any script; on a wide one the stylesheet shows its content and
 * hides the summary, so the sidebar is always there.
 */
export function page(ctx: HubContext, options: PageOptions): Html {
  const { t } = ctx;
  const current = (href: string) =>
    href === paths.today
      ? ctx.path === paths.today
      : href === paths.company
        ? inCompanySettings(ctx.path)
        : !(href === paths.developer && inCompanySettings(ctx.path)) &&
          (ctx.path === href || ctx.path.startsWith(`${href}/`));
  const nav = NAV.filter((item) => item.permission === null || ctx.can(item.permission));
  return html`<!doctype html>
<html lang="${ctx.user.language}">
<head>${head(options.title)}</head>
<body hx-headers='${JSON.stringify({ 'x-csrf-token': ctx.csrf })}'>
<a class="skip" href="#main">${t('hub.skipToContent')}</a>
<header class="top">
  <a class="brand" href="${paths.today}">${ctx.user.companyName}</a>
  <span class="spacer"></span>
  ${ctx.can('notifications:own') ? notificationsBadge(t) : null}
  <a href="${paths.account}">${ctx.user.name}</a>
  ${postForm(ctx, paths.signOut, html` class="inline"`)}<button type="submit" class="link">${t('hub.signOut')}</button></form>
</header>
<div class="frame">
<nav class="main-nav" aria-label="${t('hub.nav.label')}"><details class="menu"><summary>${t('hub.nav.menu')}</summary><ul>
  ${nav.map((item) => html`<li><a href="${item.href}"${current(item.href) ? html` aria-current="page"` : null}>${t(item.label)}</a></li>`)}
</ul></details></nav>
<main id="main" tabindex="-1">
  ${options.notice ? html`<p class="notice" role="status">${options.notice}</p>` : null}
  ${options.body}
</main>
</div>
</body>
</html>`;
}

/** The unread count, fetched when the page loads and again every 15 s (htmx polling). */
function notificationsBadge(t: HubTranslate): Html {
  return html`<a href="${paths.notifications}" class="badge-link">${t('hub.notifications.label')}
  <span id="unread" hx-get="${paths.notificationsCount}" hx-trigger="load, every 15s" hx-swap="innerHTML" aria-live="polite"></span></a>`;
}

/** A page before sign-in (or an error without a session): no navigation. */
export function barePage(language: string, title: string, body: Html): Html {
  return html`<!doctype html>
<html lang="${language}">
<head>${head(title)}</head>
<body class="bare"><main id="main">${body}</main></body>
</html>`;
}

/**
 * A posted form's opening tag with its CSRF field: every hub form that changes something starts
 * with it, so none can forget the token. `attrs` are ours (class, data-confirm, hx-…), never user text.
 */
export function postForm(ctx: { csrf: string }, action: string, attrs: Html | null = null): Html {
  return html`<form method="post" action="${action}"${attrs}><input type="hidden" name="_csrf" value="${ctx.csrf}">`;
}
