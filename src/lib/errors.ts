/**
 * The one closed list of error codes a module may throw. HTTP status is decided in one
 * place (src/http/errors.ts) so a service never speaks HTTP.
 */
export const ERROR_CODES = [
  'validation_failed',
  'unauthenticated',
  'forbidden',
  'not_found',
  'conflict',
  'customer_required',
  'quotation_not_open',
  'quotation_expired',
  'order_not_open',
  'idempotency_key_in_use',
  'idempotency_key_reused',
  'rate_limited',
  'payload_too_large',
  'unsupported_media_type',
  'malformed_json',
  'malformed_request',
  'request_timeout',
  'headers_too_large',
  'not_acceptable',
  'unavailable',
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * Field path (`lines[2].quantity`) → messages. Paths come from the client (an unknown field is
 * named as sent), so build one with `fieldErrors()`: on a plain `{}` a field called `constructor`
 * or `__proto__` would find or replace what every object inherits.
 */
export type FieldErrors = Record<string, string[]>;

/** An empty, prototype-free map of field errors; JSON.stringify writes it as any object. */
export function fieldErrors(): FieldErrors {
  return Object.create(null) as FieldErrors;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: FieldErrors | undefined;
  /** When the client may try again (`unavailable`, `rate_limited`); sent as Retry-After. */
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ErrorCode, message: string, details?: FieldErrors, retryAfterSeconds?: number) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  static notFound(what: string): AppError {
    return new AppError('not_found', `${what} not found.`);
  }

  static invalid(details: FieldErrors, message = 'The request is invalid.'): AppError {
    return new AppError('validation_failed', message, details);
  }
}

/**
 * Adds a message under a field path, creating the list on first use. Own properties only, and
 * defined rather than assigned, so even a plain `{}` takes `__proto__` or `toString` as a field.
 */
export function addFieldError(details: FieldErrors, path: string, message: string): void {
  if (!Object.hasOwn(details, path))
    Object.defineProperty(details, path, { value: [], enumerable: true, writable: true, configurable: true });
  const list = details[path]!;
  if (!list.includes(message)) list.push(message);
}
