import {
  EVENT_NAMES,
  generateWebhookSecret,
  type EndpointPatch,
  type EndpointView,
  type NewEndpoint,
} from '../../../../modules/webhooks/index.ts';
import { Type, type Static } from 'typebox';
import { html, type Html } from '../../html.ts';
import type { HubContext } from '../../hub-context.ts';
import { bodyList, bodyText, fieldError, messagesAt, postForm, textOf, type FieldErrors } from '../../form.ts';
import { formErrors } from './developer-frame.ts';

/**
 * A webhook form as posted (urlencoded: the events checked, as a list). Only its shape: the
 * service checks the endpoint as it does the admin API's, every field at once.
 */
const Text = Type.Optional(Type.String());
export const WebhookFormShape = Type.Object(
  {
    kind: Text,
    url: Text,
    secret: Text,
    generateSecret: Text,
    botToken: Text,
    chatId: Text,
    events: Type.Optional(Type.Array(Type.String())),
    description: Text,
  },
  { additionalProperties: false },
);
export type WebhookForm = Static<typeof WebhookFormShape>;

/** The webhook form as posted, each field read as text (the events as a list); nothing else kept. */
export function webhookFormOf(body: unknown): WebhookForm {
  const form: WebhookForm = { events: bodyList(body, 'events') };
  for (const name of ['kind', 'url', 'secret', 'generateSecret', 'botToken', 'chatId', 'description'] as const)
    if (bodyList(body, name).length > 0) form[name] = bodyText(body, name);
  return form;
}

const text = (value: unknown) => textOf(value).trim();
const eventsOf = (form: WebhookForm) => form.events ?? [];

/** A new endpoint from the form; an empty secret with "generate" ticked gets a generated one. */
export function newEndpointFrom(form: WebhookForm): NewEndpoint {
  const events = eventsOf(form);
  const description = text(form.description) || null;
  if (form.kind === 'telegram')
    return { kind: 'telegram', botToken: text(form.botToken), chatId: text(form.chatId), events, description };
  const secret = text(form.secret) || (form.generateSecret ? generateWebhookSecret() : null);
  return { kind: 'http', url: text(form.url), secret, events, description };
}

/** The changes an edit form asks for: a blank secret or bot token keeps the stored one. */
export function patchFrom(endpoint: EndpointView, form: WebhookForm): EndpointPatch {
  const patch: EndpointPatch = { events: eventsOf(form), description: text(form.description) || null };
  if (endpoint.kind === 'http') {
    patch.url = text(form.url);
    if (text(form.secret)) patch.secret = text(form.secret);
  } else {
    patch.chatId = text(form.chatId);
    if (text(form.botToken)) patch.botToken = text(form.botToken);
  }
  return patch;
}

/**
 * The fields of one endpoint kind, for a new endpoint (`endpoint` null) or an edit. Secrets are
 * never filled in: an edit shows only the stored hint, and a blank field keeps it.
 */
export function webhookFields(
  ctx: HubContext,
  kind: 'http' | 'telegram',
  endpoint: EndpointView | null,
  form: WebhookForm,
  errors: FieldErrors,
  prefix: string,
): Html {
  const { t } = ctx;
  const id = (name: string) => `${prefix}-${name}`;
  const chosen = new Set(form.kind === undefined && endpoint ? endpoint.events : eventsOf(form));
  const value = (name: 'url' | 'chatId' | 'description') =>
    form.kind === undefined && endpoint ? (endpoint[name] ?? '') : (form[name] ?? '');
  const e = (name: string) => fieldError(id(name), messagesAt(errors, [name]), 'span');
  const url = e('url');
  const secret = e('secret');
  const botToken = e('botToken');
  const chatId = e('chatId');
  const events = e('events');
  const description = e('description');
  const hint = endpoint?.secretHint
    ? html`<span class="hint" id="${id('secret-hint')}">${t('hub.developer.webhooks.storedSecret', { hint: endpoint.secretHint })}</span>`
    : null;
  return html`${formErrors(ctx, errors, ['url', 'secret', 'botToken', 'chatId', 'events', 'description'])}
  <input type="hidden" name="kind" value="${kind}">
  ${
    kind === 'http'
      ? html`
  <label for="${id('url')}">${t('hub.developer.webhooks.url')}</label>
  <input id="${id('url')}" name="url" type="url" required maxlength="2048" value="${value('url')}"${url.attrs}>${url.note}
  <label for="${id('secret')}">${endpoint ? t('hub.developer.webhooks.newSecret') : t('hub.developer.webhooks.secret')}</label>
  <input id="${id('secret')}" name="secret" type="password" autocomplete="off" maxlength="200"${secret.attrs ?? (hint ? html` aria-describedby="${id('secret-hint')}"` : null)}>${secret.note}${hint}
  ${endpoint ? null : html`<label class="check"><input type="checkbox" name="generateSecret" value="1"${form.kind === undefined || form.generateSecret ? html` checked` : null}> ${t('hub.developer.webhooks.generateSecret')}</label>`}
  `
      : html`
  <label for="${id('botToken')}">${endpoint ? t('hub.developer.webhooks.newBotToken') : t('hub.developer.webhooks.botToken')}</label>
  <input id="${id('botToken')}" name="botToken" type="password" autocomplete="off" maxlength="200"${endpoint ? null : html` required`}${botToken.attrs ?? (hint ? html` aria-describedby="${id('secret-hint')}"` : null)}>${botToken.note}${hint}
  <label for="${id('chatId')}">${t('hub.developer.webhooks.chatId')}</label>
  <input id="${id('chatId')}" name="chatId" required maxlength="64" value="${value('chatId')}"${chatId.attrs}>${chatId.note}
  `
  }
  <fieldset${events.note ? html` aria-describedby="${id('events')}-error"` : null}><legend>${t('hub.developer.webhooks.events')}</legend>
    <p class="hint">${t('hub.developer.webhooks.eventsHint')}</p>
    ${EVENT_NAMES.map((name) => html`<label class="check"><input type="checkbox" name="events" value="${name}"${chosen.has(name) ? html` checked` : null}> <code>${name}</code></label>`)}
    ${events.note}
  </fieldset>
  <label for="${id('description')}">${t('hub.developer.webhooks.description')}</label>
  <input id="${id('description')}" name="description" maxlength="200" value="${value('description')}"${description.attrs}>${description.note}`;
}

export function webhookForm(
  ctx: HubContext,
  options: {
    action: string;
    kind: 'http' | 'telegram';
    endpoint: EndpointView | null;
    form: WebhookForm;
    errors: FieldErrors;
    prefix: string;
    submit: string;
    labelledBy: string;
  },
): Html {
  return html`${postForm(ctx, options.action, html` class="stack" aria-labelledby="${options.labelledBy}"`)}
  ${webhookFields(ctx, options.kind, options.endpoint, options.form, options.errors, options.prefix)}
  <button type="submit">${options.submit}</button>
</form>`;
}
