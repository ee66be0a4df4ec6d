import type { FastifyPluginAsync } from 'fastify';
import { said } from '../../../request-messages.ts';
import type { Container } from '../../../../container.ts';
import { AppError } from '../../../../lib/errors.ts';
import { isQuotationOpen, mayConvertQuotation } from '../../../../modules/quotations/index.ts';
import { html } from '../../html.ts';
import type { HubContext } from '../../hub-context.ts';
import type { ConversionLine } from '../../../../modules/sales/index.ts';
import { postForm, formFields, sendPage } from '../../form.ts';
import { heading, money, paymentMethodOf, paymentMethodSelect, quantity, rate } from './desk-parts.ts';
import { paths, withNotice } from '../../paths.ts';

type IdParams = { id: string };

/**
 * Converting a quotation: first what it would give (quoted against today's prices, line by
 * line), then one button. The page is built to be used by keyboard alone: the table, then the
 * button, in reading order, and the sale's page takes the focus after the redirect.
 */
export const conversionPage =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    app.get<{ Params: IdParams }>(
      '/quotations/:id/conversion',
      { config: { hub: 'quotations:read' } },
      async (request, reply) => {
        const ctx = request.hub;
        const { t } = ctx;
        const { companyId } = ctx.user;
        const quotation = await c.quotations.get(companyId, request.params.id);
        const preview = await c.quotations.conversionPreview(companyId, quotation.id);
        const base = paths.quotation(quotation.id);
        const open = isQuotationOpen(quotation.status);
        const reprice = preview.expired && ctx.can('quotations:reprice');
        const canConvert =
          mayConvertQuotation(
            { status: quotation.status, expired: preview.expired },
            { handle: ctx.can('quotations:handle'), reprice },
          ) &&
          quotation.directoryCustomer !== null &&
          (!reprice || preview.currentTotal !== null);
        const title = t('hub.desk.conversion.title', { number: quotation.number });
        const body = html`${heading(title, false)}
<table>
<caption>${t('hub.desk.conversion.caption')}</caption>
<thead><tr>
  <th scope="col" class="num">${t('print.column.position')}</th><th scope="col">${t('print.column.product')}</th>
  <th scope="col" class="num">${t('print.column.quantity')}</th><th scope="col">${t('print.column.unit')}</th>
  <th scope="col" class="num">${t('hub.desk.conversion.quoted')}</th><th scope="col" class="num">${t('hub.desk.conversion.current')}</th>
  <th scope="col" class="num">${t('print.column.discount')}</th>
  <th scope="col" class="num">${t('hub.conversion.quotedLine')}</th><th scope="col" class="num">${t('hub.conversion.currentLine')}</th>
  <th scope="col">${t('hub.desk.conversion.change')}</th>
</tr></thead>
<tbody>${preview.lines.map(
          (line) => html`<tr>
  <td class="num">${line.position}</td><td>${line.productName}</td><td class="num">${quantity(ctx, line.quantity)}</td><td>${line.unitName}</td>
  <td class="num">${money(ctx, line.quotedUnitPrice)}</td>
  <td class="num">${line.currentUnitPrice === null ? '—' : money(ctx, line.currentUnitPrice)}</td>
  <td class="num">${line.discountPercent === '0' ? '—' : rate(ctx, line.discountPercent)}</td>
  <td class="num">${money(ctx, line.quotedLineTotal)}</td>
  <td class="num">${line.currentLineTotal === null ? '—' : money(ctx, line.currentLineTotal)}</td>
  <td>${line.change === 'unchanged' ? t('hub.desk.change.unchanged') : html`<strong>${t(`hub.desk.change.${line.change}`)}</strong>`}</td>
</tr>`,
        )}</tbody>
</table>
${changedLines(ctx, preview.lines)}
<dl class="facts">
  <dt>${t('hub.desk.conversion.quotedTotal')}</dt><dd>${money(ctx, preview.quotedTotal)}</dd>
  <dt>${t('hub.desk.conversion.currentTotal')}</dt><dd>${preview.currentTotal === null ? t('hub.desk.conversion.unpriceable') : money(ctx, preview.currentTotal)}</dd>
</dl>
${!open ? html`<p>${t('hub.desk.notOpen')}</p>` : null}
${open && preview.expired ? html`<p>${reprice ? t('hub.desk.conversion.repriceNote') : t('hub.desk.expiredAdminOnly')}</p>` : null}
${open && quotation.directoryCustomer === null && ctx.can('quotations:handle') ? html`<p>${t('hub.desk.assignFirst')} <a href="${base}/customer">${t('action.assignCustomer')}</a></p>` : null}
${open && quotation.directoryCustomer ? html`<p>${t('hub.desk.conversion.customer', { name: quotation.directoryCustomer.name })}</p>` : null}
${
  canConvert
    ? html`${postForm(ctx, `${base}/convert`)}
${reprice ? html`<input type="hidden" name="reprice" value="true">` : null}
${paymentMethodSelect(ctx)}
<button type="submit">${reprice ? t('hub.desk.conversion.convertRepriced') : t('action.convert')}</button>
</form>`
    : null
}
<p><a href="${base}">${t('action.back')}</a></p>`;
        return sendPage(reply, ctx, { title, body });
      },
    );

    app.post<{ Params: IdParams }>(
      '/quotations/:id/convert',
      { config: { hub: 'quotations:handle' } },
      async (request, reply) => {
        const ctx = request.hub;
        const reprice = formFields(request.body).reprice === 'true';
        if (reprice && !ctx.can('quotations:reprice')) throw new AppError('forbidden', said('error.reprice.adminOnly'));
        const quotation = await c.quotations.get(ctx.user.companyId, request.params.id);
        // A second press of the button (or a reload of the POST) lands on the sale the first made.
        if (quotation.status === 'converted' && quotation.saleId)
          return reply.redirect(paths.sale(quotation.saleId), 303);
        const sale = await c.quotations.convert(
          { companyId: ctx.user.companyId, userId: ctx.user.userId },
          quotation.id,
          { reprice, paymentMethod: paymentMethodOf(request.body) },
        );
        return reply.redirect(withNotice(paths.sale(sale.id), 'converted'), 303);
      },
    );
  };

/** The lines that changed since the quotation, named, so nobody reads every row to find them. */
function changedLines(ctx: HubContext, lines: readonly ConversionLine[]) {
  const changed = lines.filter((l) => l.change !== 'unchanged');
  if (changed.length === 0) return html`<p>${ctx.t('hub.conversion.noChange')}</p>`;
  return html`<p>${ctx.t('hub.conversion.changed')}</p><ul>${changed.map(
    (l) => html`<li>${l.position}. ${l.productName}: ${ctx.t(`hub.desk.change.${l.change}`)}</li>`,
  )}</ul>`;
}
