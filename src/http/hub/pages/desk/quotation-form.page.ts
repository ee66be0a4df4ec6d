import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Container } from '../../../../container.ts';
import type { FieldErrors } from '../../../../lib/errors.ts';
import { isRevisable, type QuotationView } from '../../../../modules/quotations/index.ts';
import { html, type Html } from '../../html.ts';
import type { HubContext } from '../../hub-context.ts';
import { formError, postForm, queryText, sendPage, submit, type FormState, type Route } from '../../form.ts';
import { paths, withNotice } from '../../paths.ts';
import { QuotationRevisionBody, StaffQuotationBody } from '../../../requests/quotations.ts';
import { reservePrint } from '../../../pdf-reply.ts';
import { DESK_REFUSALS, otherErrors } from './desk-form.ts';
import { locationChoice, locationSelect, rememberLocation } from './location-choice.ts';
import { heading, sendDocumentPdf } from './desk-parts.ts';
import {
  choicesFor,
  combobox,
  customerOptions,
  lineEditor,
  pickedLines,
  postedLines,
  productOptions,
  textField,
  type PickedLine,
} from './line-picker.ts';

type IdParams = { id: string };

/** What the quotation form shows besides its lines. */
interface QuotationFormValues {
  customerId: string;
  customerLabel: string;
  name: string;
  email: string;
  phone: string;
  note: string;
  expiresOn: string;
}

const EMPTY: QuotationFormValues = {
  customerId: '',
  customerLabel: '',
  name: '',
  email: '',
  phone: '',
  note: '',
  expiresOn: '',
};

/** The form as the admin API's body: the same schema checks both. */
function readQuotationForm(body: unknown): Record<string, unknown> {
  const name = textField(body, 'name');
  const email = textField(body, 'email');
  const phone = textField(body, 'phone');
  const customerId = textField(body, 'customerId');
  const note = textField(body, 'note');
  const expiresOn = textField(body, 'expiresOn');
  return {
    ...(customerId ? { customerId } : {}),
    ...(name || email || phone ? { customer: { name, ...(email ? { email } : {}), ...(phone ? { phone } : {}) } } : {}),
    ...(note ? { note } : {}),
    // The last moment of the chosen day (UTC): a date is what a person picks.
    ...(expiresOn ? { expiresAt: /^\d{4}-\d{2}-\d{2}$/.test(expiresOn) ? `${expiresOn}T23:59:59Z` : expiresOn } : {}),
    lines: postedLines(body),
  };
}

function valuesOf(body: unknown): QuotationFormValues {
  return {
    customerId: textField(body, 'customerId'),
    customerLabel: textField(body, 'customerLabel'),
    name: textField(body, 'name'),
    email: textField(body, 'email'),
    phone: textField(body, 'phone'),
    note: textField(body, 'note'),
    expiresOn: textField(body, 'expiresOn'),
  };
}

/** "New quotation" and "Revise": staff make a quotation for a customer, or revise an open one (issue 22). */
export const quotationFormPages =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    app.get<Route>('/desk/product-options', { config: { hub: 'catalog:read' } }, async (request, reply) =>
      reply
        .type('text/html; charset=utf-8')
        .send(String(await productOptions(c, request.hub, queryText(request.query.q) ?? ''))),
    );
    app.get<Route>('/desk/customer-options', { config: { hub: 'customers:read' } }, async (request, reply) =>
      reply
        .type('text/html; charset=utf-8')
        .send(String(await customerOptions(c, request.hub, queryText(request.query.q) ?? ''))),
    );

    app.get<Route>('/quotations/new', { config: { hub: 'quotations:make' } }, async (request, reply) => {
      const ctx = request.hub;
      const inquiryId = queryText(request.query.inquiryId, 64);
      let values = EMPTY;
      let from: string | null = null;
      if (inquiryId) {
        // Only the inquirer's contact details, which the quotation made for them carries anyway.
        const inquiry = await c.inquiries.get(ctx.user.companyId, inquiryId);
        values = { ...EMPTY, name: inquiry.name ?? '', email: inquiry.email, phone: inquiry.phone };
        from = inquiry.name ?? inquiry.email;
      }
      return formPage(c, reply, ctx, { values, lines: [], from, inquiryId });
    });

    app.post('/quotations/new', { config: { hub: 'quotations:make' } }, async (request, reply) => {
      const ctx = request.hub;
      const locationId = textField(request.body, 'locationId') || undefined;
      const done = await submit(
        StaffQuotationBody,
        request,
        (input) =>
          c.quotations.createByStaff(
            { companyId: ctx.user.companyId, userId: ctx.user.userId },
            {
              includeDatasheets: false,
              note: input.note ?? null,
              ...(input.expiresAt ? { expiresAt: input.expiresAt } : {}),
              ...(input.customer ? { customer: input.customer } : {}),
              directoryCustomerId: input.customerId ?? null,
              lines: input.lines,
              ...(input.locationId ? { locationId: input.locationId } : {}),
            },
          ),
        {
          ...DESK_REFUSALS,
          read: (_fields, body) => ({ ...readQuotationForm(body), ...(locationId ? { locationId } : {}) }),
        },
      );
      if (done.ok) {
        await rememberLocation(c, ctx, locationId);
        return reply.redirect(withNotice(paths.quotation(done.result.id), 'madeQuotation'), 303);
      }
      return formPage(c, reply, ctx, {
        locationId,
        values: valuesOf(request.body),
        lines: pickedLines(request.body),
        state: done.state,
        status: done.status,
        inquiryId: textField(request.body, 'inquiryId') || undefined,
      });
    });

    app.get<{ Params: IdParams }>(
      '/quotations/:id/edit',
      { config: { hub: 'quotations:make' } },
      async (request, reply) => {
        const ctx = request.hub;
        const q = await c.quotations.get(ctx.user.companyId, request.params.id);
        return formPage(c, reply, ctx, {
          values: {
            customerId: q.directoryCustomer?.id ?? '',
            customerLabel: q.directoryCustomer?.name ?? '',
            name: q.customer.name,
            email: q.customer.email ?? '',
            phone: q.customer.phone ?? '',
            note: q.note ?? '',
            expiresOn: '',
          },
          lines: q.lines.map((l) => ({
            productId: l.productId,
            unitId: l.unitId,
            quantity: l.quantity,
            discountPercent: l.discountPercent === '0' ? '' : l.discountPercent,
            note: l.note ?? '',
          })),
          revising: q,
        });
      },
    );

    app.post<{ Params: IdParams }>(
      '/quotations/:id/edit',
      { config: { hub: 'quotations:make' } },
      async (request, reply) => {
        const ctx = request.hub;
        const q = await c.quotations.get(ctx.user.companyId, request.params.id);
        const done = await submit(
          QuotationRevisionBody,
          request,
          (input) =>
            c.quotations.reviseByStaff({ companyId: ctx.user.companyId, userId: ctx.user.userId }, q.id, {
              includeDatasheets: q.includeDatasheets,
              note: input.note ?? null,
              ...(input.expiresAt ? { expiresAt: input.expiresAt } : {}),
              ...(input.customer ? { customer: input.customer } : {}),
              directoryCustomerId: input.customerId ?? null,
              lines: input.lines,
            }),
          {
            ...DESK_REFUSALS,
            refusals: ['validation_failed', 'conflict', 'quotation_not_open', 'quotation_expired'],
            read: (_fields, body) => readQuotationForm(body),
          },
        );
        if (done.ok) return reply.redirect(withNotice(paths.quotation(q.id), 'revised'), 303);
        return formPage(c, reply, ctx, {
          values: valuesOf(request.body),
          lines: pickedLines(request.body),
          state: done.state,
          status: done.status,
          revising: q,
        });
      },
    );

    app.get<{ Params: IdParams & { revision: string } }>(
      '/quotations/:id/revisions/:revision/pdf',
      { config: { hub: 'quotations:read' } },
      async (request, reply) => {
        const revision = Number(request.params.revision);
        const printed = await c.quotations.renderRevisionPdf(
          request.hub.user.companyId,
          request.params.id,
          Number.isSafeInteger(revision) && revision > 0 ? revision : 0,
          reservePrint(c, reply),
        );
        return sendDocumentPdf(reply, printed, false);
      },
    );
  };

async function formPage(
  c: Container,
  reply: FastifyReply,
  ctx: HubContext,
  opts: {
    values: QuotationFormValues;
    lines: PickedLine[];
    state?: FormState;
    status?: number;
    from?: string | null;
    inquiryId?: string;
    revising?: QuotationView;
    locationId?: string;
  },
): Promise<FastifyReply> {
  const { t } = ctx;
  const [choices, company] = await Promise.all([
    choicesFor(c, ctx.user.companyId, opts.lines),
    c.companies.getCompany(ctx.user.companyId),
  ]);
  // A revision stays where the quotation was made; a new one is made where this user works.
  const location = opts.revising ? null : await locationChoice(c, ctx, opts.locationId);
  const q = opts.revising;
  const errors = opts.state?.errors;
  const title = q ? t('hub.make.editQuotation', { number: q.number }) : t('hub.make.newQuotation');
  const open = q ? isRevisable({ status: q.status, expires_at: q.expiresAt }, new Date()) : true;
  const action = q ? paths.quotationEdit(q.id) : paths.newQuotation;
  const v = opts.values;
  const body = html`${heading(title, false)}
${opts.from ? html`<p>${t('hub.make.fromInquiry', { name: opts.from })}</p>` : null}
${q ? html`<p>${open ? t('hub.make.reviseHint', { number: nextNumber(q) }) : t('hub.make.notRevisable')}</p>` : null}
${formError(t, opts.state)}
${otherErrors(errors, [...Object.keys(errors ?? {}).filter((p) => p.startsWith('lines')), 'customer', 'customer.name', 'customer.email', 'customer.phone', 'customerId', 'note', 'expiresAt', 'locationId'])}
${
  open
    ? html`${postForm(ctx, action, html` class="make-document" id="quotation-form"`)}
${opts.inquiryId ? html`<input type="hidden" name="inquiryId" value="${opts.inquiryId}">` : null}
${location ? locationSelect(ctx, location) : null}
${customerFieldset(ctx, v, errors, t('hub.make.customer'))}
${lineEditor(ctx, opts.lines, choices, errors, { autofocus: q !== undefined || opts.from !== undefined })}
<fieldset>
<legend>${t('print.note')}</legend>
${textInput('note', t('hub.make.note'), v.note, errors?.note, { textarea: true, maxlength: 2000 })}
${textInput('expiresOn', q ? t('hub.make.keepValidity') : t('hub.make.validUntil', { days: company.quotationValidityDays }), v.expiresOn, errors?.expiresAt, { type: 'date' })}
</fieldset>
<p><button type="submit">${q ? t('hub.make.revise') : t('hub.make.create')}</button>
<a href="${q ? paths.quotation(q.id) : paths.quotations}">${t('action.back')}</a></p>
</form>`
    : html`<p><a href="${paths.quotation(q!.id)}">${t('action.back')}</a></p>`
}`;
  return sendPage(reply, ctx, { title, body, status: opts.status ?? 200 });
}

function nextNumber(q: QuotationView): string {
  const first = q.revision === 1 ? q.number : q.number.slice(0, q.number.length - `-${q.revision}`.length);
  return `${first}-${q.revision + 1}`;
}

/** A directory customer (combobox) or one typed: name, e-mail, phone. */
export function customerFieldset(
  ctx: HubContext,
  v: Pick<QuotationFormValues, 'customerId' | 'customerLabel' | 'name' | 'email' | 'phone'>,
  errors: FieldErrors | undefined,
  legend: string,
  opts: { typed?: boolean; hint?: string } = {},
): Html {
  const { t } = ctx;
  const typed = opts.typed ?? true;
  return html`<fieldset class="customer-picker" data-customer-picker>
<legend>${legend}</legend>
${opts.hint ? html`<p class="muted">${opts.hint}</p>` : null}
${combobox(ctx, {
  id: 'customer-search',
  label: t('hub.make.directory'),
  hint: typed ? t('hub.make.directoryHint') : t('hub.make.directoryOnlyHint'),
  source: paths.customerOptions,
})}
<input type="hidden" name="customerId" value="${v.customerId}">
<input type="hidden" name="customerLabel" value="${v.customerLabel}">
<p data-customer-chosen${v.customerId ? null : html` hidden`}><span data-customer-name>${v.customerLabel ? t('hub.make.directoryChosen', { name: v.customerLabel }) : ''}</span>
<button type="button" class="link" data-customer-clear data-chosen-template="${t('hub.make.directoryChosen', { name: '{name}' })}">${t('hub.make.clearDirectory')}</button></p>
${errors?.customerId ? html`<p class="error">${errors.customerId.join(' ')}</p>` : null}
${
  typed
    ? html`${errors?.customer ? html`<p class="error">${errors.customer.join(' ')}</p>` : null}
${textInput('name', t('hub.make.name'), v.name, errors?.['customer.name'], { maxlength: 200, autocomplete: 'off' })}
${textInput('email', t('hub.make.email'), v.email, errors?.['customer.email'], { type: 'email', autocomplete: 'off' })}
${textInput('phone', t('hub.make.phone'), v.phone, errors?.['customer.phone'], { type: 'tel', autocomplete: 'off' })}`
    : null
}
</fieldset>`;
}

/** One labelled input with its messages beside it. */
export function textInput(
  name: string,
  label: string,
  value: string,
  errors: readonly string[] | undefined,
  opts: { type?: string; maxlength?: number; textarea?: boolean; autocomplete?: string; inputmode?: string } = {},
): Html {
  const id = `f-${name}`;
  const invalid = errors && errors.length > 0 ? html` aria-invalid="true" aria-describedby="${id}-error"` : null;
  const common = html` id="${id}" name="${name}"${opts.maxlength ? html` maxlength="${opts.maxlength}"` : null}${opts.autocomplete ? html` autocomplete="${opts.autocomplete}"` : null}${opts.inputmode ? html` inputmode="${opts.inputmode}"` : null}${invalid}`;
  return html`<div class="field"><label for="${id}">${label}</label>
${opts.textarea ? html`<textarea${common} rows="2">${value}</textarea>` : html`<input type="${opts.type ?? 'text'}"${common} value="${value}">`}
${invalid ? html`<span class="error" id="${id}-error">${errors!.join(' ')}</span>` : null}</div>`;
}
