import type { QuotationAnswerView } from '../../../../modules/quotations/index.ts';
import { html, type Html } from '../../html.ts';
import type { HubContext } from '../../hub-context.ts';

/** The customer's answer on their page (accepted with name and PO, or declined with a reason). */
export function answerBlock(ctx: HubContext, answer: QuotationAnswerView | null): Html | null {
  if (!answer) return null;
  const { t } = ctx;
  const date = ctx.fmt.dateTime(answer.at);
  return html`<section aria-labelledby="answer-heading">
<h2 id="answer-heading">${t('hub.quote.answer')}</h2>
${
  answer.answer === 'accepted'
    ? html`<p>${t('hub.quote.acceptedBy', { name: answer.name ?? '', date })}</p>
${answer.reference ? html`<p>${t('hub.quote.reference', { reference: answer.reference })}</p>` : null}
${answer.note ? html`<p class="inquiry-message">${answer.note}</p>` : null}`
    : html`<p>${t('hub.quote.declinedOn', { date, reason: answer.note ?? '' })}</p>`
}
</section>`;
}
