import { performance } from 'node:perf_hooks';
import { request, type Dispatcher } from 'undici';
import { signWebhook } from '../signature.ts';
import { parseRetryAfter } from '../retry-schedule.ts';
import {
  EXCERPT_READ_BYTES,
  describeNetworkError,
  excerptFromBytes,
  readBodyHead,
  isForbiddenTargetError,
  type DeliveryResult,
} from './delivery-result.ts';

/**
 * Bytes of the response body read in total. The first EXCERPT_MAX_BYTES are kept;
 * the rest of a small body is drained so the keep-alive connection can be
 * reused. A body larger than this is abandoned (the connection is destroyed).
 */
const DRAIN_MAX_BYTES = 64 * 1024;

export interface HttpDeliveryInput {
  url: string;
  secret: string | null;
  eventId: string;
  timestampSeconds: number;
  body: string;
  timeoutMs: number;
  agent: Dispatcher;
  userAgent: string;
}

/**
 * Delivers one webhook with a POST of the exact body bytes.
 *
 * Headers: content-type: application/json, user-agent, webhook-id (= eventId),
 * webhook-timestamp (always); when a secret is configured also
 * webhook-signature (Standard Webhooks v1 HMAC) and x-service-webhook-secret
 * (the raw secret, for receivers that only compare a shared secret). Without
 * a secret no signature header is sent: there is nothing to sign with.
 *
 * Redirects are not followed (a 3xx is a failure). `timeoutMs` bounds the whole
 * exchange (connect + headers + reading the excerpt). Never throws for
 * network problems; returns a DeliveryResult.
 */
export async function deliverHttp(input: HttpDeliveryInput): Promise<DeliveryResult> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  const redact = (s: string): string =>
    input.secret && input.secret.length >= 4 ? s.split(input.secret).join('[redacted]') : s;

  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': input.userAgent,
    'webhook-id': input.eventId,
    'webhook-timestamp': String(Math.floor(input.timestampSeconds)),
  };
  if (input.secret) {
    headers['webhook-signature'] = signWebhook(input.secret, input.eventId, input.timestampSeconds, input.body);
    headers['x-service-webhook-secret'] = input.secret;
  }

  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('delivery timed out', 'TimeoutError')), input.timeoutMs);
  try {
    let res: Dispatcher.ResponseData;
    try {
      res = await request(input.url, {
        method: 'POST',
        headers,
        body: Buffer.from(input.body, 'utf8'),
        dispatcher: input.agent,
        signal: controller.signal,
        headersTimeout: input.timeoutMs,
        bodyTimeout: input.timeoutMs,
      });
    } catch (err) {
      const forbidden = isForbiddenTargetError(err);
      return {
        ok: false,
        statusCode: null,
        durationMs: elapsed(),
        error: redact(controller.signal.aborted ? `timeout after ${input.timeoutMs} ms` : describeNetworkError(err)),
        responseExcerpt: null,
        retryAfterMs: null,
        permanent: forbidden ? 'forbidden-target' : null,
      };
    }

    const status = res.statusCode;
    const head = await readBodyHead(res.body, EXCERPT_READ_BYTES, DRAIN_MAX_BYTES);
    const ok = status >= 200 && status < 300;
    const retryAfterHeader = res.headers['retry-after'];
    const retryAfterMs = ok
      ? null
      : parseRetryAfter(Array.isArray(retryAfterHeader) ? retryAfterHeader[0] : retryAfterHeader, Date.now());
    let error: string | null = null;
    if (!ok) {
      if (status >= 300 && status < 400) error = `HTTP ${status} (redirects are not followed)`;
      else if (status === 410) error = 'HTTP 410 Gone (endpoint removed)';
      else error = `HTTP ${status}`;
    }
    return {
      ok,
      statusCode: status,
      durationMs: elapsed(),
      error,
      responseExcerpt: head.length > 0 ? excerptFromBytes(head, redact) : null,
      retryAfterMs,
      permanent: status === 410 ? 'gone' : null,
    };
  } finally {
    clearTimeout(timer);
  }
}
