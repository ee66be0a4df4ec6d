import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';

/**
 * The HMAC key of a webhook secret: a `whsec_<base64>` secret uses the base64-decoded bytes
 * (the Standard Webhooks convention); any other secret is used as its UTF-8 bytes. Worth
 * keeping per endpoint: the dispatcher signs every delivery with it.
 */
export function signingKey(secret: string): KeyObject {
  return createSecretKey(
    secret.startsWith('whsec_') ? Buffer.from(secret.slice('whsec_'.length), 'base64') : Buffer.from(secret, 'utf8'),
  );
}

/**
 * Standard Webhooks (https://www.standardwebhooks.com) signature for one message.
 *
 * Returns `v1,<base64 HMAC-SHA256(key, "${msgId}.${timestampSeconds}.${body}")>`, keyed by
 * `signingKey(secret)` (pass the secret or the key made from it once).
 * A receiver using the `standardwebhooks` library with a plain secret must pass
 * `Buffer.from(secret).toString('base64')` (or the secret with `{ format: 'raw' }`).
 */
export function signWebhook(secret: string | KeyObject, msgId: string, timestampSeconds: number, body: string): string {
  const key = typeof secret === 'string' ? signingKey(secret) : secret;
  const mac = createHmac('sha256', key)
    .update(`${msgId}.${Math.floor(timestampSeconds)}.`, 'utf8')
    .update(body, 'utf8')
    .digest('base64');
  return `v1,${mac}`;
}
