import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import formbody from '@fastify/formbody';
import type { Container } from '../../container.ts';
import { AppError } from '../../lib/errors.ts';
import { MONEY_SCALE, parseScaled, RATE_SCALE } from '../../lib/money.ts';
import { createFormatter, resolveLanguage, translate, type Language } from '../../modules/i18n/index.ts';
import { said } from '../request-messages.ts';
import type { CustomerAnswer, CustomerQuotation } from '../../modules/quotations/index.ts';
import { html, type Html } from '../hub/html.ts';
import { ASSETS } from '../hub/assets.ts';
import { reservePrint, sendPdf } from '../pdf-reply.ts';
import { STATUS_BY_CODE, toAppError } from '../errors.ts';
import { quotePageText, type QuotePageKey } from './quote-page-texts.ts';

type Params = { token: string };
type Errors = Partial<Record<'name' | 'reference' | 'note' | 'reason', string>>;
type Shown = Extract<CustomerQuotation, { quotation: unknown }>;

const FIELDS = {
  // `revision`: the revision the page showed, sent back by a hidden field (issue 37): an answer
  // binds to what the customer saw, never to a revision made after they opened the page.
  accept: {
    revision: { max: 10, required: false },
    name: { max: 200, required: true },
    reference: { max: 100, required: false },
    note: { max: 2000, required: false },
  },
  decline: { revision: { max: 10, required: false }, reason: { max: 2000, required: true } },
} as const;

/**
 * `/q/{token}`: the page a customer reaches from a sent quotation's e-mail. No sign-in: the
 * token is the key, and it opens this one quotation and nothing else. Accept or decline are
 * plain forms (no script), so the page works on any phone and by keyboard.
 */
export const customerQuotePage =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    await app.register(formbody, { bodyLimit: 32 * 1024 });
    app.removeContentTypeParser('application/json');
    // A page, not API: left out of the OpenAPI document, as the hub's pages are.
    app.addHook('onRoute', (route) => {
      route.schema = { ...route.schema, hide: true };
    });
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      // The token is in the address: no other site may learn it from a Referer. (Not
      // `no-referrer`: with it a browser posts the forms with `Origin: null`.)
      reply.header('referrer-policy', 'same-origin');
      reply.header('x-robots-tag', 'noindex, nofollow');
      reply.header('x-content-type-options', 'nosniff');
      reply.header(
        'content-security-policy',
        "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
      );
    });

    // Refusals as a page in the customer's language, never the API's problem+json.
    app.setErrorHandler(async (error, request, reply) => {
      const appError = toAppError(error);
      const status = STATUS_BY_CODE[appError.code];
      if (status >= 500) request.log.error({ err: error }, 'customer page failed');
      const language = resolveLanguage(request.headers['accept-language']?.split(',')[0] ?? 'hr');
      const text = quotePageText(language, status === 400 ? 'badRequest' : 'failed');
      return send(reply, language, text, html`<h1>${text}</h1>`, status);
    });

    app.get<{ Params: Params }>('/:token', async (request, reply) => {
      const shown = await c.quotationAnswers.open(request.params.token);
      return render(reply, request, shown, {});
    });

    app.get<{ Params: Params }>('/:token/pdf', async (request, reply) => {
      const shown = await c.quotationAnswers.open(request.params.token);
      if (!('quotation' in shown)) return render(reply, request, shown, {});
      const printed = await c.quotations.renderPdf(shown.link.company_id, shown.quotation.id, reservePrint(c, reply), {
        locale: shown.link.locale,
      });
      return sendPdf(reply, printed);
    });

    for (const action of ['accept', 'decline'] as const) {
      app.post<{ Params: Params }>(`/:token/${action}`, async (request, reply) => {
        // A form from another site carries another Origin: only this page answers for the customer.
        const origin = request.headers.origin;
        if (origin !== undefined && origin !== `${request.protocol}://${request.headers.host}`)
          throw new AppError('forbidden', said('error.form.crossSite'));
        const shown = await c.quotationAnswers.open(request.params.token);
        if (!('quotation' in shown)) return render(reply, request, shown, {});
        const language = resolveLanguage(shown.link.locale);
        const { values, errors } = readForm(request.body, action, language);
        if (Object.keys(errors).length > 0) return render(reply, request, shown, errors, 400, values);
        const answer: CustomerAnswer =
          action === 'accept'
            ? {
                answer: 'accepted',
                name: values.name!,
                ...(values.reference ? { reference: values.reference } : {}),
                ...(values.note ? { note: values.note } : {}),
              }
            : { answer: 'declined', reason: values.reason! };
        // A page without its revision (opened before revisions were sent back) counts as an older one.
        const shownRevision = /^[1-9]\d{0,8}$/.test(values.revision ?? '') ? Number(values.revision) : 0;
        try {
          await c.quotationAnswers.answer(request.params.token, answer, shownRevision);
        } catch (error) {
          if (error instanceof AppError && (error.code === 'quotation_not_open' || error.code === 'quotation_expired'))
            return render(reply, request, await c.quotationAnswers.open(request.params.token), {}, 409);
          // Revised since the page was opened: the new revision, to read and answer again.
          if (error instanceof AppError && error.code === 'conflict')
            return render(reply, request, await c.quotationAnswers.open(request.params.token), {}, 409, {}, 'revised');
          throw error;
        }
        return reply.redirect(`/q/${encodeURIComponent(request.params.token)}`, 303);
      });
    }
  };

/** The posted fields, trimmed; unknown fields are refused (400): nothing else can be sent along. */
function readForm(body: unknown, action: 'accept' | 'decline', language: Language) {
  const fields = FIELDS[action] as Record<string, { max: number; required: boolean }>;
  const form = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const unknown = Object.keys(form).filter((k) => !Object.hasOwn(fields, k));
  if (unknown.length > 0)
    throw AppError.invalid(
      Object.fromEntries(unknown.map((k) => [k, [said('error.form.unknownField')]])),
      said('error.form.unknownFields'),
    );
  const values: Record<string, string> = {};
  const errors: Errors = {};
  for (const [name, rule] of Object.entries(fields)) {
    const raw = form[name];
    const value = typeof raw === 'string' ? raw.trim() : '';
    values[name] = value;
    if (rule.required && value === '') errors[name as keyof Errors] = quotePageText(language, 'required');
    else if (value.length > rule.max)
      errors[name as keyof Errors] = quotePageText(language, 'tooLong', { max: rule.max });
  }
  return { values, errors };
}

function render(
  reply: FastifyReply,
  request: FastifyRequest,
  shown: CustomerQuotation,
  errors: Errors,
  status = 200,
  values: Record<string, string> = {},
  conflict: 'answered' | 'revised' = 'answered',
) {
  if (!('quotation' in shown)) {
    const language = resolveLanguage(request.headers['accept-language']?.split(',')[0] ?? 'hr');
    const [title, text]: [QuotePageKey, QuotePageKey] =
      shown.state === 'link_expired' ? ['linkExpiredTitle', 'linkExpired'] : ['unknownTitle', 'unknown'];
    const t = (k: QuotePageKey) => quotePageText(language, k);
    return send(
      reply,
      language,
      t(title),
      html`<h1>${t(title)}</h1><p>${t(text)}</p>`,
      shown.state === 'link_expired' ? 410 : 404,
    );
  }
  const language = resolveLanguage(shown.link.locale);
  return send(
    reply,
    language,
    quotePageText(language, 'title', { number: shown.quotation.number }),
    body(shown, (request.params as Params).token, language, errors, values, status === 409 ? conflict : null),
    status,
  );
}

function send(reply: FastifyReply, language: Language, title: string, main: Html, status: number) {
  const page = html`<!doctype html>
<html lang="${language}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><link rel="stylesheet" href="${ASSETS.css}"></head>
<body class="bare customer"><main id="main">${main}</main></body>
</html>`;
  return reply.status(status).type('text/html; charset=utf-8').send(page.value);
}

function body(
  shown: Shown,
  token: string,
  language: Language,
  errors: Errors,
  values: Record<string, string>,
  conflict: 'answered' | 'revised' | null,
): Html {
  const { quotation: q, company, answer } = shown;
  const t = (k: QuotePageKey, p: Record<string, string | number> = {}) => quotePageText(language, k, p);
  const fmt = createFormatter(language, { currency: q.currency, timeZone: company.timezone });
  const money = (amount: string) => fmt.money(parseScaled(amount, MONEY_SCALE));
  const percent = (rate: string) => fmt.percent(Number(parseScaled(rate, RATE_SCALE)));
  // The printed labels, as the PDF says them: the page shows what the PDF shows (issue 34).
  const p = (key: string, params: Record<string, string> = {}) =>
    (translate as (l: Language, k: string, p: Record<string, string>) => string)(language, key, params);
  const base = `/q/${encodeURIComponent(token)}`;
  const status =
    shown.state === 'answered' && answer
      ? t(answer.answer === 'accepted' ? 'accepted' : 'declined', {
          date: fmt.date(new Date(answer.at)),
          company: company.name,
        })
      : shown.state === 'expired'
        ? t('expired', { date: fmt.date(new Date(q.expiresAt)), company: company.name })
        : shown.state === 'closed'
          ? t('closed', { company: company.name })
          : null;
  const hasErrors = Object.keys(errors).length > 0;
  const field = (name: keyof Errors, label: string, kind: 'input' | 'textarea', required: boolean, max: number) => {
    const id = `f-${name}`;
    const error = errors[name];
    const describedBy = error ? html` aria-describedby="${id}-error" aria-invalid="true"` : null;
    const control =
      kind === 'input'
        ? html`<input id="${id}" name="${name}" maxlength="${max}" value="${values[name] ?? ''}"${required ? html` required autocomplete="name"` : null}${describedBy}>`
        : html`<textarea id="${id}" name="${name}" maxlength="${max}" rows="3"${required ? html` required` : null}${describedBy}>${values[name] ?? ''}</textarea>`;
    return html`<p><label for="${id}">${label}</label><br>${control}${error ? html`<br><span class="error" id="${id}-error">${error}</span>` : null}</p>`;
  };
  return html`<h1>${t('title', { number: q.number })}</h1>
<p>${t('from', { company: company.name })}</p>
${conflict === 'answered' ? html`<p class="error" role="alert">${t('conflict')}</p>` : null}
${conflict === 'revised' && shown.state === 'open' ? html`<p class="error" role="alert">${t('revised', { company: company.name, revision: q.revision })}</p>` : null}
${hasErrors ? html`<p class="error" role="alert">${t('errorSummary')}</p>` : null}
${status ? html`<p class="notice" role="status">${status}</p>` : null}
<dl class="facts">
  <dt>${t('issued')}</dt><dd>${fmt.date(new Date(q.createdAt))}</dd>
  <dt>${t('validUntil')}</dt><dd>${fmt.date(new Date(q.expiresAt))}</dd>
  <dt>${t('total')}</dt><dd><strong>${money(q.totals.withTax)}</strong></dd>
</dl>
<p><a class="button" href="${base}/pdf">${t('pdf')}</a></p>
<h2>${t('lines')}</h2>
<table tabindex="0" class="quote-lines">
<caption class="sr-only">${t('lines')}</caption>
<thead><tr><th scope="col">${p('print.column.product')}</th><th scope="col" class="num">${p('print.column.quantity')}</th><th scope="col" class="num">${p('print.column.unitPrice')}</th><th scope="col" class="num">${p('print.column.discount')}</th><th scope="col" class="num">${p('print.column.net')}</th><th scope="col" class="num">${p('print.column.taxRate')}</th><th scope="col" class="num">${t('tax')}</th><th scope="col" class="num">${p('print.column.amount')}</th></tr></thead>
<tbody>${q.lines.map(
    (l) =>
      html`<tr><td>${l.productName}${l.note ? html`<br><span class="muted">${l.note}</span>` : null}</td><td class="num">${fmt.quantity(parseScaled(l.quantity, 3))} ${l.unitName}</td><td class="num">${money(l.unitPrice)}</td><td class="num">${l.discountPercent === '0' ? '—' : percent(l.discountPercent)}</td><td class="num">${money(l.net)}</td><td class="num">${percent(l.taxRate)}</td><td class="num">${money(l.tax)}</td><td class="num">${money(l.total)}</td></tr>`,
  )}</tbody>
</table>
<dl class="facts quote-totals">
  <dt>${p('print.netTotal')}</dt><dd>${money(q.totals.net)}</dd>
  ${q.totals.taxes.map((x) =>
    parseScaled(x.rate, RATE_SCALE) === 0n
      ? html`<dt>${p('print.exemptAmount', { amount: money(x.base) })}</dt><dd>—</dd>`
      : html`<dt>${p('print.taxOnBase', { rate: percent(x.rate), base: money(x.base) })}</dt><dd>${money(x.tax)}</dd>`,
  )}
  <dt>${p('print.totalTax')}</dt><dd>${money(q.totals.tax)}</dd>
  <dt>${t('total')}</dt><dd><strong>${money(q.totals.withTax)}</strong></dd>
</dl>
${q.note ? html`<p>${q.note}</p>` : null}
${
  shown.state === 'open'
    ? html`<section aria-labelledby="accept-heading">
<h2 id="accept-heading">${t('acceptHeading')}</h2>
<p>${t('acceptIntro', { company: company.name })}</p>
<form method="post" action="${base}/accept">
<input type="hidden" name="revision" value="${q.revision}">
${field('name', t('name'), 'input', true, 200)}
${field('reference', t('reference'), 'input', false, 100)}
${field('note', t('note'), 'textarea', false, 2000)}
<p><button type="submit">${t('accept')}</button></p>
</form>
</section>
<section aria-labelledby="decline-heading">
<h2 id="decline-heading">${t('declineHeading')}</h2>
<form method="post" action="${base}/decline">
<input type="hidden" name="revision" value="${q.revision}">
${field('reason', t('reason'), 'textarea', true, 2000)}
<p><button type="submit" class="secondary">${t('decline')}</button></p>
</form>
</section>`
    : null
}`;
}
