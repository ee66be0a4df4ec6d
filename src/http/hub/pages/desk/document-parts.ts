import { html, type Html } from '../../html.ts';
import type { HubContext } from '../../hub-context.ts';
import { postForm, field } from '../../form.ts';
import { CancelBody } from '../../../requests/documents.ts';
import { paths } from '../../paths.ts';

/** Pieces the quotation and web order pages share: the customer block, the cancel form. */

export interface DeskDocument {
  id: string;
  customer: { name: string; email: string | null; phone: string | null };
  directoryCustomer: { id: string; name: string } | null;
}

/** The placeholder as it arrived beside the directory customer assigned (if any), and the way to assign one. */
export function customerBlock(ctx: HubContext, doc: DeskDocument, basePath: string, canAssign: boolean): Html {
  const { t } = ctx;
  return html`<section aria-labelledby="customer-heading">
<h2 id="customer-heading">${t('print.customer')}</h2>
<dl class="facts">
  <dt>${t('customer.placeholder')}</dt><dd>${doc.customer.name}${doc.customer.email ? html`<br>${doc.customer.email}` : null}${doc.customer.phone ? html`<br>${doc.customer.phone}` : null}</dd>
  <dt>${t('hub.desk.assigned')}</dt><dd>${
    doc.directoryCustomer
      ? html`<a href="${paths.customer(doc.directoryCustomer.id)}">${doc.directoryCustomer.name}</a>`
      : html`<span class="muted">${t('hub.desk.noneAssigned')}</span>`
  }</dd>
</dl>
${canAssign ? html`<p><a class="button secondary" href="${basePath}/customer">${doc.directoryCustomer ? t('hub.desk.changeCustomer') : t('action.assignCustomer')}</a></p>` : null}
</section>`;
}

/** Cancelling needs a reason (the admin API's `CancelBody`), asked for on the page and confirmed once more by the browser. */
export function cancelForm(ctx: HubContext, action: string, label: string, reasonError?: string): Html {
  const { t } = ctx;
  const state = reasonError ? { values: {}, errors: { reason: [reasonError] } } : undefined;
  return html`${postForm(ctx, action, html` class="stack" data-confirm="${t('hub.desk.cancelConfirm')}"`)}
${field({ id: 'cancel', schema: CancelBody, state }, 'reason', { label: t('common.reason'), control: 'textarea' })}
<p><button type="submit" class="danger">${label}</button></p>
</form>`;
}

/**
 * A document's PDF: inline on a wide screen; on a phone, where an inline PDF is a blank box,
 * the stylesheet hides the frame and shows a button that opens the PDF full-screen in the
 * phone's own viewer. The download link serves both.
 */
export function pdfPanel(ctx: HubContext, base: string, number: string): Html {
  const { t } = ctx;
  return html`<iframe class="pdf" src="${base}/pdf" title="${t('hub.desk.pdfOf', { number })}"></iframe>
<p class="pdf-open"><a class="button" href="${base}/pdf">${t('hub.desk.openPdf')}<span class="sr-only"> ${number}</span></a></p>
<p><a href="${base}/pdf?download=1" download>${t('hub.desk.downloadPdf')}</a></p>`;
}
