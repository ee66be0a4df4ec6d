import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Container } from '../../../../container.ts';
import { formatMoney, MONEY_SCALE, parseScaled, decimalPoint } from '../../../../lib/money.ts';
import { html } from '../../html.ts';
import type { HubContext } from '../../hub-context.ts';
import { bodyText, formError, postForm, sendPage, submit, type FormState } from '../../form.ts';
import { paths, withNotice } from '../../paths.ts';
import { CounterSaleBody } from '../../../requests/counter-sales.ts';
import { DESK_REFUSALS, otherErrors } from './desk-form.ts';
import { heading, money } from './desk-parts.ts';
import { choicesFor, lineEditor, pickedLines, postedLines, textField, type PickedLine } from './line-picker.ts';
import { customerFieldset, textInput } from './quotation-form.page.ts';
import { locationChoice, locationSelect, rememberLocation } from './location-choice.ts';
import { helpLink } from '../help.page.ts';

/**
 * The counter: a sale to a walk-in (or directory) customer in as few keystrokes as a till takes.
 * The product search has the focus; type, Enter adds the first match (a scanner's code + Enter
 * too); Enter on the empty search goes to the cash received; Enter there issues the invoice. The
 * total and the change follow every keystroke, priced by the server as the sale will be.
 */
export const counterPages =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    app.get('/counter', { config: { hub: 'sales:counter' } }, async (request, reply) =>
      counterPage(c, reply, request.hub, {
        lines: [],
        customerId: '',
        customerLabel: '',
        method: 'cash',
        tendered: '',
      }),
    );

    app.post('/counter', { config: { hub: 'sales:counter' } }, async (request, reply) => {
      const ctx = request.hub;
      const locationId = textField(request.body, 'locationId') || undefined;
      const done = await submit(
        CounterSaleBody,
        request,
        (input) =>
          c.invoicing.sellAtCounter(
            { companyId: ctx.user.companyId, userId: ctx.user.userId },
            {
              lines: input.lines,
              customerId: input.customerId ?? null,
              paymentMethod: input.paymentMethod,
              tendered: input.tendered ?? null,
              ...(input.locationId ? { locationId: input.locationId } : {}),
            },
          ),
        { ...DESK_REFUSALS, read: (_fields, body) => readCounterForm(body) },
      );
      if (done.ok) {
        await rememberLocation(c, ctx, locationId);
        return reply.redirect(withNotice(paths.sale(done.result.id), 'sold'), 303);
      }
      return counterPage(c, reply, ctx, {
        lines: pickedLines(request.body),
        customerId: textField(request.body, 'customerId'),
        customerLabel: textField(request.body, 'customerLabel'),
        method: textField(request.body, 'paymentMethod') === 'card' ? 'card' : 'cash',
        tendered: textField(request.body, 'tendered'),
        locationId,
        state: done.state,
        status: done.status,
      });
    });

    // The live total and change: the form as it stands, priced as the sale will be; nothing stored.
    app.post('/counter/total', { config: { hub: 'sales:counter' } }, async (request, reply) => {
      const ctx = request.hub;
      const lines = postedLines(request.body).flatMap((l) =>
        typeof l.quantity === 'number' && (l.discountPercent === undefined || typeof l.discountPercent === 'number')
          ? [
              {
                productId: String(l.productId),
                unitId: String(l.unitId),
                quantity: l.quantity,
                ...(l.discountPercent === undefined ? {} : { discountPercent: l.discountPercent as number }),
              },
            ]
          : [],
      );
      const total = await c.invoicing.priceAtCounter(ctx.user.companyId, lines);
      const cash = bodyText(request.body, 'paymentMethod') !== 'card';
      return reply
        .type('text/html; charset=utf-8')
        .send(String(totalBlock(ctx, total, cash ? bodyText(request.body, 'tendered') : '')));
    });
  };

function readCounterForm(body: unknown): Record<string, unknown> {
  const customerId = textField(body, 'customerId');
  const method = textField(body, 'paymentMethod');
  const tendered = decimalPoint(textField(body, 'tendered'));
  const locationId = textField(body, 'locationId');
  return {
    ...(locationId ? { locationId } : {}),
    lines: postedLines(body),
    ...(customerId ? { customerId } : {}),
    paymentMethod: method,
    ...(tendered && method === 'cash' ? { tendered } : {}),
  };
}

/** The total, and with cash what was received and the change (or what is missing). */
function totalBlock(ctx: HubContext, totalMinor: number | null, tenderedText: string) {
  const { t } = ctx;
  let tendered: number | null = null;
  try {
    tendered = tenderedText.trim() === '' ? null : Number(parseScaled(decimalPoint(tenderedText.trim()), MONEY_SCALE));
  } catch {
    tendered = null;
  }
  const change = totalMinor === null || tendered === null ? null : tendered - totalMinor;
  return html`<dl class="facts totals counter-totals">
<dt>${t('hub.counter.total')}</dt><dd data-total><strong>${totalMinor === null ? '…' : money(ctx, formatMoney(totalMinor))}</strong></dd>
${
  change === null
    ? null
    : change >= 0
      ? html`<dt>${t('hub.counter.change')}</dt><dd data-change><strong>${money(ctx, formatMoney(change))}</strong></dd>`
      : html`<dt>${t('hub.counter.change')}</dt><dd data-change class="error">${t('hub.counter.short', { amount: money(ctx, formatMoney(-change)) })}</dd>`
}
</dl>`;
}

async function counterPage(
  c: Container,
  reply: FastifyReply,
  ctx: HubContext,
  opts: {
    lines: PickedLine[];
    customerId: string;
    customerLabel: string;
    method: 'cash' | 'card';
    tendered: string;
    locationId?: string;
    state?: FormState;
    status?: number;
  },
): Promise<FastifyReply> {
  const { t } = ctx;
  const errors = opts.state?.errors;
  const [choices, company, location] = await Promise.all([
    choicesFor(c, ctx.user.companyId, opts.lines),
    c.companies.getCompany(ctx.user.companyId),
    locationChoice(c, ctx, opts.locationId),
  ]);
  const shown = [
    ...Object.keys(errors ?? {}).filter((p) => p.startsWith('lines')),
    'customerId',
    'paymentMethod',
    'tendered',
    'locationId',
  ];
  const body = html`${heading(t('hub.counter.title'), false)}${helpLink(ctx, 'counter')}
${formError(t, opts.state)}
${otherErrors(errors, shown)}
${postForm(ctx, paths.counter, html` class="make-document counter" id="counter-form" data-counter`)}
${locationSelect(ctx, location)}
${lineEditor(ctx, opts.lines, choices, errors, { autofocus: true })}
<p class="muted">${t('hub.counter.hint')} <strong>${t(company.pricesIncludeTax ? 'hub.prices.basisGross' : 'hub.prices.basisNet')}</strong></p>
<fieldset class="payment">
<legend>${t('hub.counter.payment')}</legend>
<div class="row" role="radiogroup" aria-label="${t('hub.counter.payment')}">
  <label><input type="radio" name="paymentMethod" value="cash"${opts.method === 'cash' ? html` checked` : null}> ${t('hub.counter.cash')}</label>
  <label><input type="radio" name="paymentMethod" value="card"${opts.method === 'card' ? html` checked` : null}> ${t('hub.counter.card')}</label>
</div>
${textInput('tendered', t('hub.counter.tendered'), opts.tendered, errors?.tendered, { inputmode: 'decimal', autocomplete: 'off' })}
<div id="counter-total" aria-live="polite" hx-post="${paths.counterTotal}" hx-include="#counter-form" hx-trigger="load, input from:#counter-form delay:200ms, change from:#counter-form, lines-changed from:body" hx-swap="innerHTML">${totalBlock(ctx, null, '')}</div>
</fieldset>
${customerFieldset(ctx, { customerId: opts.customerId, customerLabel: opts.customerLabel, name: '', email: '', phone: '' }, errors, t('hub.counter.customer'), { typed: false, hint: t('hub.make.walkIn') })}
${company.country === 'HR' ? html`<p class="muted" id="counter-b2b">${t('hub.counter.b2bChoice')}</p>` : null}
<p><button type="submit" data-sell>${t('hub.counter.sell')}</button></p>
</form>`;
  return sendPage(reply, ctx, { title: t('hub.counter.title'), body, status: opts.status ?? 200 });
}
