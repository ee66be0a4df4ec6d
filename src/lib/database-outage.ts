/**
 * Whether an error says the database is away (restarting, unreachable, out of connections)
 * rather than that the request is wrong: such a request is answered 503 with Retry-After, and
 * the client may send it again. Nothing it wrote was committed: a transaction that loses its
 * connection is rolled back by the server.
 */
export function isDatabaseOutage(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { code?: unknown; errcode?: unknown; message?: unknown; errors?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  // PostgreSQL: connection exceptions (class 08), shutting down / starting up (57P01-57P03),
  // too many connections (53300).
  if (/^08...$/.test(code) || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300') return true;
  // The socket: refused while the server is down, reset when it went away.
  if (NETWORK_CODES.has(code)) return true;
  // node:sqlite: busy or locked past the busy timeout (SQLITE_BUSY 5, SQLITE_LOCKED 6), an I/O
  // error (10) or a full disk (13): the database cannot take the write now.
  if (code === 'ERR_SQLITE_ERROR' && typeof e.errcode === 'number' && [5, 6, 10, 13].includes(e.errcode & 0xff))
    return true;
  // pg and pg-pool say these in words only.
  if (typeof e.message === 'string' && PG_MESSAGES.some((m) => (e.message as string).includes(m))) return true;
  // Connecting to every address of a name fails as one AggregateError.
  if (Array.isArray(e.errors) && e.errors.length > 0) return e.errors.every(isDatabaseOutage);
  return false;
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

const PG_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'timeout exceeded when trying to connect',
  'terminating connection due to administrator command',
];
