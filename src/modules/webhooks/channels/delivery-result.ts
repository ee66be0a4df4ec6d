export interface DeliveryResult {
  ok: boolean; // 2xx only
  statusCode: number | null; // null when no response (network error, timeout, refused target)
  durationMs: number;
  error: string | null; // short human text, never containing a secret or bot token
  responseExcerpt: string | null; // at most 2048 bytes of the response body (UTF-8 safe cut)
  retryAfterMs: number | null;
  permanent: 'gone' | 'unauthorized' | 'chat-not-found' | 'forbidden-target' | null; // do not retry
  migrateToChatId?: string; // telegram only
}

export const EXCERPT_MAX_BYTES = 2048;

/** Largest n ≤ max such that bytes[0, n) does not end inside a UTF-8 sequence. */
function utf8Boundary(bytes: Uint8Array, max: number): number {
  if (bytes.length <= max) return bytes.length;
  let i = max;
  // step back over continuation bytes (10xxxxxx) to the lead byte of the cut character
  let back = 0;
  while (i > 0 && back < 4 && ((bytes[i] ?? 0) & 0xc0) === 0x80) {
    i--;
    back++;
  }
  return i;
}

/** Length of `bytes` without a trailing incomplete UTF-8 sequence (as left by cutting a byte stream). */
function completeUtf8Length(bytes: Uint8Array): number {
  const n = bytes.length;
  for (let i = n - 1; i >= 0 && i >= n - 4; i--) {
    const b = bytes[i] ?? 0;
    if ((b & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead byte
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return i + need > n ? i : n;
  }
  return n;
}

/** Cuts a string to at most `maxBytes` UTF-8 bytes without splitting a character. */
export function truncateUtf8(s: string, maxBytes: number): string {
  const bytes = Buffer.from(s, 'utf8');
  if (bytes.length <= maxBytes) return s;
  return bytes.subarray(0, utf8Boundary(bytes, maxBytes)).toString('utf8');
}

/**
 * Bytes to read for an excerpt: the excerpt limit plus a look-ahead, so that a
 * secret straddling the cut is still recognised (and redacted) before cutting.
 */
export const EXCERPT_READ_BYTES = EXCERPT_MAX_BYTES + 1024;

/**
 * Decodes response bytes into an excerpt of at most EXCERPT_MAX_BYTES UTF-8
 * bytes (cut on a character boundary). Invalid UTF-8 becomes U+FFFD.
 * `redact` runs on the whole decoded text BEFORE the cut, so pass a little more
 * than the limit (EXCERPT_READ_BYTES) for secrets near the cut to be caught.
 */
export function excerptFromBytes(bytes: Uint8Array, redact: (s: string) => string = (s) => s): string {
  const head = bytes.subarray(0, completeUtf8Length(bytes));
  return truncateUtf8(
    redact(Buffer.from(head.buffer, head.byteOffset, head.byteLength).toString('utf8')),
    EXCERPT_MAX_BYTES,
  );
}

function errorCodes(err: unknown, depth = 0): string[] {
  if (depth > 4 || err === null || typeof err !== 'object') return [];
  const e = err as { code?: unknown; name?: unknown; cause?: unknown; errors?: unknown };
  const out: string[] = [];
  if (typeof e.code === 'string') out.push(e.code);
  if (typeof e.name === 'string') out.push(e.name);
  out.push(...errorCodes(e.cause, depth + 1));
  if (Array.isArray(e.errors)) for (const x of e.errors) out.push(...errorCodes(x, depth + 1));
  return out;
}

/** True when the error (or one it wraps) is the target guard's refusal. */
export function isForbiddenTargetError(err: unknown): boolean {
  return errorCodes(err).includes('FORBIDDEN_TARGET');
}

/**
 * Short description of a network-level failure, built from error codes only:
 * error messages may quote URLs (and with them a token or secret), so they are
 * never copied.
 */
export function describeNetworkError(err: unknown): string {
  const codes = errorCodes(err);
  const has = (...c: string[]): boolean => c.some((x) => codes.includes(x));
  if (has('FORBIDDEN_TARGET')) return 'target address is not allowed (private, loopback or reserved)';
  if (has('UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT')) return 'connect timeout';
  if (has('UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'TimeoutError')) return 'timeout';
  if (has('ECONNREFUSED')) return 'connection refused';
  if (has('ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL')) return 'DNS lookup failed';
  if (has('ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED')) return 'connection closed by the receiver';
  if (has('EHOSTUNREACH', 'ENETUNREACH')) return 'host unreachable';
  const tls = codes.find((c) => /CERT|SSL|TLS|SELF_SIGNED|HOSTNAME_MISMATCH|ERR_TLS/.test(c));
  if (tls) return `TLS error (${tls})`;
  if (has('UND_ERR_INVALID_ARG')) return 'invalid request (bad header value?)';
  const code = codes.find((c) => /^[A-Z0-9_]{2,40}$/.test(c));
  return code ? `network error (${code})` : 'network error';
}

/**
 * Reads a response body: keeps the first `keepBytes`, keeps draining (and
 * discarding) up to `drainBytes` in total so a small body leaves the keep-alive
 * connection reusable, and abandons anything larger (leaving the loop destroys
 * the stream and its connection). Never throws: a read error or abort returns
 * what was kept so far.
 */
export async function readBodyHead(
  body: AsyncIterable<Buffer> & { destroy(): unknown },
  keepBytes: number,
  drainBytes: number,
): Promise<Buffer> {
  const kept: Buffer[] = [];
  let keptLen = 0;
  let seen = 0;
  try {
    for await (const chunk of body) {
      if (keptLen < keepBytes) {
        const part = chunk.subarray(0, keepBytes - keptLen);
        kept.push(part);
        keptLen += part.length;
      }
      seen += chunk.length;
      if (seen > drainBytes) break; // leaving the loop destroys the stream (and the connection)
    }
  } catch {
    // timeout/abort or connection reset while reading: keep what we have
    try {
      body.destroy();
    } catch {
      /* ignore */
    }
  }
  return Buffer.concat(kept, keptLen);
}
