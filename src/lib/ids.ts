import { randomBytes } from 'node:crypto';

export const ID_PREFIXES = {
  company: 'cmp',
  location: 'loc',
  user: 'usr',
  adminToken: 'atk',
  apiKey: 'key',
  inquiry: 'inq',
  notification: 'ntf',
  email: 'eml',
  category: 'cat',
  model: 'mdl',
  taxRate: 'txr',
  product: 'prd',
  unit: 'unt',
  quotation: 'qt',
  quotationLine: 'qtl',
  order: 'ord',
  orderLine: 'orl',
  event: 'evt',
  webhook: 'whe',
  delivery: 'whd',
  attempt: 'wha',
} as const;
export type IdKind = keyof typeof ID_PREFIXES;

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Random base62 text; 128 bits of entropy by default (22 characters). */
export function randomToken(length = 22): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  // 62 * 4 = 248: rejecting bytes >= 248 keeps every character equally likely.
  for (let i = 0; i < bytes.length && out.length < length; i++) {
    const b = bytes[i]!;
    if (b < 248) out += ALPHABET[b % 62];
  }
  return out.length === length ? out : out + randomToken(length - out.length);
}

export type IdGenerator = (kind: IdKind) => string;

export const newId: IdGenerator = (kind) => `${ID_PREFIXES[kind]}_${randomToken(20)}`;
