import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { taxIdLabel } from '../../../../modules/i18n/index.ts';
import type { Container } from '../../../../container.ts';
import { AppError, type FieldErrors } from '../../../../lib/errors.ts';
import type { Customer, DocumentKind } from '../../../../modules/customers/index.ts';
import { isOrderOpen } from '../../../../modules/orders/index.ts';
import { isQuotationOpen } from '../../../../modules/quotations/index.ts';
import { html, type Html } from '../../html.ts';
import type { HubContext } from '../../hub-context.ts';
import { postForm, formFields, queryText, sendPage, submit } from '../../form.ts';
import { customerForm, customerBody, type CustomerFormValues } from './customer-form.ts';
import { CustomerInput } from '../../../requests/customers.ts';
import { DESK_REFUSALS } from './desk-form.ts';
import { heading } from './desk-parts.ts';
import { paths, withNotice } from '../../paths.ts';

/** What the assignment page needs of a quotation or a web order. */
interface Placeholdered {
  id: string;
  number: string;
  status: string;
  customer: { name: string; email: string | null; phone: string | null };
  directoryCustomer: { id: string; name: string } | null;
}

const PATH: Record<DocumentKind, string> = { quotation: 'quotations', order: 'orders' };

/**
 * Assigning a directory customer to a quotation or web order: the ranked suggestions, a search
 * of the whole directory, or a new customer made from the placeholder. One page for both kinds.
 */
export const assignmentPages =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    const load = (companyId: string, kind: DocumentKind, id: string): Promise<Placeholdered> =>
      kind === 'quotation' ? c.quotations.get(companyId, id) : c.orders.get(companyId, id);

    for (const kind of ['quotation', 'order'] as const) {
      const base = `/${PATH[kind]}/:id/customer`;

      app.get<{ Params: { id: string }; Querystring: Record<string, unknown> }>(
        base,
        { config: { hub: 'quotations:handle' } },
        async (request, reply) => {
          const ctx = request.hub;
          const doc = await load(ctx.user.companyId, kind, request.params.id);
          return assignmentPage(reply, ctx, kind, doc, queryText(request.query.find), placeholderValues(doc));
        },
      );

      app.post<{ Params: { id: string } }>(base, { config: { hub: 'quotations:handle' } }, async (request, reply) => {
        const ctx = request.hub;
        const doc = await load(ctx.user.companyId, kind, request.params.id);
        const done = paths.document(kind, doc.id);
        const { customerId } = formFields(request.body);
        if (customerId !== undefined) {
          await c.customerAssignment.assign(ctx.user.companyId, kind, doc.id, { customerId });
          return reply.redirect(withNotice(done, 'assigned'), 303);
        }
        // A new customer from the placeholder: the directory's form, checked as the admin API checks it.
        const made = await submit(
          CustomerInput,
          request,
          (newCustomer) => c.customerAssignment.assign(ctx.user.companyId, kind, doc.id, { newCustomer }),
          { ...DESK_REFUSALS, read: customerBody },
        );
        return made.ok
          ? reply.redirect(withNotice(done, 'assigned'), 303)
          : assignmentPage(reply, ctx, kind, doc, undefined, made.state.values, made.state.errors, made.status);
      });
    }

    async function assignmentPage(
      reply: FastifyReply,
      ctx: HubContext,
      kind: DocumentKind,
      doc: Placeholdered,
      find: string | undefined,
      values: CustomerFormValues,
      errors?: FieldErrors,
      status = 200,
    ) {
      const { t } = ctx;
      if (!(kind === 'quotation' ? isQuotationOpen(doc.status) : isOrderOpen(doc.status)))
        throw new AppError(kind === 'quotation' ? 'quotation_not_open' : 'order_not_open', t('hub.desk.notOpen'));
      const [matches, found] = await Promise.all([
        c.customerAssignment.matches(ctx.user.companyId, kind, doc.id),
        find === undefined ? null : c.customers.search(ctx.user.companyId, { q: find, limit: 10 }),
      ]);
      const action = paths.documentCustomer(kind, doc.id);
      const title = t('hub.desk.assign.title', { number: doc.number });
      const body = html`${heading(title, false)}
<dl class="facts">
  <dt>${t('customer.placeholder')}</dt><dd>${doc.customer.name}</dd>
  <dt>${t('print.email')}</dt><dd>${doc.customer.email ?? '—'}</dd>
  <dt>${t('print.phone')}</dt><dd>${doc.customer.phone ?? '—'}</dd>
  <dt>${t('hub.desk.assigned')}</dt><dd>${doc.directoryCustomer ? doc.directoryCustomer.name : t('hub.desk.noneAssigned')}</dd>
</dl>
<h2 id="suggestions">${t('hub.desk.assign.suggestions')}</h2>
${candidates(
  ctx,
  action,
  matches.map((m) => ({ customer: m.customer, reasons: m.reasons.map((r) => t(`match.${r}`)).join(', ') })),
  'suggestions',
)}
<h2 id="find">${t('hub.desk.assign.search')}</h2>
<form method="get" action="${action}" class="row" role="search">
  <div><label for="find-q">${t('hub.desk.assign.searchLabel')}</label><br><input id="find-q" name="find" type="search" value="${find ?? ''}"></div>
  <button type="submit" class="secondary">${t('action.search')}</button>
</form>
${
  found
    ? candidates(
        ctx,
        action,
        found.data.map((customer) => ({ customer, reasons: '' })),
        'find',
      )
    : null
}
<h2 id="new">${t('hub.desk.assign.create')}</h2>
${customerForm(ctx, { action, values, errors, submit: t('hub.desk.assign.createSubmit'), idPrefix: 'new', prefix: 'newCustomer.' })}
<p><a href="${paths.document(kind, doc.id)}">${t('action.back')}</a></p>`;
      return sendPage(reply, ctx, { title, body, notice: null, status });
    }
  };

function placeholderValues(doc: Placeholdered): CustomerFormValues {
  return { kind: 'person', name: doc.customer.name, email: doc.customer.email, phone: doc.customer.phone };
}

/** Customers to pick from, each with its own assign button naming it. */
function candidates(
  ctx: HubContext,
  action: string,
  rows: ReadonlyArray<{ customer: Customer; reasons: string }>,
  labelledBy: string,
): Html {
  const { t } = ctx;
  if (rows.length === 0) return html`<p class="muted">${t('common.noResults')}</p>`;
  return html`<table aria-labelledby="${labelledBy}">
<thead><tr><th scope="col">${t('hub.desk.customer.name')}</th><th scope="col">${t(taxIdLabel(ctx.user.companyCountry))}</th><th scope="col">${t('print.email')}</th><th scope="col">${t('print.phone')}</th><th scope="col">${t('hub.desk.assign.why')}</th><th scope="col"><span class="sr-only">${t('hub.desk.actions')}</span></th></tr></thead>
<tbody>${rows.map(
    ({ customer, reasons }) => html`<tr>
  <td><a href="${paths.customer(customer.id)}">${customer.name}</a></td><td>${customer.taxId ?? ''}</td><td>${customer.email ?? ''}</td><td>${customer.phone ?? ''}</td><td>${reasons}</td>
  <td>${postForm(ctx, action, html` class="inline"`)}<input type="hidden" name="customerId" value="${customer.id}"><button type="submit">${t('hub.desk.assign.to', { name: customer.name })}</button></form></td>
</tr>`,
  )}</tbody>
</table>`;
}
