import { argon2 as argon2Cb, randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const argon2 = promisify(argon2Cb);
const scrypt = promisify(scryptCb) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;

/** Argon2id cost: memory in KiB, passes, lanes. */
export interface Argon2Params {
  memory: number;
  passes: number;
  parallelism: number;
}

/**
 * OWASP's Password Storage Cheat Sheet, first argon2id line: 19 MiB, two passes, one lane.
 * Changing these re-hashes each password at its owner's next sign-in (`needsRehash`).
 */
export const ARGON2_PARAMS: Argon2Params = { memory: 19_456, passes: 2, parallelism: 1 };

const TAG_BYTES = 32;
const SALT_BYTES = 16;
const b64 = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');
const PHC = /^\$argon2id\$v=19\$m=(\d{1,7}),t=(\d{1,3}),p=(\d{1,3})\$([A-Za-z0-9+/]{16,})\$([A-Za-z0-9+/]{16,})$/;

/** argon2id (node:crypto, run on libuv's thread pool) in PHC string form: `$argon2id$v=19$m=…,t=…,p=…$salt$hash`. */
export async function hashPassword(password: string, params: Argon2Params = ARGON2_PARAMS): Promise<string> {
  const nonce = randomBytes(SALT_BYTES);
  const tag = await argon2('argon2id', { message: password, nonce, tagLength: TAG_BYTES, ...params });
  return `$argon2id$v=19$m=${params.memory},t=${params.passes},p=${params.parallelism}$${b64(nonce)}$${b64(tag)}`;
}

/**
 * True when `password` is the one `stored` was made from. Also reads the scrypt form that
 * users made before argon2id (`scrypt$salt$hash`), so they can sign in and be re-hashed.
 * A malformed stored value never matches.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const m = PHC.exec(stored);
  if (m) {
    const expected = Buffer.from(m[5]!, 'base64');
    const actual = await argon2('argon2id', {
      message: password,
      nonce: Buffer.from(m[4]!, 'base64'),
      tagLength: expected.length,
      memory: Number(m[1]),
      passes: Number(m[2]),
      parallelism: Number(m[3]),
    });
    return timingSafeEqual(actual, expected);
  }
  const [scheme, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), expected.length);
  return timingSafeEqual(actual, expected);
}

/** Whether a stored hash was made with other parameters (or another scheme) than today's. */
export function needsRehash(stored: string, params: Argon2Params = ARGON2_PARAMS): boolean {
  const m = PHC.exec(stored);
  return !m || Number(m[1]) !== params.memory || Number(m[2]) !== params.passes || Number(m[3]) !== params.parallelism;
}
