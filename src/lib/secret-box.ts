import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM encryption for secrets at rest (webhook secrets, bot tokens).
 *
 * Sealed format: `v1.<base64url iv>.<base64url tag>.<base64url ciphertext>`
 * with a random 12-byte IV and a 16-byte authentication tag. `open` throws on
 * any tampering, a wrong key or a malformed value; its error message never
 * contains the sealed value or the plaintext.
 */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

function decodeBase64UrlStrict(part: string): Buffer {
  // Buffer's decoder silently skips invalid characters; refuse them so that an
  // altered sealed string cannot decode to the same bytes.
  if (!BASE64URL.test(part)) throw new Error('invalid encoding');
  const bytes = Buffer.from(part, 'base64url');
  if (bytes.toString('base64url') !== part) throw new Error('invalid encoding');
  return bytes;
}

export function createSecretBox(key: Buffer): SecretBox {
  if (!Buffer.isBuffer(key) || key.length !== 32) {
    throw new RangeError('secret box key must be exactly 32 bytes');
  }
  const k = Buffer.from(key); // private copy: later mutation by the caller has no effect

  return {
    seal(plain: string): string {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', k, iv, { authTagLength: TAG_BYTES });
      const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return `v1.${iv.toString('base64url')}.${tag.toString('base64url')}.${ciphertext.toString('base64url')}`;
    },
    open(sealed: string): string {
      try {
        const parts = sealed.split('.');
        if (parts.length !== 4 || parts[0] !== 'v1') throw new Error('bad format');
        const iv = decodeBase64UrlStrict(parts[1] ?? '');
        const tag = decodeBase64UrlStrict(parts[2] ?? '');
        const ciphertext = decodeBase64UrlStrict(parts[3] ?? '');
        if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new Error('bad format');
        const decipher = createDecipheriv('aes-256-gcm', k, iv, { authTagLength: TAG_BYTES });
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
      } catch {
        throw new Error('secret box: cannot open sealed value (malformed, tampered or wrong key)');
      }
    },
  };
}

/**
 * Display form of a secret: `whsec_…a1b2` for Standard Webhooks secrets, `…a1b2`
 * otherwise. Reveals at most the last 4 characters, and none at all when the
 * secret (without its `whsec_` prefix) is shorter than 12 characters, so that a
 * short secret is never largely disclosed.
 */
export function maskSecret(secret: string): string {
  const prefix = secret.startsWith('whsec_') ? 'whsec_' : '';
  const chars = Array.from(secret.slice(prefix.length)); // code points, never half a surrogate pair
  const tail = chars.length >= 12 ? chars.slice(-4).join('') : '';
  return `${prefix}…${tail}`;
}
