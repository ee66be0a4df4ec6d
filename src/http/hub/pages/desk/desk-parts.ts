import type { FastifyReply } from 'fastify';
import { MONEY_SCALE, QUANTITY_SCALE, RATE_SCALE, parseScaled } from '../../../../lib/money.ts';
import type { HubMessageKey } from '../../texts/index.ts';
import type { LineView, TotalsView } from '../../../../modules/documents/index.ts';
import { html, type Html } from '../../html.ts';
import type { HubContext } from '../../hub-context.ts';
import { formFields, type NoticeKey } from '../../form.ts';
import { INVOICE_PAYMENT_METHODS, type InvoicePaymentMethod } from '../../../../modules/sales/index.ts';
import { DEFAULT_PAYMENT_METHOD } from '../../../../modules/invoicing/index.ts';

/**
 * What the sales desk pages (quotations, web orders, sales, customers) share: amounts as the
 * services give them (decimal strings) formatted with Intl, the lines and totals tables, the
 * status badge, the "next page" link and the reply itself.
 */

export const money = (ctx: HubContext, amount: string): string => ctx.fmt.money(parseScaled(amount, MONEY_SCALE));
export const quantity = (ctx: HubContext, value: string): string =>
  ctx.fmt.quantity(parseScaled(value, QUANTITY_SCALE));
export const rate = (ctx: HubContext, value: string): string => ctx.fmt.percent(Number(parseScaled(value, RATE_SCALE)));

/** A status as words in a badge (its class only adds colour): `status.<kind>.<state>` of the shared catalog. */
export function statusBadge(ctx: HubContext, kind: 'quotation' | 'order' | 'sale', state: string): Html {
  const cls = state === 'approved' || state === 'received' ? 'open' : state;
  return html`<span class="status ${cls}">${ctx.t(`status.${kind}.${state}` as HubMessageKey & `status.${string}`)}</span>`;
}

export function linesTable(ctx: HubContext, lines: readonly LineView[]): Html {
  const { t } = ctx;
  return html`<table>
<caption class="sr-only">${t('hub.desk.lines')}</caption>
<thead><tr>
  <th scope="col" class="num">${t('print.column.position')}</th><th scope="col">${t('print.column.product')}</th>
  <th scope="col" class="num">${t('print.column.quantity')}</th><th scope="col">${t('print.column.unit')}</th>
  <th scope="col" class="num">${t('print.column.unitPrice')}</th><th scope="col" class="num">${t('print.column.taxRate')}</th>
  <th scope="col" class="num">${t('print.column.net')}</th><th scope="col" class="num">${t('common.total')}</th>
</tr></thead>
<tbody>${lines.map(
    (line, i) => html`<tr>
  <td class="num">${i + 1}</td>
  <td>${line.productName}${line.productCode ? html` <span class="muted">(${line.productCode})</span>` : null}${line.note ? html`<br><span class="muted">${line.note}</span>` : null}${line.discountPercent && line.discountPercent !== '0' ? html`<br><span class="muted">${ctx.t('print.discount', { rate: rate(ctx, line.discountPercent) })}</span>` : null}</td>
  <td class="num">${quantity(ctx, line.quantity)}</td><td>${line.unitName}</td>
  <td class="num">${money(ctx, line.unitPrice)}</td><td class="num">${rate(ctx, line.taxRate)}</td>
  <td class="num">${money(ctx, line.net)}</td><td class="num">${money(ctx, line.total)}</td>
</tr>`,
  )}</tbody>
</table>`;
}

export function totalsFacts(ctx: HubContext, totals: TotalsView): Html {
  const { t } = ctx;
  return html`<dl class="facts totals">
  <dt>${t('print.netTotal')}</dt><dd>${money(ctx, totals.net)}</dd>
  ${totals.taxes.map((tax) => html`<dt>${t('print.taxOnBase', { rate: rate(ctx, tax.rate), base: money(ctx, tax.base) })}</dt><dd>${money(ctx, tax.tax)}</dd>`)}
  <dt>${t('print.totalTax')}</dt><dd>${money(ctx, totals.tax)}</dd>
  <dt>${t('common.total')}</dt><dd><strong>${money(ctx, totals.withTax)}</strong></dd>
</dl>`;
}

/** The link to the next keyset page, keeping the page's filters. */
export function nextPageLink(
  path: string,
  filters: Record<string, string | undefined>,
  nextCursor: string | null,
  label: string,
): Html | null {
  if (!nextCursor) return null;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
  params.set('cursor', nextCursor);
  return html`<p><a href="${path}?${params.toString()}" rel="next">${label}</a></p>`;
}

/** The notices a desk redirect may name (`?notice=<key>`). */
export const DESK_NOTICES = {
  assigned: 'hub.desk.notice.assigned',
  converted: 'hub.desk.notice.converted',
  cancelled: 'hub.desk.notice.cancelled',
  accepted: 'hub.desk.notice.accepted',
  paid: 'hub.desk.notice.paid',
  created: 'hub.desk.notice.created',
  saved: 'hub.desk.notice.saved',
  madeQuotation: 'hub.make.notice.made',
  revised: 'hub.make.notice.revised',
  sold: 'hub.counter.notice.sold',
  sent: 'hub.mail.queued',
} as const satisfies Record<string, NoticeKey>;

/**
 * The heading of a page; after a redirect with a notice it takes the focus, so a keyboard or
 * screen reader user lands on what happened rather than at the top of the navigation.
 */
export function heading(text: string | Html, focus: boolean): Html {
  return focus
    ? html`<h1 id="page-title" tabindex="-1" autofocus>${text}</h1>`
    : html`<h1 id="page-title">${text}</h1>`;
}

/** A printed document: shown in the page's frame, or saved as a file with `download`. */
export function sendDocumentPdf(
  reply: FastifyReply,
  printed: { number: string; pdf: Buffer },
  download: boolean,
): FastifyReply {
  return reply
    .type('application/pdf')
    .header('content-disposition', `${download ? 'attachment' : 'inline'}; filename="${printed.number}.pdf"`)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; frame-ancestors 'self'")
    .send(printed.pdf);
}

/**
 * htmx on a list's filter form: the results follow the typing (and the address bar follows the
 * results) without a reload; the form still works as a plain GET without script.
 */
export function liveFilter(path: string, fieldIds: readonly string[]): Html {
  const triggers = [
    'submit',
    ...fieldIds.map((id) => `input changed delay:400ms from:#${id}`),
    ...fieldIds.map((id) => `change from:#${id}`),
  ].join(', ');
  return html` hx-get="${path}" hx-target="#results" hx-select="#results" hx-swap="outerHTML" hx-push-url="true" hx-trigger="${triggers}"`;
}

/** The invoice's payment method, chosen when converting (bank transfer preselected, as the admin API's default). */
export function paymentMethodSelect(ctx: HubContext): Html {
  const { t } = ctx;
  return html`<p><label for="paymentMethod">${t('print.paymentMethod')}</label><br><select id="paymentMethod" name="paymentMethod">
${INVOICE_PAYMENT_METHODS.map((m) => html`<option value="${m}"${m === DEFAULT_PAYMENT_METHOD ? html` selected` : null}>${t(`payment.method.${m}`)}</option>`)}
</select></p>`;
}

/** The payment method a convert form posted; anything else is the default. */
export function paymentMethodOf(body: unknown): InvoicePaymentMethod {
  const value = formFields(body).paymentMethod;
  return (INVOICE_PAYMENT_METHODS as readonly string[]).includes(value ?? '')
    ? (value as InvoicePaymentMethod)
    : DEFAULT_PAYMENT_METHOD;
}
