import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../../../container.ts';
import { LANGUAGES } from '../../../../modules/i18n/index.ts';
import type { MailTemplateView } from '../../../../modules/mailing/index.ts';
import { html } from '../../html.ts';
import type { HubContext } from '../../hub-context.ts';
import { field, noticeOf, postForm, submit, type FormState, type Route } from '../../form.ts';
import { paths } from '../../paths.ts';
import { sendDeveloperPage } from './developer-frame.ts';

/** The form's fields: the reply-to address and a subject and text per language (`subject_hr`, `body_hr`…). */
const MailSettingsForm = Type.Object(
  {
    replyTo: Type.Optional(Type.String({ format: 'email', maxLength: 254 })),
    ...Object.fromEntries(
      LANGUAGES.flatMap((l) => [
        [`subject_${l}`, Type.Optional(Type.String({ maxLength: 300 }))],
        [`body_${l}`, Type.Optional(Type.String({ maxLength: 10_000 }))],
      ]),
    ),
  },
  { additionalProperties: false },
);

/** Developer settings › E-mail: the texts that carry sent documents, and where customers' answers go. */
export const mailSettingsPage =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    app.get<Route>('/developer/mail', { config: { hub: 'settings:manage' } }, async (request, reply) => {
      const ctx = request.hub;
      const notice = noticeOf(ctx, request.query, { saved: 'hub.mail.saved' });
      return render(reply, ctx, await c.documentMail.templates(ctx.user.companyId), notice);
    });
    app.post<Route>('/developer/mail', { config: { hub: 'settings:manage' } }, async (request, reply) => {
      const ctx = request.hub;
      const done = await submit(MailSettingsForm, request, (input: Record<string, string | undefined>) =>
        c.documentMail.saveTemplates(ctx.user.companyId, {
          replyTo: input.replyTo ?? null,
          templates: LANGUAGES.map((l) => ({
            locale: l,
            subject: input[`subject_${l}`] ?? '',
            body: input[`body_${l}`] ?? '',
          })),
        }),
      );
      if (!done.ok)
        return render(reply, ctx, await c.documentMail.templates(ctx.user.companyId), null, done.state, done.status);
      return reply.redirect(`${paths.mailSettings}?notice=saved`, 303);
    });
  };

function render(
  reply: FastifyReply,
  ctx: HubContext,
  saved: { replyTo: string | null; templates: MailTemplateView[] },
  notice: string | null,
  state?: FormState,
  status = 200,
) {
  const { t } = ctx;
  const names = new Intl.DisplayNames([ctx.user.language], { type: 'language' });
  const values: Record<string, string> = { replyTo: saved.replyTo ?? '' };
  for (const tpl of saved.templates) {
    values[`subject_${tpl.locale}`] = tpl.custom ? tpl.subject : '';
    values[`body_${tpl.locale}`] = tpl.custom ? tpl.body : '';
  }
  const view = { id: 'mail', schema: MailSettingsForm, state, values };
  const body = html`<h1>${t('hub.mail.settings')}</h1>
<p>${t('hub.mail.settingsIntro', { placeholders: '{number}, {total}, {dueDate}, {customerName}, {reference}' })}</p>
${state ? html`<p class="error" role="alert">${t('hub.form.fixErrors')}</p>` : null}
${postForm(ctx, paths.mailSettings, html` class="stack"`)}
${field(view, 'replyTo', { label: t('hub.mail.replyTo'), type: 'email', autocomplete: 'email' })}
${saved.templates.map((tpl) => {
  const language = names.of(tpl.locale) ?? tpl.locale;
  const builtIn = saved.templates.find((x) => x.locale === tpl.locale)!;
  return html`<fieldset><legend>${language}</legend>
${field(view, `subject_${tpl.locale}`, { label: t('hub.mail.subject', { language }) })}
${field(view, `body_${tpl.locale}`, { label: t('hub.mail.body', { language }), control: 'textarea' })}
${builtIn.custom ? null : html`<p class="muted">${t('hub.mail.builtIn', { text: `${builtIn.subject} — ${builtIn.body.split('\n').slice(0, 3).join(' ')}` })}</p>`}
</fieldset>`;
})}
<p><button type="submit">${t('action.save')}</button></p>
</form>`;
  return sendDeveloperPage(reply, ctx, { title: t('hub.mail.settings'), body, notice, status });
}
