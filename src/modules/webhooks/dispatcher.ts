import type { Dispatcher as HttpAgent } from 'undici';
import type pg from 'pg';
import { AppError } from '../../lib/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { createPoller } from '../../lib/poller.ts';
import type { Repositories, Store } from '../../db/store.ts';
import { toCompany, type Company } from '../companies/index.ts';
import type { NotificationsService } from '../notifications/index.ts';
import type { DeliveryResult } from './channels/delivery-result.ts';
import { deliverHttp } from './channels/http-channel.ts';
import { deliverTelegram, formatTelegramMessage, type NotificationFacts } from './channels/telegram-channel.ts';
import { nextRetryDelay } from './retry-schedule.ts';
import { OUTBOX_CHANNEL, type ClaimedDelivery, type EndpointRow } from './webhooks.repository.ts';

export const USER_AGENT = 'Portico-Webhooks/1.0 (+https://portico.dev/docs/webhooks)';
const BATCH = 32;
// Past this, an endpoint that never succeeded is switched off and its admins are told.
const FAILING_LIMIT_MS = 5 * 86_400_000;

export interface DispatcherLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface DispatcherOptions {
  workerId: string;
  timeoutMs: number;
  retryDelaysMs: readonly number[];
  telegramApiUrl: string;
  random?: () => number;
}

/** Where one endpoint's deliveries go, resolved once per batch. */
interface Target {
  endpoint: EndpointRow;
  company: Company;
  /** An Error when the stored secret cannot be decrypted (SECRETS_KEY changed): that endpoint fails, the queue goes on. */
  secret: string | null | Error;
}

/**
 * The delivery engine: leases due deliveries, sends them, records every attempt, schedules
 * retries. Nothing is marked delivered without a 2xx; a crashed worker's lease runs out
 * (timeout + 5 s, so at most about a minute) and another worker takes the delivery again.
 */
export function createDispatcher(deps: {
  store: Store;
  clock: Clock;
  newId: IdGenerator;
  secretBox: SecretBox;
  /** Guarded against private targets: tenants choose these URLs. */
  agent: HttpAgent;
  /** The operator-configured Bot API server (TELEGRAM_API_URL) is trusted, so it gets a plain agent. */
  telegramAgent: HttpAgent;
  notifications: NotificationsService;
  logger: DispatcherLogger;
  pool: pg.Pool | null;
  options: DispatcherOptions;
}) {
  const { store, clock, logger, options } = deps;
  const random = options.random ?? Math.random;
  // A batch is recorded after its slowest send, and a Telegram migration sends twice: the lease
  // covers two timeouts plus margin (WEBHOOK_TIMEOUT_MS is capped at 25 s to keep it <= 60 s).
  const leaseMs = Math.min(60_000, 2 * options.timeoutMs + 10_000);

  function openSecret(endpoint: EndpointRow): string | null | Error {
    try {
      return endpoint.secret_sealed ? deps.secretBox.open(endpoint.secret_sealed) : null;
    } catch {
      logger.error({ endpointId: endpoint.id }, 'webhook secret cannot be decrypted; was SECRETS_KEY changed?');
      return new Error('the stored secret cannot be decrypted (SECRETS_KEY changed?)');
    }
  }

  async function send(endpoint: EndpointRow, delivery: ClaimedDelivery, company: Company, secret: string | null | Error): Promise<DeliveryResult> {
    if (secret instanceof Error) return { ok: false, statusCode: null, durationMs: 0, error: secret.message, responseExcerpt: null, retryAfterMs: null, permanent: null };
    if (endpoint.kind === 'http') {
      return deliverHttp({
        url: endpoint.url!, secret, eventId: delivery.event_id, timestampSeconds: Math.floor(clock.now().getTime() / 1000),
        body: delivery.payload, timeoutMs: options.timeoutMs, agent: deps.agent, userAgent: USER_AGENT,
      });
    }
    const text = formatTelegramMessage(telegramFacts(delivery.payload, company));
    let chatId = endpoint.chat_id!;
    let result = await deliverTelegram({ apiBaseUrl: options.telegramApiUrl, botToken: secret as string, chatId, text, timeoutMs: options.timeoutMs, agent: deps.telegramAgent });
    if (result.migrateToChatId && result.migrateToChatId !== chatId) {
      // The group became a supergroup: follow it for good and resend at once.
      chatId = result.migrateToChatId;
      await store.repos.webhooks.updateEndpoint(endpoint.company_id, endpoint.id, { chat_id: chatId, updated_at: clock.now().toISOString() });
      logger.info({ endpointId: endpoint.id }, 'telegram chat migrated; endpoint updated');
      result = await deliverTelegram({ apiBaseUrl: options.telegramApiUrl, botToken: secret as string, chatId, text, timeoutMs: options.timeoutMs, agent: deps.telegramAgent });
    }
    return result;
  }

  async function disableEndpoint(repos: Repositories, endpoint: EndpointRow, reason: string): Promise<void> {
    // Several deliveries of one batch may fail the same way: the first disables and tells, once.
    if (!(await repos.webhooks.disableEndpoint(endpoint.company_id, endpoint.id, reason, clock.now().toISOString()))) return;
    await repos.webhooks.cancelPending(endpoint.company_id, endpoint.id);
    await deps.notifications.notifyAdmins(repos, endpoint.company_id, {
      kind: 'webhook.disabled',
      title: `Webhook ${endpoint.description ?? endpoint.url ?? endpoint.kind} was disabled`,
      body: `Deliveries stopped: ${reason}. Fix the receiver, then enable the endpoint again in developer settings.`,
      subject: { type: 'webhook_endpoint', id: endpoint.id },
    });
    logger.warn({ endpointId: endpoint.id, reason }, 'webhook endpoint disabled');
  }

  /** What a successful send leaves to record; successes of one batch commit together. */
  interface Success {
    delivery: ClaimedDelivery;
    target: Target;
    attemptNo: number;
    result: DeliveryResult;
    row: ReturnType<typeof attemptRow>;
  }

  async function attempt(delivery: ClaimedDelivery, target: Target | undefined): Promise<Success | null> {
    const startedAt = clock.now();
    const attemptNo = delivery.attempts + 1;
    if (!target || !target.endpoint.enabled) {
      await store.repos.webhooks.finishAttempt(options.workerId, delivery.id, {
        status: 'cancelled', attempts: delivery.attempts, next_attempt_at: delivery.next_attempt_at,
        last_status_code: null, last_error: 'endpoint disabled or removed', delivered_at: null,
      }, attemptRow(delivery, attemptNo, startedAt, { ok: false, statusCode: null, durationMs: 0, error: 'endpoint disabled or removed', responseExcerpt: null, retryAfterMs: null, permanent: null }));
      return null;
    }
    const { endpoint } = target;
    let result: DeliveryResult;
    try {
      result = await send(endpoint, delivery, target.company, target.secret);
    } catch (error) {
      // The channels report network trouble as results; a throw here is our own bug or a bad secret key.
      logger.error({ err: error, deliveryId: delivery.id }, 'webhook send failed unexpectedly');
      result = { ok: false, statusCode: null, durationMs: clock.now().getTime() - startedAt.getTime(), error: 'internal error while sending', responseExcerpt: null, retryAfterMs: null, permanent: null };
    }
    const row = attemptRow(delivery, attemptNo, startedAt, result);
    if (result.ok) return { delivery, target, attemptNo, result, row };

    const now = clock.now();
    const delay = result.permanent ? null : nextRetryDelay(attemptNo, options.retryDelaysMs, random, result.retryAfterMs);
    const failingSince = endpoint.failing_since ?? now.toISOString();
    await store.transaction(async (repos) => {
      const recorded = await repos.webhooks.finishAttempt(options.workerId, delivery.id, {
        status: delay === null ? 'failed' : 'pending', attempts: attemptNo,
        next_attempt_at: new Date(now.getTime() + (delay ?? 0)).toISOString(),
        last_status_code: result.statusCode, last_error: result.error, delivered_at: null,
      }, row);
      if (!recorded) return; // another worker owns it now; its outcome is the one that counts
      if (delay === null && !result.permanent) {
        await deps.notifications.notifyAdmins(repos, endpoint.company_id, {
          kind: 'webhook.delivery_failed',
          title: `A webhook to ${endpoint.description ?? endpoint.url ?? endpoint.kind} was given up`,
          body: `Event ${delivery.event_id} (${delivery.event_type}) failed ${attemptNo} times; last error: ${result.error ?? result.statusCode}. Redeliver it from developer settings once the receiver works.`,
          subject: { type: 'webhook_delivery', id: delivery.id },
        });
      }
      if (result.permanent) {
        await disableEndpoint(repos, endpoint, permanentReason(result));
      } else if (now.getTime() - Date.parse(failingSince) >= FAILING_LIMIT_MS) {
        await disableEndpoint(repos, endpoint, 'failing for more than 5 days');
      } else if (!endpoint.failing_since) {
        await repos.webhooks.updateEndpoint(endpoint.company_id, endpoint.id, { failing_since: failingSince });
      }
    });
    logger.warn({ deliveryId: delivery.id, eventId: delivery.event_id, attempt: attemptNo, status: result.statusCode, error: result.error, retryInMs: delay }, 'webhook attempt failed');
    return null;
  }

  /** One commit for all of a batch's successes: per-delivery commits were most of the worker's cost. */
  async function recordSuccesses(successes: Success[]): Promise<void> {
    if (successes.length === 0) return;
    const deliveredAt = clock.now().toISOString();
    await store.transaction(async (repos) => {
      for (const s of successes) {
        await repos.webhooks.finishAttempt(options.workerId, s.delivery.id, {
          status: 'delivered', attempts: s.attemptNo, next_attempt_at: s.delivery.next_attempt_at,
          last_status_code: s.result.statusCode, last_error: null, delivered_at: deliveredAt,
        }, s.row);
      }
      for (const endpoint of new Set(successes.map((s) => s.target.endpoint))) {
        if (endpoint.failing_since) await repos.webhooks.updateEndpoint(endpoint.company_id, endpoint.id, { failing_since: null });
      }
    });
    for (const s of successes) {
      logger.info({ deliveryId: s.delivery.id, eventId: s.delivery.event_id, attempt: s.attemptNo, status: s.result.statusCode, ms: s.result.durationMs }, 'webhook delivered');
    }
  }

  function attemptRow(delivery: ClaimedDelivery, attemptNo: number, startedAt: Date, result: DeliveryResult) {
    return {
      id: deps.newId('attempt'), company_id: delivery.company_id, delivery_id: delivery.id, endpoint_id: delivery.endpoint_id,
      attempt: attemptNo, worker_id: options.workerId, started_at: startedAt.toISOString(), duration_ms: Math.round(result.durationMs), status_code: result.statusCode,
      error: result.error, response_excerpt: result.responseExcerpt, success: result.ok,
    };
  }

  async function tick(): Promise<boolean> {
    const now = clock.now();
    const batch = await store.repos.webhooks.claimDue(options.workerId, now.toISOString(), new Date(now.getTime() + leaseMs).toISOString(), BATCH);
    if (batch.length === 0) return false;
    // Endpoint, company and the decrypted secret once per batch, not once per delivery.
    const targets = new Map<string, Target | undefined>();
    for (const d of batch) {
      if (targets.has(d.endpoint_id)) continue;
      const endpoint = await store.repos.webhooks.findEndpoint(d.company_id, d.endpoint_id);
      const company = endpoint && (await store.repos.companies.findCompany(d.company_id));
      targets.set(d.endpoint_id, endpoint && company ? { endpoint, company: toCompany(company), secret: openSecret(endpoint) } : undefined);
    }
    const outcomes = await Promise.all(batch.map((d) => attempt(d, targets.get(d.endpoint_id)).catch((error: unknown) => {
      logger.error({ err: error, deliveryId: d.id }, 'recording a webhook attempt failed; the lease will return it');
      return null;
    })));
    await recordSuccesses(outcomes.filter((o): o is Success => o !== null)).catch((error: unknown) => {
      // Not recorded means not marked delivered: the lease returns them and they are sent again (at least once).
      logger.error({ err: error }, 'recording delivered webhooks failed; the lease will return them');
    });
    return batch.length === BATCH;
  }

  const poller = createPoller({ tick, idleMs: 1_000, onError: (error) => logger.error({ err: error }, 'webhook dispatcher tick failed') });
  let listener: pg.PoolClient | null = null;
  let stopping = false;

  /** Other instances' commits reach us through NOTIFY; if the listening connection drops we poll and reconnect. */
  async function listen(): Promise<void> {
    if (!deps.pool || stopping) return;
    try {
      const client = await deps.pool.connect();
      client.on('notification', () => poller.wake());
      client.on('error', () => {
        if (listener !== client) return; // already given up by stop()
        listener = null;
        client.release(true);
        setTimeout(() => void listen(), 1_000).unref();
      });
      await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
      listener = client;
    } catch (error) {
      logger.warn({ err: error }, 'LISTEN failed; polling only, retrying');
      setTimeout(() => void listen(), 5_000).unref();
    }
  }

  return {
    async start(): Promise<void> {
      stopping = false;
      await listen();
      poller.start();
    },
    wake: () => poller.wake(),
    /** Lets the running batch finish (each send is bounded by the timeout), then stops. */
    async stop(): Promise<void> {
      stopping = true;
      await poller.stop();
      if (listener) {
        const client = listener;
        listener = null;
        // Destroyed, not returned to the pool: a connection that listened is nobody else's.
        client.release(true);
      }
    },
    /** A `ping` sent now, outside the queue, answered inline: "does my receiver work?" */
    async ping(companyId: string, endpointId: string): Promise<DeliveryResult & { eventId: string }> {
      const endpoint = await store.repos.webhooks.findEndpoint(companyId, endpointId);
      const companyRow = await store.repos.companies.findCompany(companyId);
      if (!endpoint || !companyRow) throw AppError.notFound('Webhook endpoint');
      const eventId = deps.newId('event');
      const now = clock.now().toISOString();
      const payload = JSON.stringify({
        id: eventId, event: 'ping', companyId, locationId: null, timestamp: now,
        data: { endpointId, number: 'PING', customerName: 'Portico test', totalWithTax: '0.00', locationName: '-', lineCount: 0 },
      });
      const probe = { event_id: eventId, payload } as ClaimedDelivery;
      return { ...(await send(endpoint, probe, toCompany(companyRow), openSecret(endpoint))), eventId };
    },
    /** One pass, for tests and the CLI: sends what is due now. */
    runOnce: tick,
  };
}
export type WebhookDispatcher = ReturnType<typeof createDispatcher>;

function permanentReason(result: DeliveryResult): string {
  switch (result.permanent) {
    case 'gone': return 'the receiver answered 410 Gone';
    case 'unauthorized': return 'the bot token was refused by Telegram';
    case 'chat-not-found': return 'Telegram does not know the chat (was the bot removed?)';
    case 'forbidden-target': return 'the URL resolves to a private or reserved address';
    default: return result.error ?? 'permanent failure';
  }
}

function telegramFacts(payload: string, company: Company): NotificationFacts {
  const body = JSON.parse(payload) as { event: NotificationFacts['event']; data: Record<string, unknown> };
  const d = body.data;
  return {
    event: body.event,
    companyName: company.name,
    number: String(d.number ?? ''),
    customerName: String(d.customerName ?? ''),
    totalWithTax: String(d.totalWithTax ?? '0'),
    currency: company.currency,
    locationName: String(d.locationName ?? ''),
    lineCount: Number(d.lineCount ?? 0),
    externalReference: (d.externalReference as string | null | undefined) ?? null,
    locale: company.locale,
  };
}
