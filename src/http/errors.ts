import { STATUS_CODES } from 'node:http';
import type { ErrorObject } from 'ajv';
import { AppError, type ErrorCode, type FieldErrors } from '../lib/errors.ts';

/** The one place where an error code becomes an HTTP status. */
export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  validation_failed: 400,
  malformed_json: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  not_acceptable: 406,
  conflict: 409,
  idempotency_key_in_use: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
};

/** RFC 9457 problem details, plus our stable `code`, the request id and per-field `details`. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  requestId: string;
  details?: FieldErrors;
}

export function problemFor(error: AppError, requestId: string): Problem {
  const status = STATUS_BY_CODE[error.code];
  return {
    type: 'about:blank',
    title: STATUS_CODES[status] ?? 'Error',
    status,
    detail: error.message,
    code: error.code,
    requestId,
    ...(error.details ? { details: error.details } : {}),
  };
}

/** What Fastify and its plugins throw, translated; anything unknown is a 500 with no internals. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const e = error as { code?: string; statusCode?: number; validation?: ErrorObject[]; validationContext?: string; message?: string };
  if (e.validation) return AppError.invalid(validationDetails(e.validation, e.validationContext ?? 'body'));
  switch (e.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('unsupported_media_type', 'Send the body as application/json.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('payload_too_large', 'The request body is larger than this endpoint accepts.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('malformed_json', 'The body is empty; send a JSON object.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError('malformed_json', 'The body is not valid JSON.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('malformed_json', 'Content-Length does not match the body.');
  }
  if (e.statusCode === 400 && error instanceof SyntaxError) return new AppError('malformed_json', 'The body is not valid JSON.');
  if (e.statusCode === 429) return new AppError('rate_limited', e.message ?? 'Too many requests.');
  if (e.statusCode === 413) return new AppError('payload_too_large', 'The request body is too large.');
  if (e.statusCode === 415) return new AppError('unsupported_media_type', 'Send the body as application/json.');
  if (e.statusCode === 406) return new AppError('not_acceptable', e.message ?? 'Not acceptable.');
  if (e.statusCode === 404) return AppError.notFound('Resource');
  if (e.statusCode !== undefined && e.statusCode >= 400 && e.statusCode < 500) return new AppError('validation_failed', e.message ?? 'Bad request.');
  return new AppError('internal', 'Something went wrong on our side. It was logged; retry later or quote the requestId to support.');
}

/** Ajv's errors as `field path → messages`, paths written the way a developer reads them: `lines[2].quantity`. */
export function validationDetails(errors: readonly ErrorObject[], context: string): FieldErrors {
  const details: FieldErrors = {};
  // An empty string fails both minLength and the "not only white space" pattern: say it once.
  const tooShort = new Set(errors.filter((e) => e.keyword === 'minLength').map((e) => e.instancePath));
  for (const error of errors) {
    if (error.keyword === 'pattern' && tooShort.has(error.instancePath)) continue;
    const base = jsonPointerToPath(error.instancePath);
    let path = base;
    let message: string;
    switch (error.keyword) {
      case 'required':
        path = join(base, (error.params as { missingProperty: string }).missingProperty);
        message = 'Is required.';
        break;
      case 'additionalProperties':
        path = join(base, (error.params as { additionalProperty: string }).additionalProperty);
        message = 'Is not a known field.';
        break;
      case 'type':
        message = `Must be ${article((error.params as { type: string }).type)}.`;
        break;
      case 'minLength':
        message = (error.params as { limit: number }).limit === 1 ? 'Must not be empty.' : `Must be at least ${(error.params as { limit: number }).limit} characters.`;
        break;
      case 'maxLength':
        message = `Must be at most ${(error.params as { limit: number }).limit} characters.`;
        break;
      case 'format':
        message = FORMAT_MESSAGES[(error.params as { format: string }).format] ?? `Must be a valid ${(error.params as { format: string }).format}.`;
        break;
      case 'pattern':
        message = (error.parentSchema as { 'x-pattern-message'?: string } | undefined)?.['x-pattern-message'] ?? 'Has an invalid form.';
        break;
      case 'enum':
        message = `Must be one of: ${((error.params as { allowedValues: unknown[] }).allowedValues).map(String).join(', ')}.`;
        break;
      case 'minItems':
        message = `Must have at least ${(error.params as { limit: number }).limit} item(s).`;
        break;
      case 'maxItems':
        message = `Must have at most ${(error.params as { limit: number }).limit} items.`;
        break;
      case 'minimum': case 'exclusiveMinimum': case 'maximum': case 'exclusiveMaximum':
        message = `Must be ${(error.params as { comparison: string }).comparison} ${(error.params as { limit: number }).limit}.`;
        break;
      default:
        message = error.message ? `${error.message[0]!.toUpperCase()}${error.message.slice(1)}.` : 'Is invalid.';
    }
    const key = path === '' ? context : path;
    const list = (details[key] ??= []);
    if (!list.includes(message)) list.push(message);
  }
  return details;
}

const FORMAT_MESSAGES: Record<string, string> = {
  email: 'Must be an e-mail address.',
  uri: 'Must be a URL.',
  'date-time': 'Must be an ISO 8601 timestamp such as 2026-12-31T12:00:00.000Z.',
};

function article(type: string): string {
  const word = type === 'integer' ? 'a whole number' : type === 'object' ? 'an object' : type === 'array' ? 'an array' : type === 'null' ? 'null' : `a ${type}`;
  return word;
}

function join(base: string, name: string): string {
  return base === '' ? name : `${base}.${name}`;
}

function jsonPointerToPath(pointer: string): string {
  if (pointer === '') return '';
  return pointer.slice(1).split('/').reduce((out, raw) => {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    return /^\d+$/.test(segment) ? `${out}[${segment}]` : out === '' ? segment : `${out}.${segment}`;
  }, '');
}
