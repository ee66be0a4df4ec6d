import { hash, timingSafeEqual } from 'node:crypto';
import { randomToken } from '../../lib/ids.ts';

/**
 * Bearer credentials look like `ptc_<record id>_<secret>`: the record id finds the row in
 * one indexed read, the secret is checked against its stored SHA-256. The secret has 192
 * bits of entropy, so a fast hash is the right tool (a password hash would only add latency).
 * An API key's prefix also says what it is, so a key pasted into a page is recognisable:
 * `ptc_` (secret, live), `ptc_test_`, `ptc_pub_` (publishable, live), `ptc_pub_test_`.
 */
export const CREDENTIAL_PREFIX = { apiKey: 'ptc', adminToken: 'pta' } as const;
export type CredentialKind = keyof typeof CREDENTIAL_PREFIX;

/** `secret`: for servers, every public route; `publishable`: safe in a web page, inquiries and catalog reads. */
export type KeyKind = 'secret' | 'publishable';
/** `live` works on real data; `test` on test data, which live keys never see (and the reverse). */
export type KeyMode = 'live' | 'test';
export interface KeyVariant {
  kind: KeyKind;
  mode: KeyMode;
}
const LIVE_SECRET: KeyVariant = { kind: 'secret', mode: 'live' };

/** The token's prefix for a key of this kind and mode: `ptc_pub_test_`, say. */
export function keyPrefix(variant: KeyVariant): string {
  return `ptc_${variant.kind === 'publishable' ? 'pub_' : ''}${variant.mode === 'test' ? 'test_' : ''}`;
}

export interface IssuedCredential {
  token: string;
  secretHash: string;
}

export function hashSecret(secret: string): string {
  return hash('sha256', secret, 'hex');
}

export function issueCredential(
  kind: CredentialKind,
  recordId: string,
  variant: KeyVariant = LIVE_SECRET,
): IssuedCredential {
  const secret = randomToken(32);
  const prefix = kind === 'apiKey' ? keyPrefix(variant) : `${CREDENTIAL_PREFIX[kind]}_`;
  return { token: `${prefix}${recordId}_${secret}`, secretHash: hashSecret(secret) };
}

// A record id (`key_…`) has an underscore after 2-4 letters and then 20 characters, so `pub_` and
// `test_` can never be read as the start of one.
const SHAPE = /^(ptc|pta)_(pub_)?(test_)?([a-z]{2,4}_[0-9A-Za-z]{20})_([0-9A-Za-z]{32})$/;

/**
 * Splits a presented token; null when it is not of the kind's shape. The variant is what the
 * prefix claims: authentication checks it against the stored key, so a publishable key cannot
 * pass for a secret one by its prefix.
 */
export function parseCredential(
  kind: CredentialKind,
  token: string,
): { recordId: string; secret: string; variant: KeyVariant } | null {
  const match = SHAPE.exec(token);
  if (!match || match[1] !== CREDENTIAL_PREFIX[kind]) return null;
  if (kind === 'adminToken' && (match[2] || match[3])) return null;
  return {
    recordId: match[4]!,
    secret: match[5]!,
    variant: { kind: match[2] ? 'publishable' : 'secret', mode: match[3] ? 'test' : 'live' },
  };
}

export function secretMatches(secret: string, storedHash: string): boolean {
  const presented = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}
