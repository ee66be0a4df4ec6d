import type { FastifyPluginAsync } from 'fastify';
import { sayText } from '../texts/index.ts';
import type { Company } from '../../../modules/companies/index.ts';
import type { Container } from '../../../container.ts';
import { cappedText } from '../../../lib/count-cap.ts';
import { MONEY_SCALE, parseScaled } from '../../../lib/money.ts';
import { html, type Html } from '../html.ts';
import { sendPage } from '../form.ts';
import type { HubContext } from '../hub-context.ts';
import { paths, withQuery } from '../paths.ts';
import { formatDate } from '../../../modules/reports/index.ts';
import { OPEN_QUOTATION_STATUSES } from '../../../modules/quotations/index.ts';
import { trendChart } from './trend-chart.ts';

/** How many of the newest each card lists; the rest are one click away. */
const LATEST = 5;

interface Card {
  id: string;
  title:
    | 'hub.today.inquiries'
    | 'hub.today.quotations'
    | 'hub.today.orders'
    | 'hub.today.sales'
    | 'hub.today.webhooks'
    | 'hub.today.einvoices'
    | 'hub.fiscal.waiting';
  href: string;
  count: number;
  items: Array<{ href: string; label: string; meta: string | null }>;
}

/** The newest `n` of lists each already newest first (two statuses read as two lists). */
function newest<T extends { createdAt: string; id: string }>(lists: T[][], n: number): T[] {
  return lists
    .flat()
    .sort((a, b) => (a.createdAt === b.createdAt ? b.id.localeCompare(a.id) : b.createdAt.localeCompare(a.createdAt)))
    .slice(0, n);
}

/**
 * Today: what needs the staff's attention first, one card per kind of work the role may open.
 * Every card is a capped count and one short list, read in parallel: the page makes the same
 * number of queries whatever the data.
 */
export const todayPage =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    app.get('/', { config: { hub: 'signed-in' } }, async (request, reply) => {
      const ctx = request.hub;
      const { t } = ctx;
      const companyId = ctx.user.companyId;
      const latest = { limit: LATEST };

      const cards = await Promise.all([
        ctx.can('inquiries:read')
          ? (async (): Promise<Card> => {
              const [count, rows] = await Promise.all([
                c.inquiries.countOpen(companyId),
                c.inquiries.list(companyId, latest, { state: 'open' }),
              ]);
              return {
                id: 'inquiries',
                title: 'hub.today.inquiries',
                href: withQuery(paths.inquiries, { state: 'open' }),
                count,
                items: rows.map((r) => ({
                  href: paths.inquiry(r.id),
                  label: r.subject,
                  meta: `${r.name ?? r.email} · ${ctx.fmt.dateTime(r.createdAt)}`,
                })),
              };
            })()
          : null,
        ctx.can('quotations:read')
          ? (async (): Promise<Card> => {
              const [count, rows] = await Promise.all([
                // Open: approved, or accepted by the customer and waiting to be converted (one count, one list).
                c.quotations.countWithStatus(companyId, OPEN_QUOTATION_STATUSES),
                c.quotations.list(companyId, latest, { status: OPEN_QUOTATION_STATUSES }),
              ]);
              return {
                id: 'quotations',
                title: 'hub.today.quotations',
                href: paths.quotations,
                count,
                items: rows.map((r) => ({
                  href: paths.quotation(r.id),
                  label: `${r.number} · ${r.directoryCustomer?.name ?? r.customer.name}`,
                  meta: [
                    r.status === 'accepted' ? t('status.quotation.accepted') : null,
                    r.expired
                      ? t('status.quotation.expired')
                      : `${t('print.validUntil')}: ${ctx.fmt.date(r.expiresAt)}`,
                  ]
                    .filter(Boolean)
                    .join(' · '),
                })),
              };
            })()
          : null,
        ctx.can('quotations:read')
          ? (async (): Promise<Card> => {
              const [count, received, accepted] = await Promise.all([
                c.orders.countWithStatus(companyId, ['received', 'accepted']),
                c.orders.list(companyId, latest, { status: 'received' }),
                c.orders.list(companyId, latest, { status: 'accepted' }),
              ]);
              return {
                id: 'orders',
                title: 'hub.today.orders',
                href: paths.orders,
                count,
                items: newest([received, accepted], LATEST).map((r) => ({
                  href: paths.order(r.id),
                  label: `${r.number} · ${r.directoryCustomer?.name ?? r.customer.name}`,
                  meta: `${t(`status.order.${r.status}`)} · ${ctx.fmt.dateTime(r.createdAt)}`,
                })),
              };
            })()
          : null,
        ctx.can('sales:read')
          ? (async (): Promise<Card> => {
              const [count, unpaid, partly] = await Promise.all([
                c.sales.countWithStatus(companyId, ['unpaid', 'partially_paid']),
                c.sales.list(companyId, { status: 'unpaid' }, latest, { exchange: false, fiscal: false }),
                c.sales.list(companyId, { status: 'partially_paid' }, latest, { exchange: false, fiscal: false }),
              ]);
              return {
                id: 'sales',
                title: 'hub.today.sales',
                href: paths.sales,
                count,
                items: newest([unpaid, partly], LATEST).map((r) => ({
                  href: paths.sale(r.id),
                  label: `${r.number} · ${r.customer.name}`,
                  meta: `${t(`status.sale.${r.status}`)} · ${t('hub.today.due', { amount: ctx.fmt.money(parseScaled(r.balance, MONEY_SCALE)) })}`,
                })),
              };
            })()
          : null,
        // A disabled endpoint or one whose deliveries keep failing: events are piling up unseen.
        ctx.can('settings:manage')
          ? (async (): Promise<Card> => {
              const failing = (await c.endpoints.list(companyId)).filter((e) => !e.enabled || e.failingSince !== null);
              return {
                id: 'webhooks',
                title: 'hub.today.webhooks',
                href: paths.webhooks,
                count: failing.length,
                items: failing.slice(0, LATEST).map((e) => ({
                  href: paths.webhook(e.id),
                  label: e.description ?? e.url ?? e.chatId ?? e.id,
                  meta: !e.enabled
                    ? t('hub.today.webhookDisabled', {
                        reason: e.disabledReason ? sayText(ctx.t, e.disabledReason) : '—',
                      })
                    : t('hub.today.webhookFailing', { date: ctx.fmt.dateTime(e.failingSince!) }),
                })),
              };
            })()
          : null,
      ]);
      const company = ctx.can('sales:read') ? await c.companies.getCompany(ctx.user.companyId) : null;
      const fiscal = company ? await fiscalState(c, ctx, company) : { banner: null, card: null };
      const einvoices = company ? await einvoiceState(c, ctx, company) : { banner: null, card: null };
      const trend = ctx.can('reports:run')
        ? await trendSection(c, ctx, company ? { timeZone: company.timezone, currency: company.currency } : undefined)
        : null;

      const body = html`<h1>${t('hub.today.title')}</h1>
${fiscal.banner}
${einvoices.banner}
${trend}
<div class="cards today">${fiscal.card ? renderCard(ctx, fiscal.card) : null}${einvoices.card ? renderCard(ctx, einvoices.card) : null}${cards.map((card) => (card ? renderCard(ctx, card) : null))}</div>`;
      return sendPage(reply, ctx, { title: t('hub.today.title'), body });
    });
  };

/**
 * Croatian fiscalisation on Today: a company in Croatia that has not configured it (or switched it
 * off) reads plainly that its invoices are not fiscalised; one that has sees the invoices still
 * without a JIR.
 */
async function fiscalState(
  c: Container,
  ctx: HubContext,
  company: Company,
): Promise<{ banner: Html | null; card: Card | null }> {
  const companyId = ctx.user.companyId;
  const settings = await c.fiscalSettings.get(companyId);
  if (!settings.configured || !company.fiscal.enabled) {
    if (company.country !== 'HR') return { banner: null, card: null };
    const link = ctx.can('settings:manage')
      ? html` <a href="${paths.fiscal}">${ctx.t('hub.fiscal.configure')}</a>`
      : null;
    return {
      banner: html`<p class="error" id="fiscal-off">${ctx.t('hub.fiscal.notFiscalised')}${link}</p>`,
      card: null,
    };
  }
  const waiting = await c.fiscalSettings.unfiscalised(companyId, 100);
  if (waiting.length === 0) return { banner: null, card: null };
  return {
    banner: null,
    card: {
      id: 'fiscal',
      title: 'hub.fiscal.waiting',
      href: ctx.can('settings:manage') ? paths.fiscal : paths.sales,
      count: waiting.length,
      items: waiting.slice(0, LATEST).map((w) => ({
        href: paths.sale(w.documentId),
        label: ctx.fmt.dateTime(w.issuedAt),
        meta:
          w.status === 'rejected'
            ? ctx.t('hub.fiscal.rejected', { error: w.error ?? '' })
            : ctx.t('hub.fiscal.pending', { attempts: String(w.attempts) }),
      })),
    },
  };
}

/**
 * Croatian B2B e-invoices on Today (issue 33): a VAT-registered Croatian company without an
 * e-invoice exchange reads plainly that its invoices to businesses are not delivered lawfully;
 * one with an exchange sees the e-invoices that are stuck (refused, rejected, not through).
 */
async function einvoiceState(
  c: Container,
  ctx: HubContext,
  company: Company,
): Promise<{ banner: Html | null; card: Card | null }> {
  const companyId = ctx.user.companyId;
  if (company.country !== 'HR' || !company.fiscal.vatRegistered) return { banner: null, card: null };
  const state = await c.einvoiceOverview.today(companyId);
  if (!state.configured) {
    const link = ctx.can('settings:manage')
      ? html` <a href="${paths.exchange}">${ctx.t('hub.einvoice.configure')}</a>`
      : null;
    return {
      banner: html`<p class="error" id="einvoice-off">${ctx.t('hub.einvoice.unlawful')}${link}</p>`,
      card: null,
    };
  }
  if (state.stuck.length === 0) return { banner: null, card: null };
  return {
    banner: null,
    card: {
      id: 'einvoices',
      title: 'hub.today.einvoices',
      href: paths.sales,
      count: state.stuck.length,
      items: state.stuck.slice(0, LATEST).map((s) => ({
        href: paths.sale(s.saleId),
        label: `${ctx.t(`hub.einvoice.status.${s.status as 'failed'}`)} · ${ctx.fmt.dateTime(s.createdAt)}`,
        meta: s.reason ?? '',
      })),
    },
  };
}

function renderCard(ctx: HubContext, card: Card): Html {
  const { t } = ctx;
  const count = cappedText(card.count, ctx.fmt.number);
  return html`<section class="card" id="card-${card.id}" aria-labelledby="card-${card.id}-title">
  <h2 id="card-${card.id}-title">${t(card.title)}</h2>
  <p class="count">${t('hub.today.count', { count })}</p>
  ${
    card.items.length === 0
      ? html`<p>${t('hub.today.nothing')}</p>`
      : html`<ul class="latest">${card.items.map((item) => html`<li><a href="${item.href}">${item.label}</a>${item.meta ? html`<br><small>${item.meta}</small>` : null}</li>`)}</ul>`
  }
  <p><a href="${card.href}">${t('hub.today.seeAll')}<span class="sr-only">: ${t(card.title)}</span></a></p>
</section>`;
}

/** The owner's view of the money: takings of the last 30 days, open quotations' value, what invoices still owe. */
async function trendSection(
  c: Container,
  ctx: HubContext,
  known?: { timeZone: string; currency: string },
): Promise<Html> {
  const { t, fmt } = ctx;
  const trend = await c.reports.today(ctx.user.companyId, known);
  const total = trend.days.reduce((a, d) => a + d.takings, 0);
  const max = Math.max(0, ...trend.days.map((d) => d.takings));
  const chart = trendChart(trend.days, {
    title: t('hub.today.trend'),
    summary: t('hub.today.trendSummary', { total: fmt.money(total), max: fmt.money(max) }),
    day: t('hub.today.trendDay'),
    amount: t('hub.today.trendAmount'),
    money: (cents) => fmt.money(cents),
    date: (day) => formatDate(day, ctx.user.language),
  });
  return html`<section class="card trend-card" id="card-trend" aria-labelledby="card-trend-title">
  <h2 id="card-trend-title">${t('hub.today.trend')}</h2>
  ${chart}
  <dl class="facts">
    <div><dt>${t('hub.today.openQuotations')}</dt><dd id="open-quotations">${t('hub.today.openQuotationsValue', { count: fmt.number(trend.openQuotations.count), total: fmt.money(trend.openQuotations.total) })}</dd></div>
    <div><dt>${t('hub.today.unpaid')}</dt><dd id="unpaid-total">${t('hub.today.unpaidValue', { count: fmt.number(trend.unpaid.count), total: fmt.money(trend.unpaid.total) })}</dd></div>
  </dl>
  <p><a href="${paths.reports}">${t('hub.reports.link')}</a></p>
</section>`;
}
