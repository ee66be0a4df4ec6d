import type { Inquiry, InquiryReply } from '../../../modules/inquiries/index.ts';
import { ReplyBody } from '../../requests/mail.ts';
import { html, type Html } from '../html.ts';
import type { HubContext } from '../hub-context.ts';
import { field, postForm, type FormState } from '../form.ts';
import { paths } from '../paths.ts';

/** The replies written in the hub, who wrote each and how its e-mail fared, and the form for another. */
export function repliesBlock(
  ctx: HubContext,
  inquiry: Inquiry,
  replies: readonly InquiryReply[],
  state?: FormState,
): Html {
  const { t } = ctx;
  const canReply = ctx.can('inquiries:answer') && inquiry.spamReason === null;
  return html`${
    replies.length > 0
      ? html`<section aria-labelledby="replies-heading">
<h2 id="replies-heading">${t('hub.inquiries.replies')}</h2>
${replies.map(
  (r) => html`<article class="reply">
<p><strong>${r.author.name}</strong>, ${ctx.fmt.dateTime(r.createdAt)} · <span class="status ${r.emailStatus === 'sent' ? 'paid' : r.emailStatus === 'failed' ? 'cancelled' : 'open'}">${t(`hub.mail.state.${r.emailStatus}`)}</span>${r.lastError && r.emailStatus !== 'sent' ? html` <span class="muted">${r.lastError}</span>` : null}</p>
<p class="inquiry-message">${r.message}</p>
</article>`,
)}
</section>`
      : null
  }
${
  canReply
    ? html`<section aria-labelledby="reply-heading">
<h2 id="reply-heading">${t('hub.inquiries.replyTitle')}</h2>
${state?.message ? html`<p class="error" role="alert">${state.message}</p>` : null}
${postForm(ctx, paths.inquiryReply(inquiry.id), html` class="stack"`)}
${field({ id: 'reply', schema: ReplyBody, state }, 'message', { label: t('hub.inquiries.replyMessage', { email: inquiry.email }), control: 'textarea' })}
<p><button type="submit">${t('hub.inquiries.replySend')}</button></p>
</form>
</section>`
    : null
}`;
}
