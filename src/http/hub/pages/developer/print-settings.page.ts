import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Container } from '../../../../container.ts';
import { PRINT_TEMPLATE_PLACEHOLDERS, type Company } from '../../../../modules/companies/index.ts';
import type { PrintDraft } from '../../../../modules/quotations/index.ts';
import { reservePrint } from '../../../pdf-reply.ts';
import { fileHeaders } from '../../../file-reply.ts';
import { html, type Html } from '../../html.ts';
import type { HubContext } from '../../hub-context.ts';
import { Type } from 'typebox';
import { SettingsBody } from '../../../requests/companies.ts';
import { bodyText, field, noticeOf, postForm, submit, textOf, type FieldErrors } from '../../form.ts';
import { formErrors, DEVELOPER_NOTICES, redirectWith } from './developer-frame.ts';
import { sendCompanyPage } from '../company-frame.ts';
import { paths } from '../../paths.ts';
import { logoPages, logoSection } from './logo.page.ts';

/** The print settings form as posted, and as the preview's query string carries it. */
interface PrintForm {
  header?: string;
  footer?: string;
  paymentInstructions?: string;
  iban?: string;
  bic?: string;
  holder?: string;
}
const FIELDS = ['header', 'footer', 'paymentInstructions', 'iban', 'bic', 'holder'] as const;

/** The form's shape only: the service checks the template and the bank account, every field at once. */
const PrintFormShape = Type.Object(Object.fromEntries(FIELDS.map((f) => [f, Type.String()])), {
  additionalProperties: false,
});

/** The form's own fields from a posted body or the preview's query, each as text. */
function printFormOf(source: unknown): PrintForm {
  return Object.fromEntries(FIELDS.map((f) => [f, bodyText(source, f)]));
}

const orNull = (value: unknown) => (textOf(value).trim() === '' ? null : textOf(value));

function formOf(company: Company): PrintForm {
  return {
    header: company.template.header ?? '',
    footer: company.template.footer ?? '',
    paymentInstructions: company.template.paymentInstructions ?? '',
    iban: company.bankAccount?.iban ?? '',
    bic: company.bankAccount?.bic ?? '',
    holder: company.bankAccount?.holder ?? '',
  };
}

/** The form's values, only its own fields, for the preview's URL (never the CSRF token). */
function previewQuery(form: PrintForm): string {
  return new URLSearchParams(FIELDS.map((f) => [f, textOf(form[f])])).toString();
}

function draftOf(form: PrintForm): PrintDraft {
  const bankGiven = [form.iban, form.bic, form.holder].some((v) => textOf(v).trim() !== '');
  return {
    template: {
      header: orNull(form.header),
      footer: orNull(form.footer),
      paymentInstructions: orNull(form.paymentInstructions),
    },
    bankAccount: bankGiven ? { iban: textOf(form.iban), bic: orNull(form.bic), holder: textOf(form.holder) } : null,
  };
}

function previewFrame(ctx: HubContext, form: PrintForm): Html {
  const src = `${paths.printPreviewPdf}?${previewQuery(form)}`;
  // On a phone the inline frame is hidden (hub.css): the same preview opens full-screen instead.
  return html`<iframe class="pdf" title="${ctx.t('hub.developer.print.preview')}" src="${src}"></iframe>
<p class="pdf-open"><a class="button" href="${src}">${ctx.t('hub.developer.print.openPreview')}</a></p>`;
}

/** The print template and bank account, with a sample quotation printed live beside the form. */
export const printSettingsPage =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    async function render(
      reply: FastifyReply,
      ctx: HubContext,
      options: { form?: PrintForm; errors?: FieldErrors; notice?: string | null; status?: number; logoError?: string },
    ) {
      const { t } = ctx;
      const company = await c.companies.getCompany(ctx.user.companyId);
      const form = options.form ?? formOf(company);
      const errors = options.errors ?? {};
      // Each field's limit is the admin API's for the same setting.
      const view = {
        id: 'print',
        schema: SettingsBody,
        values: form,
        state: { values: {}, errors },
        note: 'span',
      } as const;
      const area = (name: 'header' | 'footer' | 'paymentInstructions') =>
        field(view, name, {
          path: `printTemplate.${name}`,
          label: t(`hub.developer.print.${name}`),
          control: 'textarea',
          extra: html` rows="3"`,
        });
      const input = (name: 'iban' | 'bic' | 'holder') =>
        field(view, name, { path: `bankAccount.${name}`, label: t(`hub.developer.print.${name}`) });
      const shown = [
        ...['header', 'footer', 'paymentInstructions'].map((f) => `printTemplate.${f}`),
        ...['iban', 'bic', 'holder'].map((f) => `bankAccount.${f}`),
      ];
      const body = html`<h1>${t('hub.developer.print.title')}</h1>
<div class="two print-settings">
<div>
${formErrors(ctx, errors, shown)}
${postForm(
  ctx,
  paths.printSettings,
  html` class="stack"
  hx-get="${paths.printPreviewFrame}" hx-trigger="input changed delay:700ms" hx-target="#print-preview" hx-params="${FIELDS.join(',')}"`,
)}
  <p class="hint">${t('hub.developer.print.placeholders')} ${PRINT_TEMPLATE_PLACEHOLDERS.map((p, i) => html`${i > 0 ? ', ' : ''}<code>{${p}}</code>`)}</p>
  ${area('header')}
  ${area('footer')}
  ${area('paymentInstructions')}
  <fieldset><legend>${t('hub.developer.print.bankAccount')}</legend>
  ${input('iban')}
  ${input('bic')}
  ${input('holder')}
  </fieldset>
  <button type="submit">${t('hub.developer.save')}</button>
</form>
</div>
<div id="print-preview">${previewFrame(ctx, form)}</div>
</div>
${logoSection(ctx, company, options.logoError)}`;
      return sendCompanyPage(reply, ctx, {
        title: t('hub.developer.print.title'),
        body,
        notice: options.notice ?? null,
        status: options.status,
      });
    }

    await app.register(logoPages(c, (ctx, reply, logoError) => render(reply, ctx, { logoError, status: 400 })));

    app.get('/developer/print', { config: { hub: 'settings:manage' } }, async (request, reply) =>
      render(reply, request.hub, { notice: noticeOf(request.hub, request.query, DEVELOPER_NOTICES) }),
    );

    app.post('/developer/print', { config: { hub: 'settings:manage' } }, async (request, reply) => {
      const ctx = request.hub;
      const done = await submit(
        PrintFormShape,
        request,
        (form) => {
          const draft = draftOf(form);
          return c.companies.updateSettings(ctx.user.companyId, {
            printTemplate: draft.template,
            bankAccount: draft.bankAccount,
          });
        },
        { read: (_, body) => printFormOf(body), refusals: ['validation_failed'] },
      );
      if (!done.ok) {
        const { message, errors } = done.state;
        return render(reply, ctx, {
          form: printFormOf(request.body),
          errors: message === undefined ? errors : { _: [message] },
          status: done.status,
        });
      }
      return redirectWith(reply, paths.printSettings, 'printSaved');
    });

    /** The iframe again, pointing at the preview of the values typed so far (htmx swaps it in). */
    app.get('/developer/print/preview-frame', { config: { hub: 'settings:manage' } }, async (request, reply) =>
      reply.type('text/html; charset=utf-8').send(previewFrame(request.hub, printFormOf(request.query)).value),
    );

    app.get('/developer/print/preview.pdf', { config: { hub: 'settings:manage' } }, async (request, reply) => {
      const printed = await c.quotations.renderSamplePdf(
        request.hub.user.companyId,
        draftOf(printFormOf(request.query)),
        reservePrint(c, reply),
      );
      return fileHeaders(reply, 'ours', 'sample.pdf').type('application/pdf').send(printed.pdf);
    });
  };
