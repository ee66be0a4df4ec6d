import { createHmac } from 'node:crypto';

/**
 * Standard Webhooks (https://www.standardwebhooks.com) signature for one message.
 *
 * Returns `v1,<base64 HMAC-SHA256(key, "${msgId}.${timestampSeconds}.${body}")>`.
 * A secret of the form `whsec_<base64>` uses the base64-decoded bytes as key
 * (the Standard Webhooks convention); any other secret is used as its UTF-8 bytes.
 * A receiver using the `standardwebhooks` library with a plain secret must pass
 * `Buffer.from(secret).toString('base64')` (or the secret with `{ format: 'raw' }`).
 */
export function signWebhook(secret: string, msgId: string, timestampSeconds: number, body: string): string {
  const key = secret.startsWith('whsec_')
    ? Buffer.from(secret.slice('whsec_'.length), 'base64')
    : Buffer.from(secret, 'utf8');
  const mac = createHmac('sha256', key)
    .update(`${msgId}.${Math.floor(timestampSeconds)}.`, 'utf8')
    .update(body, 'utf8')
    .digest('base64');
  return `v1,${mac}`;
}
