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
  'idempotency_key_in_use',
  'idempotency_key_reused',
  'rate_limited',
  'payload_too_large',
  'unsupported_media_type',
  'malformed_json',
  'not_acceptable',
  'unavailable',
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** Field path (`lines[2].quantity`) → messages. */
export type FieldErrors = Record<string, string[]>;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: FieldErrors | undefined;

  constructor(code: ErrorCode, message: string, details?: FieldErrors) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
  }

  static notFound(what: string): AppError {
    return new AppError('not_found', `${what} not found.`);
  }

  static invalid(details: FieldErrors, message = 'The request is invalid.'): AppError {
    return new AppError('validation_failed', message, details);
  }
}

/** Adds a message under a field path, creating the list on first use. */
export function addFieldError(details: FieldErrors, path: string, message: string): void {
  (details[path] ??= []).push(message);
}
