import type { KeyObject } from 'node:crypto';
import type { Dispatcher as HttpAgent } from 'undici';
import { AppError } from '../../lib/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { Store } from '../../db/store.ts';
import { toCompany, type CompanyDirectory, type Company } from '../companies/index.ts';
import type { DeliveryResult } from './channels/delivery-result.ts';
import { deliverHttp } from './channels/http-channel.ts';
import { deliverTelegram, formatTelegramMessage } from './channels/telegram-channel.ts';
import { serializeBody, type PingData } from './event-catalog.ts';
import type { WebhooksRepository } from './webhooks.repository.ts';
import { signingKey } from './signature.ts';
import { ENDPOINT_GONE } from './attempt-outcome.ts';
import type { EndpointRow } from './webhooks.repository.ts';

export const USER_AGENT = 'Portico-Webhooks/1.0 (+https://portico.dev/docs/webhooks)';

/** Where one endpoint's deliveries go: read once per claim, its secret decrypted once per process. */
export interface Target {
  endpoint: EndpointRow;
  url: URL | null;
  /** Telegram only (the message names the company and formats its currency). */
  company: Company | null;
  /** An Error when the stored secret cannot be decrypted (SECRETS_KEY changed): that endpoint fails, the queue goes on. */
  secret: string | null | Error;
  key: KeyObject | undefined;
}

/** What sending needs, shared with the dispatcher that builds the targets. */
export interface TargetDeps {
  store: Store<{ companies: CompanyDirectory; webhooks: WebhooksRepository }>;
  clock: Clock;
  newId: IdGenerator;
  secretBox: SecretBox;
  /** Guarded against private targets: tenants choose these URLs. */
  agent: HttpAgent;
  /** The operator-configured Bot API server (TELEGRAM_API_URL) is trusted, so it gets a plain agent. */
  telegramAgent: HttpAgent;
}

/** Resolves endpoints into targets and sends one event to a target over its channel. */
export function createTargets(
  deps: TargetDeps & {
    logger: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
    timeoutMs: number;
    telegramApiUrl: string;
  },
) {
  const { store, clock, logger } = deps;

  // Decrypted secrets by sealed value: a changed secret is a new sealed value, so this never goes stale.
  const secrets = new Map<string, { secret: string; key: KeyObject } | Error>();
  function openSecret(endpoint: EndpointRow): { secret: string | null | Error; key: KeyObject | undefined } {
    const sealed = endpoint.secret_sealed;
    if (!sealed) return { secret: null, key: undefined };
    let open = secrets.get(sealed);
    if (!open) {
      try {
        const secret = deps.secretBox.open(sealed);
        open = { secret, key: signingKey(secret) };
      } catch {
        logger.error({ endpointId: endpoint.id }, 'webhook secret cannot be decrypted; was SECRETS_KEY changed?');
        open = new Error('the stored secret cannot be decrypted (SECRETS_KEY changed?)');
      }
      if (secrets.size >= 1_000) secrets.clear(); // endpoints are few; this only bounds a pathological case
      secrets.set(sealed, open);
    }
    return open instanceof Error ? { secret: open, key: undefined } : open;
  }

  /** What sending to `endpoint` needs; the company is read for Telegram only (its message names it). */
  async function resolve(endpoint: EndpointRow): Promise<Target> {
    const company = endpoint.kind === 'telegram' ? await store.repos.companies.findCompany(endpoint.company_id) : null;
    return {
      endpoint,
      url: endpoint.kind === 'http' ? new URL(endpoint.url!) : null,
      company: company ? toCompany(company) : null,
      ...openSecret(endpoint),
    };
  }

  /** The target of one company's endpoint, or null when the endpoint was removed or disabled. */
  async function forEndpoint(companyId: string, endpointId: string): Promise<Target | null> {
    const endpoint = await store.repos.webhooks.findEndpoint(companyId, endpointId);
    return endpoint?.enabled ? resolve(endpoint) : null;
  }

  async function send(
    target: Target,
    eventId: string,
    payload: string,
    timestampSeconds: number,
  ): Promise<DeliveryResult> {
    const { endpoint, secret } = target;
    if (secret instanceof Error)
      return {
        ok: false,
        statusCode: null,
        durationMs: 0,
        error: secret.message,
        responseExcerpt: null,
        retryAfterMs: null,
        permanent: null,
      };
    if (endpoint.kind === 'http') {
      return deliverHttp({
        url: target.url!,
        secret,
        signingKey: target.key,
        eventId,
        timestampSeconds,
        body: payload,
        timeoutMs: deps.timeoutMs,
        agent: deps.agent,
        userAgent: USER_AGENT,
      });
    }
    if (!target.company) return { ...ENDPOINT_GONE, error: 'company not found' };
    const body = JSON.parse(payload) as { event: string; data: unknown; livemode?: boolean };
    const text = formatTelegramMessage(body.event, body.data, target.company, body.livemode !== false);
    let chatId = endpoint.chat_id!;
    let result = await deliverTelegram({
      apiBaseUrl: deps.telegramApiUrl,
      botToken: secret as string,
      chatId,
      text,
      timeoutMs: deps.timeoutMs,
      agent: deps.telegramAgent,
    });
    if (result.migrateToChatId && result.migrateToChatId !== chatId) {
      // The group became a supergroup: follow it for good and resend at once.
      chatId = result.migrateToChatId;
      await store.repos.webhooks.updateEndpoint(endpoint.company_id, endpoint.id, {
        chat_id: chatId,
        updated_at: clock.now().toISOString(),
      });
      endpoint.chat_id = chatId;
      logger.info({ endpointId: endpoint.id }, 'telegram chat migrated; endpoint updated');
      result = await deliverTelegram({
        apiBaseUrl: deps.telegramApiUrl,
        botToken: secret as string,
        chatId,
        text,
        timeoutMs: deps.timeoutMs,
        agent: deps.telegramAgent,
      });
    }
    return result;
  }

  /** A `ping` sent now, outside the queue, answered inline: "does my receiver work?" */
  async function ping(companyId: string, endpointId: string): Promise<DeliveryResult & { eventId: string }> {
    const endpoint = await store.repos.webhooks.findEndpoint(companyId, endpointId);
    const companyRow = await store.repos.companies.findCompany(companyId);
    if (!endpoint || !companyRow) throw AppError.notFound('Webhook endpoint');
    const eventId = deps.newId('event');
    const now = clock.now();
    const data: PingData = { endpointId };
    const payload = serializeBody({
      id: eventId,
      event: 'ping',
      companyId,
      locationId: null,
      timestamp: now.toISOString(),
      livemode: true,
      data,
    });
    const target = await resolve(endpoint);
    return {
      ...(await send(
        { ...target, company: toCompany(companyRow) },
        eventId,
        payload,
        Math.floor(now.getTime() / 1000),
      )),
      eventId,
    };
  }

  return { forEndpoint, send, ping };
}
export type DeliveryTargets = ReturnType<typeof createTargets>;
