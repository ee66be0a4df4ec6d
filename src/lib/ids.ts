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
  sale: 'sale',
  saleLine: 'sll',
  payment: 'pay',
  event: 'evt',
  webhook: 'whe',
  delivery: 'whd',
  attempt: 'wha',
  customer: 'cus',
  sending: 'snd',
  inquiryReply: 'irp',
  purchaseInvoice: 'pinv',
  purchasePayment: 'ppay',
  exchangeMessage: 'exm',
  refund: 'rfd',
  drawerDay: 'drw',
  drawerMovement: 'drm',
  tseTx: 'tse',
} as const;
export type IdKind = keyof typeof ID_PREFIXES;

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
// The same 62 characters in byte order, so that ids compare like the times they start with.
const SORTED_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

// One call into the CSPRNG per 4 KiB instead of per id: ids are made several per request.
const POOL_SIZE = 4096;
let pool = Buffer.alloc(0);
let poolOffset = 0;
function randomByte(): number {
  if (poolOffset >= pool.length) {
    pool = randomBytes(POOL_SIZE);
    poolOffset = 0;
  }
  return pool[poolOffset++]!;
}

/** Random base62 text; 128 bits of entropy by default (22 characters). */
export function randomToken(length = 22): string {
  let out = '';
  while (out.length < length) {
    const b = randomByte();
    // 62 * 4 = 248: rejecting bytes >= 248 keeps every character equally likely.
    if (b < 248) out += ALPHABET[b % 62];
  }
  return out;
}

const TIME_CHARS = 8; // 62^8 ms ≈ 6 900 years
const RANDOM_CHARS = 12; // ≈ 71 bits, drawn afresh for every id

/**
 * `<prefix>_<time><random>`: 20 base62 characters, the first 8 the creation time in ms. Rows
 * written one after another then land next to each other in every primary-key index, so a
 * commit rewrites a few index pages instead of one random page per row. Ids are not secrets
 * (credentials carry their own 192-bit secret); the random part only has to keep them unique.
 */
export function timeOrderedId(prefix: string, now = Date.now()): string {
  let time = '';
  for (let i = 0, t = now; i < TIME_CHARS; i++, t = Math.floor(t / 62)) time = SORTED_ALPHABET[t % 62] + time;
  return `${prefix}_${time}${randomToken(RANDOM_CHARS)}`;
}

export type IdGenerator = (kind: IdKind) => string;

export const newId: IdGenerator = (kind) => timeOrderedId(ID_PREFIXES[kind]);
