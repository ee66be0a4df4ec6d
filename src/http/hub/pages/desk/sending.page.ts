import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Container } from '../../../../container.ts';
import { LANGUAGES, type Language } from '../../../../modules/i18n/index.ts';
import type { SendingView } from '../../../../modules/mailing/index.ts';
import { SendBody } from '../../../requests/mail.ts';
import { baseUrl } from '../../../base-url.ts';
import { html, type Html } from '../../html.ts';
import type { HubContext } from '../../hub-context.ts';
import { field, postForm, sendPage, submit, type FormState } from '../../form.ts';
import { paths, withNotice } from '../../paths.ts';
import { heading } from './desk-parts.ts';

type Kind = 'quotation' | 'sale';
type IdParams = { id: string };

/** What the send form needs to know of the document: its number, and where and in which language an e-mail goes by default. */
interface Sendable {
  id: string;
  number: string;
  defaultTo: string | null;
  language: Language;
}

/**
 * "Send by e-mail" for quotations and sales (invoices, cancellations, credit notes): a page of
 * its own with the form, the same service as `POST …/send` of the admin API.
 */
export const sendingPages =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    async function sendable(ctx: HubContext, kind: Kind, id: string): Promise<Sendable> {
      const companyId = ctx.user.companyId;
      if (kind === 'sale') {
        const sale = await c.sales.get(companyId, id);
        const defaults = await c.documentMail.defaults(companyId, sale, kind);
        return {
          id: sale.id,
          number: sale.invoiceNumber ?? sale.number,
          defaultTo: defaults.to,
          language: defaults.language,
        };
      }
      const q = await c.quotations.get(companyId, id);
      const defaults = await c.documentMail.defaults(companyId, q, kind);
      return { id: q.id, number: q.number, defaultTo: defaults.to, language: defaults.language };
    }

    for (const kind of ['quotation', 'sale'] as const) {
      const folder = kind === 'quotation' ? 'quotations' : 'sales';
      app.get<{ Params: IdParams }>(
        `/${folder}/:id/send`,
        { config: { hub: 'documents:send' } },
        async (request, reply) => {
          const ctx = request.hub;
          return sendForm(reply, ctx, kind, await sendable(ctx, kind, request.params.id));
        },
      );
      app.post<{ Params: IdParams }>(
        `/${folder}/:id/send`,
        { config: { hub: 'documents:send' } },
        async (request, reply) => {
          const ctx = request.hub;
          const doc = await sendable(ctx, kind, request.params.id);
          const done = await submit(
            SendBody,
            request,
            (input) =>
              c.documentMail.send(
                { companyId: ctx.user.companyId, userId: ctx.user.userId },
                { type: kind, id: doc.id },
                input,
                baseUrl(c.config, request),
              ),
            {
              read: (f) => ({
                ...(f.to ? { to: f.to } : {}),
                ...(f.message ? { message: f.message } : {}),
                ...(f.locale ? { locale: f.locale } : {}),
                ...(f.includeDatasheets ? { includeDatasheets: true } : {}),
              }),
              refusals: ['validation_failed', 'conflict', 'quotation_not_open', 'unavailable'],
            },
          );
          if (!done.ok) return sendForm(reply, ctx, kind, doc, done.state, done.status);
          return reply.redirect(`${withNotice(paths.document(kind, doc.id), 'sent')}#sendings-heading`, 303);
        },
      );
    }
  };

function sendForm(reply: FastifyReply, ctx: HubContext, kind: Kind, doc: Sendable, state?: FormState, status = 200) {
  const { t } = ctx;
  const title = t('hub.mail.sendTitle', { number: doc.number });
  // The language preselected is the customer's (the company's when the customer has none).
  const view = { id: 'send', schema: SendBody, state, values: { locale: doc.language } };
  const languages = LANGUAGES.map((l) => ({
    value: l,
    label: new Intl.DisplayNames([ctx.user.language], { type: 'language' }).of(l) ?? l,
  }));
  const body = html`${heading(title, false)}
${state?.message ? html`<p class="error" role="alert">${state.message}</p>` : null}
${postForm(ctx, `${paths.document(kind, doc.id)}/send`, html` class="stack"`)}
${field(view, 'to', { label: t('hub.mail.to'), type: 'email', autocomplete: 'email', required: doc.defaultTo === null })}
<p class="muted" id="send-to-hint">${doc.defaultTo ? t('hub.mail.toHint', { email: doc.defaultTo }) : t('hub.mail.toNone')}</p>
${field(view, 'locale', { label: t('hub.mail.locale'), control: 'select', options: languages })}
${field(view, 'message', { label: t('hub.mail.message'), control: 'textarea' })}
${kind === 'quotation' ? html`<p><label><input type="checkbox" name="includeDatasheets" value="on"${state?.values.includeDatasheets ? html` checked` : null}> ${t('hub.mail.datasheets')}</label></p>` : null}
<p><button type="submit">${t('hub.mail.submit')}</button> <a href="${paths.document(kind, doc.id)}">${t('action.back')}</a></p>
</form>`;
  return sendPage(reply, ctx, { title, body, status });
}

/** A document's sendings: when, by whom, to whom, how the mail server answered, and whether the e-invoice went along. */
export function sendingsBlock(ctx: HubContext, kind: Kind, id: string, sendings: readonly SendingView[]): Html {
  const { t } = ctx;
  return html`<section aria-labelledby="sendings-heading">
<h2 id="sendings-heading" tabindex="-1">${t('hub.mail.sendings')}</h2>
${
  sendings.length === 0
    ? html`<p class="muted">${t('hub.mail.noSendings')}</p>`
    : html`<div class="scroll"><table>
<thead><tr><th scope="col">${t('hub.mail.when')}</th><th scope="col">${t('hub.mail.to')}</th><th scope="col">${t('hub.mail.who')}</th><th scope="col">${t('hub.mail.state')}</th><th scope="col">${t('hub.mail.answer')}</th></tr></thead>
<tbody>${sendings.map(
        (s) =>
          html`<tr><td>${ctx.fmt.dateTime(s.createdAt)}</td><td>${s.to} <span class="muted">(${s.locale})</span></td><td>${s.sentBy.name}</td><td><span class="status ${s.status === 'sent' ? 'paid' : s.status === 'failed' ? 'cancelled' : 'open'}">${t(`hub.mail.state.${s.status}`)}</span>${s.eInvoice ? html`<br><small>${s.eInvoice.attached ? t('hub.mail.einvoice.attached') : t('hub.mail.einvoice.missing', { fields: s.eInvoice.missing.join(', ') })}</small>` : null}</td><td>${s.serverAnswer ?? ''}</td></tr>`,
      )}</tbody></table></div>`
}
${ctx.can('documents:send') ? html`<p><a class="button" href="${paths.document(kind, id)}/send">${t('hub.mail.send')}</a></p>` : null}
</section>`;
}
