import { hash, timingSafeEqual } from 'node:crypto';
import { randomToken } from '../../lib/ids.ts';

/**
 * Bearer credentials look like `ptc_<record id>_<secret>`: the record id finds the row in
 * one indexed read, the secret is checked against its stored SHA-256. The secret has 192
 * bits of entropy, so a fast hash is the right tool (a password hash would only add latency).
 */
export const CREDENTIAL_PREFIX = { apiKey: 'ptc', adminToken: 'pta' } as const;
export type CredentialKind = keyof typeof CREDENTIAL_PREFIX;

export interface IssuedCredential {
  token: string;
  secretHash: string;
}

export function hashSecret(secret: string): string {
  return hash('sha256', secret, 'hex');
}

export function issueCredential(kind: CredentialKind, recordId: string): IssuedCredential {
  const secret = randomToken(32);
  return { token: `${CREDENTIAL_PREFIX[kind]}_${recordId}_${secret}`, secretHash: hashSecret(secret) };
}

const SHAPE = /^(ptc|pta)_([a-z]{2,4}_[0-9A-Za-z]{20})_([0-9A-Za-z]{32})$/;

/** Splits a presented token; null when it is not of the kind's shape. */
export function parseCredential(kind: CredentialKind, token: string): { recordId: string; secret: string } | null {
  const match = SHAPE.exec(token);
  if (!match || match[1] !== CREDENTIAL_PREFIX[kind]) return null;
  return { recordId: match[2]!, secret: match[3]! };
}

export function secretMatches(secret: string, storedHash: string): boolean {
  const presented = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}
