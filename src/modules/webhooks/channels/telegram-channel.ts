import { performance } from 'node:perf_hooks';
import { request, type Dispatcher } from 'undici';
import { telegramLines, type MessageCompany } from '../event-catalog.ts';
import { parseRetryAfter } from '../retry-schedule.ts';
import {
  EXCERPT_READ_BYTES,
  describeNetworkError,
  excerptFromBytes,
  isForbiddenTargetError,
  readBodyHead,
  type DeliveryResult,
} from './delivery-result.ts';
import { escapeClipped } from './telegram-html.ts';

export const TELEGRAM_MAX_MESSAGE_CHARS = 4096;
export const TEST_PREFIX = '<b>🧪 TEST DATA</b> (made with a test key; not real)';

/**
 * A readable HTML message for Telegram (parse_mode HTML): the event's own text from the event
 * catalog, or a plain notice naming an event this version cannot describe. Always valid markup of
 * at most 4096 characters. Labels are English; numbers and currency follow the company's locale.
 */
export function formatTelegramMessage(event: string, data: unknown, company: MessageCompany, livemode = true): string {
  const own = telegramLines(event, data, company) ?? noticeLines(event, company);
  // Test data says so first, so nobody in the chat acts on a developer's trial.
  const lines = livemode ? own : [TEST_PREFIX, ...own];
  const text = lines.join('\n');
  // Each event's text clips its own fields; should one still run long, cut it on a line boundary.
  if (text.length <= TELEGRAM_MAX_MESSAGE_CHARS) return text;
  const kept: string[] = [];
  let len = 0;
  for (const line of lines) {
    if (len + line.length + 1 > TELEGRAM_MAX_MESSAGE_CHARS - 2) break;
    kept.push(line);
    len += line.length + 1;
  }
  return `${kept.join('\n')}\n…`;
}

function noticeLines(event: string, company: MessageCompany): string[] {
  const name = escapeClipped(company.name, 200);
  return [`<b>🔔 ${escapeClipped(event, 100)}</b>`, ...(name ? [`<i>${name}</i>`] : [])];
}

export interface TelegramDeliveryInput {
  apiBaseUrl: string; // normally https://api.telegram.org
  botToken: string;
  chatId: string;
  text: string;
  timeoutMs: number;
  agent: Dispatcher;
}

interface TelegramReply {
  ok?: unknown;
  error_code?: unknown;
  description?: unknown;
  parameters?: { retry_after?: unknown; migrate_to_chat_id?: unknown } | null;
}

/** Bot API responses are small; sendMessage echoes ≤ 4096 chars of text (JSON-escaped). */
const TELEGRAM_READ_MAX_BYTES = 256 * 1024;

/**
 * Sends one message with the Bot API `sendMessage` (HTML parse mode, link
 * previews disabled). Never throws for network problems. The bot token never
 * appears in `error` or `responseExcerpt`.
 *
 * Classification: 2xx + ok → ok; 429 → retryAfterMs from parameters.retry_after
 * (or the Retry-After header); 400 with parameters.migrate_to_chat_id →
 * migrateToChatId (not permanent: retry with the new chat id); 401 / 404
 * (bad token) and 403 (bot blocked / removed from the chat) → permanent
 * 'unauthorized'; 400 "chat not found" → permanent 'chat-not-found'.
 */
export async function deliverTelegram(input: TelegramDeliveryInput): Promise<DeliveryResult> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  const token = input.botToken;
  const secretPart = token.includes(':') ? token.slice(token.indexOf(':') + 1) : '';
  const redact = (s: string): string => {
    let out = s;
    for (const t of [token, encodeURIComponent(token), secretPart]) {
      if (t.length >= 6) out = out.split(t).join('[redacted]');
    }
    return out;
  };

  const base = input.apiBaseUrl.replace(/\/+$/, '');
  const url = `${base}/bot${encodeURIComponent(token).replace(/%3A/gi, ':')}/sendMessage`;
  const payload = JSON.stringify({
    chat_id: input.chatId,
    text: input.text,
    parse_mode: 'HTML',
    link_preview_options: { is_disabled: true },
  });

  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DOMException('delivery timed out', 'TimeoutError')),
    input.timeoutMs,
  );
  try {
    let res: Dispatcher.ResponseData;
    try {
      res = await request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: payload,
        dispatcher: input.agent,
        signal: controller.signal,
        headersTimeout: input.timeoutMs,
        bodyTimeout: input.timeoutMs,
      });
    } catch (err) {
      return {
        ok: false,
        statusCode: null,
        durationMs: elapsed(),
        error: redact(controller.signal.aborted ? `timeout after ${input.timeoutMs} ms` : describeNetworkError(err)),
        responseExcerpt: null,
        retryAfterMs: null,
        permanent: isForbiddenTargetError(err) ? 'forbidden-target' : null,
      };
    }

    const status = res.statusCode;
    const raw = await readBodyHead(res.body, TELEGRAM_READ_MAX_BYTES, TELEGRAM_READ_MAX_BYTES);
    let reply: TelegramReply | null = null;
    try {
      const parsed: unknown = JSON.parse(raw.toString('utf8'));
      if (parsed !== null && typeof parsed === 'object') reply = parsed as TelegramReply;
    } catch {
      reply = null;
    }
    const excerpt = raw.length > 0 ? excerptFromBytes(raw.subarray(0, EXCERPT_READ_BYTES), redact) : null;
    const description = typeof reply?.description === 'string' ? redact(reply.description).slice(0, 300) : null;
    const result: DeliveryResult = {
      ok: false,
      statusCode: status,
      durationMs: elapsed(),
      error: null,
      responseExcerpt: excerpt,
      retryAfterMs: null,
      permanent: null,
    };

    if (status >= 200 && status < 300 && reply?.ok === true) {
      result.ok = true;
      return result;
    }
    result.error = `Telegram ${status}${description ? `: ${description}` : ''}`;

    const params = reply?.parameters ?? null;
    const retryAfter = params?.retry_after;
    if (typeof retryAfter === 'number' && Number.isFinite(retryAfter) && retryAfter >= 0) {
      result.retryAfterMs = Math.round(retryAfter * 1000);
    } else {
      const header = res.headers['retry-after'];
      result.retryAfterMs = parseRetryAfter(Array.isArray(header) ? header[0] : header, Date.now());
    }

    const migrateTo = params?.migrate_to_chat_id;
    if (
      (typeof migrateTo === 'number' && Number.isSafeInteger(migrateTo)) ||
      (typeof migrateTo === 'string' && migrateTo !== '')
    ) {
      result.migrateToChatId = String(migrateTo);
      result.error = `Telegram ${status}: group chat was upgraded to a supergroup; new chat id ${String(migrateTo)}`;
      return result;
    }
    if (status === 401 || status === 403 || status === 404) {
      result.permanent = 'unauthorized';
    } else if (status === 400 && description !== null && /chat not found/i.test(description)) {
      result.permanent = 'chat-not-found';
    }
    return result;
  } finally {
    clearTimeout(timer);
  }
}
