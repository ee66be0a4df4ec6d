import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Container } from '../../../../container.ts';
import { AppError } from '../../../../lib/errors.ts';
import { decimalPoint } from '../../../../lib/money.ts';
import { EURO_DENOMINATIONS, type DayReport } from '../../../../modules/till/index.ts';
import { html, type Html } from '../../html.ts';
import type { HubContext } from '../../hub-context.ts';
import { formError, noticeOf, postForm, sendPage, submit, type FormState } from '../../form.ts';
import { paths, withNotice, withQuery } from '../../paths.ts';
import { reservePrint } from '../../../pdf-reply.ts';
import { CloseDrawerBody, DrawerMovementBody, OpenDrawerBody } from '../../../requests/drawer.ts';
import { heading, money, sendDocumentPdf } from './desk-parts.ts';
import { textInput } from './quotation-form.page.ts';
import { locationChoice, rememberLocation } from './location-choice.ts';
import { helpLink } from '../help.page.ts';

const NOTICES = { opened: 'hub.drawer.opened', moved: 'hub.drawer.moved', closed: 'hub.drawer.closed' } as const;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A denomination's field name: `d-5000` for the 50 € note. */
const denominationField = (cents: number) => `d-${cents}`;
const euros = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/**
 * The cash drawer of a location, as the counter staff use it: open with a float, cash in and
 * out with a reason, close with a count by denomination; the day report after closing, printed
 * on A4 or 80 mm. Admins see every drawer open now. The pages call the same service as the admin API.
 */
export const drawerPages =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    app.get<{ Querystring: { locationId?: string; notice?: string } }>(
      '/drawer',
      { config: { hub: 'drawer:operate' } },
      async (request, reply) =>
        drawerPage(c, reply, request.hub, { locationId: request.query.locationId, query: request.query }),
    );

    const action = (
      name: 'open' | 'movements' | 'close',
      notice: keyof typeof NOTICES,
      run: (
        ctx: HubContext,
        locationId: string,
        body: unknown,
      ) => Promise<{ ok: true } | { ok: false; state: FormState; status: number }>,
    ) =>
      app.post(`/drawer/${name}`, { config: { hub: 'drawer:operate' } }, async (request, reply) => {
        const ctx = request.hub;
        const locationId = String((request.body as Record<string, unknown> | null)?.locationId ?? '');
        const done = await run(ctx, locationId, request.body);
        if (done.ok) {
          await rememberLocation(c, ctx, locationId);
          return reply.redirect(withNotice(withQuery(paths.drawer, { locationId }), notice), 303);
        }
        return drawerPage(c, reply, ctx, { locationId, state: done.state, status: done.status });
      });

    const actor = (ctx: HubContext) => ({ companyId: ctx.user.companyId, userId: ctx.user.userId });
    action('open', 'opened', async (ctx, locationId, body) => {
      const done = await submit(
        OpenDrawerBody,
        { body, hub: ctx },
        (input) => c.till.open(actor(ctx), locationId, input),
        {
          form: 'open',
          read: (f) => ({ float: decimalPoint(String(f.float ?? '')) }),
        },
      );
      return done.ok ? { ok: true } : done;
    });
    action('movements', 'moved', async (ctx, locationId, body) => {
      const done = await submit(
        DrawerMovementBody,
        { body, hub: ctx },
        (input) => c.till.move(actor(ctx), locationId, input),
        {
          form: 'movement',
          read: (f) => ({ kind: f.kind, amount: decimalPoint(String(f.amount ?? '')), reason: f.reason ?? '' }),
        },
      );
      return done.ok ? { ok: true } : done;
    });
    action('close', 'closed', async (ctx, locationId, body) => {
      const done = await submit(
        CloseDrawerBody,
        { body, hub: ctx },
        (input) => c.till.close(actor(ctx), locationId, input),
        {
          form: 'close',
          read: (f) => {
            const denominations: Record<string, number> = {};
            for (const d of EURO_DENOMINATIONS) {
              const typed = String(f[denominationField(d)] ?? '').trim();
              if (typed !== '') denominations[euros(d)] = /^\d+$/.test(typed) ? Number(typed) : Number.NaN;
            }
            const counted = decimalPoint(String(f.counted ?? '').trim());
            return {
              ...(counted ? { counted } : {}),
              ...(Object.keys(denominations).length > 0 ? { denominations } : {}),
            };
          },
        },
      );
      return done.ok ? { ok: true } : done;
    });

    app.get<{ Params: { locationId: string; date: string } }>(
      '/drawer/days/:locationId/:date',
      { config: { hub: 'drawer:operate' } },
      async (request, reply) => {
        const ctx = request.hub;
        const { locationId, date } = request.params;
        if (!DAY.test(date)) throw AppError.notFound('Drawer day');
        const [report, location] = await Promise.all([
          c.till.day(ctx.user.companyId, locationId, date),
          c.companies.getLocation(ctx.user.companyId, locationId),
        ]);
        const title = ctx.t('hub.drawer.report', { location: location.name, date: ctx.fmt.date(date) });
        const body = html`${heading(title, false)}
${reportBlock(ctx, report)}
<ul class="actions">
<li><a href="${paths.drawerDayPdf(locationId, date)}">${ctx.t('hub.drawer.pdfA4')}</a></li>
<li><a href="${withQuery(paths.drawerDayPdf(locationId, date), { layout: 'receipt' })}">${ctx.t('hub.drawer.pdfReceipt')}</a></li>
</ul>
<p><a href="${withQuery(paths.drawer, { locationId })}">${ctx.t('hub.drawer.title')}</a></p>`;
        return sendPage(reply, ctx, { title, body });
      },
    );

    app.get<{ Params: { locationId: string; date: string }; Querystring: { layout?: string; download?: string } }>(
      '/drawer/days/:locationId/:date/pdf',
      { config: { hub: 'drawer:operate' } },
      async (request, reply) => {
        const { locationId, date } = request.params;
        if (!DAY.test(date)) throw AppError.notFound('Drawer day');
        const printed = await c.till.renderDay(
          request.hub.user.companyId,
          locationId,
          date,
          request.query.layout === 'receipt' ? 'receipt' : 'a4',
          reservePrint(c, reply),
        );
        return sendDocumentPdf(reply, printed, Boolean(request.query.download));
      },
    );
  };

/** The figures of a day: the cash reckoning, by method and rate, the documents, the movements. */
function reportBlock(ctx: HubContext, r: DayReport): Html {
  const { t } = ctx;
  return html`<dl class="facts">
<dt>${t('print.day.device')}</dt><dd data-till>${r.premises} / ${r.device}</dd>
<dt>${t('hub.drawer.float.short')}</dt><dd>${money(ctx, r.float)}</dd>
<dt>${t('hub.drawer.cashIn')}</dt><dd>${money(ctx, r.cashIn)}</dd>
<dt>${t('hub.drawer.cashOut')}</dt><dd>${money(ctx, r.cashOut)}</dd>
<dt>${t('hub.drawer.cashSales')}</dt><dd>${money(ctx, r.cashSales)}</dd>
<dt>${t('hub.drawer.cashRefunds')}</dt><dd>${money(ctx, r.cashRefunds)}</dd>
<dt>${t('hub.drawer.expected')}</dt><dd data-expected><strong>${money(ctx, r.expected)}</strong></dd>
${
  r.counted === null
    ? null
    : html`<dt>${t('hub.drawer.counted')}</dt><dd data-counted>${money(ctx, r.counted)}</dd>
<dt>${t('hub.drawer.difference')}</dt><dd data-difference${r.difference !== '0.00' ? html` class="error"` : null}><strong>${money(ctx, r.difference!)}</strong></dd>`
}
</dl>
<p>${r.documents.first ? t('hub.drawer.documents', { first: r.documents.first, last: r.documents.last!, count: r.documents.count }) : t('hub.drawer.noDocuments')}</p>
${
  r.byMethod.length === 0
    ? null
    : html`<div class="table-box"><table class="fit"><caption>${t('hub.drawer.byMethod')}</caption>
<thead><tr><th scope="col">${t('hub.drawer.method')}</th><th scope="col" class="num">${t('hub.drawer.sales')}</th><th scope="col" class="num">${t('hub.drawer.refunds')}</th></tr></thead>
<tbody>${r.byMethod.map((m) => html`<tr><th scope="row">${t(`payment.method.${m.method}` as 'payment.method.cash')}</th><td class="num">${money(ctx, m.sales)}</td><td class="num">${money(ctx, m.refunds)}</td></tr>`)}</tbody></table></div>`
}
${
  r.byRate.length === 0
    ? null
    : html`<div class="table-box"><table class="fit"><caption>${t('hub.drawer.byRate')}</caption>
<thead><tr><th scope="col">${t('hub.drawer.rate')}</th><th scope="col" class="num">${t('print.netTotal')}</th><th scope="col" class="num">${t('print.totalTax')}</th><th scope="col" class="num">${t('hub.counter.total')}</th></tr></thead>
<tbody>${r.byRate.map((x) => html`<tr><th scope="row">${ctx.fmt.percent(Math.round(Number(x.rate) * 100))}</th><td class="num">${money(ctx, x.net)}</td><td class="num">${money(ctx, x.tax)}</td><td class="num">${money(ctx, x.total)}</td></tr>`)}</tbody></table></div>`
}
<h2>${t('hub.drawer.movements')}</h2>
${
  r.movements.length === 0
    ? html`<p class="muted">${t('hub.drawer.noMovements')}</p>`
    : html`<ul>${r.movements.map((m) => html`<li>${ctx.fmt.dateTime(m.at)} · ${t(m.kind === 'in' ? 'hub.drawer.kind.in' : 'hub.drawer.kind.out')} ${money(ctx, m.amount)}: ${m.reason}</li>`)}</ul>`
}`;
}

async function drawerPage(
  c: Container,
  reply: FastifyReply,
  ctx: HubContext,
  opts: { locationId?: string; state?: FormState; status?: number; query?: unknown },
): Promise<FastifyReply> {
  const { t } = ctx;
  const companyId = ctx.user.companyId;
  const choice = await locationChoice(c, ctx, opts.locationId);
  const locationId = choice.chosen || choice.locations[0]?.id || '';
  const [current, today, everyOpen] = await Promise.all([
    c.till.current(companyId, locationId).catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'not_found') return null;
      throw error;
    }),
    c.till.today(companyId),
    ctx.can('drawer:overview') ? c.till.openDrawers(companyId) : Promise.resolve(null),
  ]);
  const closedToday = current ? null : await c.till.closedDay(companyId, locationId, today);
  const state = (form: string) => (opts.state?.form === form ? opts.state : undefined);
  const errors = (form: string) => state(form)?.errors;
  const value = (form: string, name: string) => state(form)?.values[name] ?? '';
  const hidden = html`<input type="hidden" name="locationId" value="${locationId}">`;
  const picker =
    choice.locations.length < 2
      ? null
      : html`<form method="get" action="${paths.drawer}" class="row"><label for="drawer-location">${t('hub.drawer.location')}</label>
<select id="drawer-location" name="locationId">${choice.locations.map((l) => html`<option value="${l.id}"${l.id === locationId ? html` selected` : null}>${l.name} (${l.fiscalPremises ?? l.code})</option>`)}</select>
<button type="submit">${t('hub.drawer.show')}</button></form>`;

  let main: Html;
  if (current) {
    main = html`<p>${t('hub.drawer.openedAt', { at: ctx.fmt.dateTime(current.openedAt) })}</p>
${reportBlock(ctx, current)}
<h2>${t('hub.drawer.movement')}</h2>
${formError(t, state('movement'))}
${postForm(ctx, paths.drawerAction('movements'), html` class="drawer-movement"`)}${hidden}
<div class="row" role="radiogroup" aria-label="${t('hub.drawer.movement')}">
<label><input type="radio" name="kind" value="out"${value('movement', 'kind') !== 'in' ? html` checked` : null}> ${t('hub.drawer.kind.out')}</label>
<label><input type="radio" name="kind" value="in"${value('movement', 'kind') === 'in' ? html` checked` : null}> ${t('hub.drawer.kind.in')}</label>
</div>
${textInput('amount', t('hub.drawer.amount'), value('movement', 'amount'), errors('movement')?.amount, { inputmode: 'decimal', autocomplete: 'off' })}
${textInput('reason', t('hub.drawer.reason'), value('movement', 'reason'), errors('movement')?.reason, { maxlength: 500 })}
<p><button type="submit">${t('hub.drawer.record')}</button></p>
</form>
<h2>${t('hub.drawer.close')}</h2>
${formError(t, state('close'))}
${postForm(ctx, paths.drawerAction('close'), html` class="drawer-close" data-drawer-count`)}${hidden}
<p class="muted">${t('hub.drawer.countHint')}</p>
${errors('close')?.denominations ? html`<p class="error" role="alert">${errors('close')!.denominations!.join(' ')}</p>` : null}
<div class="denominations">${EURO_DENOMINATIONS.map(
      (d) =>
        html`<div class="field"><label for="f-${denominationField(d)}">${ctx.fmt.money(d)}</label><input type="number" min="0" step="1" inputmode="numeric" id="f-${denominationField(d)}" name="${denominationField(d)}" value="${value('close', denominationField(d))}" data-denomination="${d}"></div>`,
    )}</div>
${textInput('counted', t('hub.drawer.countedTotal'), value('close', 'counted'), errors('close')?.counted, { inputmode: 'decimal', autocomplete: 'off' })}
<p><button type="submit" data-close-drawer>${t('hub.drawer.closeButton')}</button></p>
</form>`;
  } else {
    main = html`${
      closedToday
        ? html`<p>${t('hub.drawer.closedToday', { at: ctx.fmt.dateTime(closedToday.closedAt!) })} <a href="${paths.drawerDay(locationId, today)}">${t('hub.drawer.report', { location: choice.locations.find((l) => l.id === locationId)?.name ?? '', date: ctx.fmt.date(today) })}</a></p>`
        : html`<p>${t('hub.drawer.notOpen')}</p>`
    }
${
  closedToday
    ? null
    : html`${formError(t, state('open'))}
${postForm(ctx, paths.drawerAction('open'), html` class="drawer-open"`)}${hidden}
${textInput('float', t('hub.drawer.float'), value('open', 'float'), errors('open')?.float, { inputmode: 'decimal', autocomplete: 'off' })}
<p><button type="submit">${t('hub.drawer.open')}</button></p>
</form>`
}`;
  }
  const overview = everyOpen
    ? html`<h2>${t('hub.drawer.everyDrawer')}</h2>
${
  everyOpen.length === 0
    ? html`<p class="muted">${t('hub.drawer.noneOpen')}</p>`
    : html`<ul>${everyOpen.map((d) => {
        const l = choice.locations.find((x) => x.id === d.locationId);
        return html`<li><a href="${withQuery(paths.drawer, { locationId: d.locationId })}">${l?.name ?? d.locationId}</a>: ${t('hub.drawer.expected')} ${money(ctx, d.expected)}</li>`;
      })}</ul>`
}`
    : null;
  const body = html`${heading(t('hub.drawer.title'), false)}${helpLink(ctx, 'drawer')}
${picker}
${main}
${overview}`;
  return sendPage(reply, ctx, {
    title: t('hub.drawer.title'),
    body,
    notice: opts.query ? noticeOf(ctx, opts.query, NOTICES) : null,
    status: opts.status ?? 200,
  });
}
