import { randomBytes } from 'node:crypto';
import { AppError, addFieldError, fieldErrors } from '../../lib/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import { maskSecret, type SecretBox } from '../../lib/secret-box.ts';
import type { Store } from '../../db/store.ts';
import { EVENT_NAMES, isEventName } from './event-catalog.ts';
import { checkTargetUrl } from './target-guard.ts';
import type { AttemptRow, DeliveryRow, EndpointRow, WebhooksRepository } from './webhooks.repository.ts';
import { said, saidOf } from '../i18n/index.ts';

export type NewEndpoint =
  | { kind: 'http'; url: string; secret?: string | null; events?: string[]; description?: string | null }
  | { kind: 'telegram'; botToken: string; chatId: string; events?: string[]; description?: string | null };

export interface EndpointPatch {
  enabled?: boolean;
  url?: string;
  secret?: string | null;
  botToken?: string;
  chatId?: string;
  events?: string[];
  description?: string | null;
}

export interface EndpointView {
  id: string;
  kind: 'http' | 'telegram';
  url: string | null;
  chatId: string | null;
  events: string[];
  description: string | null;
  enabled: boolean;
  disabledReason: string | null;
  failingSince: string | null;
  /** Masked: the secret or bot token itself is never returned. */
  secretHint: string | null;
  createdAt: string;
  updatedAt: string;
}

const BOT_TOKEN = /^\d{3,}:[A-Za-z0-9_-]{20,}$/;
const CHAT_ID = /^(-?\d{1,20}|@[A-Za-z0-9_]{4,})$/;
// The secret travels as a header (X-Service-Webhook-Secret), which carries printable ASCII only
// and loses spaces at its ends: anything else would be accepted here and fail every delivery.
export const SECRET_RULE = {
  minLength: 16,
  maxLength: 200,
  pattern: '^[\\x21-\\x7E](?:[\\x20-\\x7E]*[\\x21-\\x7E])?$',
  message: 'Must be 16 to 200 printable ASCII characters, not starting or ending with a space.',
} as const;
const SECRET = new RegExp(SECRET_RULE.pattern);

/** A fresh signing secret in the Standard Webhooks form (`whsec_` + base64 of 24 random bytes). */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export function createEndpointsService(deps: {
  store: Store<{ webhooks: WebhooksRepository }>;
  clock: Clock;
  newId: IdGenerator;
  secretBox: SecretBox;
  allowPrivateTargets: boolean;
}) {
  const { store, clock, newId, secretBox } = deps;

  function checkEvents(events: string[] | undefined): string[] {
    const list = events ?? [];
    const unknown = list.filter((e) => !isEventName(e));
    if (unknown.length > 0)
      throw AppError.invalid({
        events: [said('error.webhook.unknownEvents', { unknown: unknown.join(', '), known: EVENT_NAMES.join(', ') })],
      });
    return [...new Set(list)];
  }

  function checkUrl(url: string): void {
    const problem = checkTargetUrl(url, deps.allowPrivateTargets);
    if (problem) throw AppError.invalid({ url: [saidOf(problem)] });
  }

  function checkSecret(secret: string | null | undefined): void {
    if (
      secret &&
      (secret.length < SECRET_RULE.minLength || secret.length > SECRET_RULE.maxLength || !SECRET.test(secret))
    ) {
      throw AppError.invalid({ secret: [said('error.webhook.secret')] });
    }
  }

  function checkTelegram(input: { botToken?: string; chatId?: string }): void {
    const details = fieldErrors();
    if (input.botToken !== undefined && !BOT_TOKEN.test(input.botToken))
      addFieldError(details, 'botToken', said('error.webhook.botToken'));
    if (input.chatId !== undefined && !CHAT_ID.test(input.chatId))
      addFieldError(details, 'chatId', said('error.webhook.chatId'));
    if (Object.keys(details).length > 0) throw AppError.invalid(details);
  }

  async function find(companyId: string, id: string): Promise<EndpointRow> {
    const row = await store.repos.webhooks.findEndpoint(companyId, id);
    if (!row) throw AppError.notFound('Webhook endpoint');
    return row;
  }

  return {
    /** Events about test data, with their deliveries and attempts, gone; how many events. */
    async deleteTestEvents(companyId: string): Promise<number> {
      return store.unitOfWork((repos) => repos.webhooks.deleteTestEvents(companyId));
    },

    async create(companyId: string, input: NewEndpoint): Promise<EndpointView> {
      const events = checkEvents(input.events);
      const now = clock.now().toISOString();
      let secret: string | null = null;
      if (input.kind === 'http') {
        checkUrl(input.url);
        checkSecret(input.secret);
        secret = input.secret ?? null;
      } else {
        checkTelegram(input);
        secret = input.botToken;
      }
      const row: EndpointRow = {
        id: newId('webhook'),
        company_id: companyId,
        kind: input.kind,
        description: input.description ?? null,
        url: input.kind === 'http' ? input.url : null,
        secret_sealed: secret ? secretBox.seal(secret) : null,
        secret_hint: secret ? maskSecret(secret) : null,
        chat_id: input.kind === 'telegram' ? input.chatId : null,
        events: JSON.stringify(events),
        enabled: true,
        disabled_reason: null,
        failing_since: null,
        created_at: now,
        updated_at: now,
      };
      await store.repos.webhooks.insertEndpoint(row);
      return toView(row);
    },

    async list(companyId: string): Promise<EndpointView[]> {
      return (await store.repos.webhooks.listEndpoints(companyId)).map(toView);
    },

    async get(companyId: string, id: string): Promise<EndpointView> {
      return toView(await find(companyId, id));
    },

    async update(companyId: string, id: string, patch: EndpointPatch): Promise<EndpointView> {
      const row = await find(companyId, id);
      const changes: Partial<EndpointRow> = { updated_at: clock.now().toISOString() };
      const wrongKind = (fields: string[]) =>
        AppError.invalid(
          Object.fromEntries(fields.map((f) => [f, [said('error.webhook.notAField', { kind: row.kind })]])),
        );
      if (row.kind === 'http') {
        if (patch.botToken !== undefined || patch.chatId !== undefined)
          throw wrongKind(['botToken', 'chatId'].filter((f) => f in patch));
        if (patch.url !== undefined) {
          checkUrl(patch.url);
          changes.url = patch.url;
        }
        if (patch.secret !== undefined) {
          checkSecret(patch.secret);
          changes.secret_sealed = patch.secret ? secretBox.seal(patch.secret) : null;
          changes.secret_hint = patch.secret ? maskSecret(patch.secret) : null;
        }
      } else {
        if (patch.url !== undefined || patch.secret !== undefined)
          throw wrongKind(['url', 'secret'].filter((f) => f in patch));
        checkTelegram(patch);
        if (patch.botToken !== undefined) {
          changes.secret_sealed = secretBox.seal(patch.botToken);
          changes.secret_hint = maskSecret(patch.botToken);
        }
        if (patch.chatId !== undefined) changes.chat_id = patch.chatId;
      }
      if (patch.events !== undefined) changes.events = JSON.stringify(checkEvents(patch.events));
      if (patch.description !== undefined) changes.description = patch.description;
      if (patch.enabled !== undefined) {
        changes.enabled = patch.enabled;
        // Re-enabling is the admin saying "fixed": the failure clock starts again.
        if (patch.enabled) Object.assign(changes, { disabled_reason: null, failing_since: null });
        else changes.disabled_reason = said('error.webhook.reason.byAdmin').text;
      }
      await store.transaction(async (repos) => {
        await repos.webhooks.updateEndpoint(companyId, id, changes);
        if (patch.enabled === false) await repos.webhooks.cancelPending(companyId, id);
      });
      return toView(await find(companyId, id));
    },

    /**
     * A new generated secret for an HTTP endpoint, in force from the next delivery. Returned
     * this once: afterwards only its hint is shown, like any secret.
     */
    async rotateSecret(companyId: string, id: string): Promise<{ endpoint: EndpointView; secret: string }> {
      const row = await find(companyId, id);
      if (row.kind !== 'http')
        throw AppError.invalid({ secret: [said('error.webhook.notAField', { kind: 'telegram' })] });
      const secret = generateWebhookSecret();
      return { endpoint: await this.update(companyId, id, { secret }), secret };
    },

    async remove(companyId: string, id: string): Promise<void> {
      await find(companyId, id);
      await store.transaction((repos) => repos.webhooks.deleteEndpoint(companyId, id));
    },

    /**
     * The deliveries to the endpoint, newest first, each with its attempts: of live events, or of
     * test events (`mode: 'test'`, the hub's "test data" switch), never the two mixed.
     */
    async deliveries(companyId: string, id: string, limit: number, mode: 'live' | 'test' = 'live') {
      await find(companyId, id);
      const deliveries = await store.repos.webhooks.listDeliveries(companyId, id, limit, mode);
      const attempts = await store.repos.webhooks.listAttempts(
        companyId,
        deliveries.map((d) => d.id),
      );
      return deliveries.map((d) =>
        toDeliveryView(
          d,
          attempts.filter((a) => a.delivery_id === d.id),
        ),
      );
    },

    /** Queues a delivery again (a failed one, or a delivered one the receiver lost), due now. */
    async redeliver(companyId: string, deliveryId: string): Promise<void> {
      const delivery = await store.repos.webhooks.findDelivery(companyId, deliveryId);
      if (!delivery) throw AppError.notFound('Delivery');
      const endpoint = await find(companyId, delivery.endpoint_id);
      if (!endpoint.enabled) throw new AppError('conflict', said('error.webhook.disabled'));
      if (!(await store.repos.webhooks.requeueDelivery(companyId, deliveryId, clock.now().toISOString()))) {
        throw new AppError('conflict', said('error.webhook.sending'));
      }
    },
  };
}
export type EndpointsService = ReturnType<typeof createEndpointsService>;

export function toView(row: EndpointRow): EndpointView {
  return {
    id: row.id,
    kind: row.kind as 'http' | 'telegram',
    url: row.url,
    chatId: row.chat_id,
    events: JSON.parse(row.events) as string[],
    description: row.description,
    enabled: Boolean(row.enabled),
    disabledReason: row.disabled_reason,
    failingSince: row.failing_since,
    secretHint: row.secret_hint,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toDeliveryView(d: DeliveryRow & { event_type: string; event_mode: string }, attempts: AttemptRow[]) {
  return {
    id: d.id,
    eventId: d.event_id,
    event: d.event_type,
    livemode: d.event_mode !== 'test',
    status: d.status,
    attempts: d.attempts,
    nextAttemptAt: d.status === 'pending' ? d.next_attempt_at : null,
    lastStatusCode: d.last_status_code,
    lastError: d.last_error,
    deliveredAt: d.delivered_at,
    createdAt: d.created_at,
    attemptLog: attempts.map((a) => ({
      attempt: a.attempt,
      startedAt: a.started_at,
      durationMs: a.duration_ms,
      statusCode: a.status_code,
      success: Boolean(a.success),
      error: a.error,
      responseExcerpt: a.response_excerpt,
    })),
  };
}
