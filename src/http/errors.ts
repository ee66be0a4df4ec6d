import { STATUS_CODES } from 'node:http';
import type { ErrorObject } from 'ajv';
import { isDatabaseOutage } from '../lib/database-outage.ts';
import { said, saidOf } from './request-messages.ts';
import {
  AppError,
  addFieldError,
  fieldErrors,
  type ErrorCode,
  type FieldErrors,
  type FieldMessageKeys,
  type MessageKey,
} from '../lib/errors.ts';

/** The one place where an error code becomes an HTTP status. */
export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  validation_failed: 400,
  malformed_json: 400,
  malformed_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  not_acceptable: 406,
  request_timeout: 408,
  conflict: 409,
  customer_required: 409,
  quotation_not_open: 409,
  quotation_expired: 409,
  order_not_open: 409,
  idempotency_key_in_use: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  rate_limited: 429,
  headers_too_large: 431,
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
  /** The key of `detail` in the message catalog and its parameters, when it has one. */
  detailKey?: MessageKey;
  /** Beside `details`: each message's key and parameters, or null where it has none yet. */
  detailKeys?: FieldMessageKeys;
}

/**
 * At most this many fields are named in `details`. A 1 MiB body can hold 60,000 unknown fields;
 * naming every one would answer 2 MB of errors, and the first few are what a developer fixes first.
 */
export const MAX_DETAILS = 50;

export function problemFor(error: AppError, requestId: string): Problem {
  const status = STATUS_BY_CODE[error.code];
  let detail = error.message;
  let details = error.details;
  let paths = details ? Object.keys(details) : [];
  // Validation errors arrive capped (below); this guards any other list a service builds.
  if (details && paths.length > MAX_DETAILS) {
    const all = details;
    details = fieldErrors();
    for (const path of paths.slice(0, MAX_DETAILS)) details[path] = all[path]!;
    detail = withMore(detail, paths.length - MAX_DETAILS);
    paths = paths.slice(0, MAX_DETAILS);
  }
  // A key for every message or null, path by path, so a client can zip them with `details`.
  let detailKeys: FieldMessageKeys | undefined;
  if (details && error.detailKeys) {
    detailKeys = fieldErrors() as unknown as FieldMessageKeys;
    for (const path of paths) detailKeys[path] = details[path]!.map((_, i) => error.detailKeys?.[path]?.[i] ?? null);
  }
  const keyed = error.messageKey && detail === error.message;
  return {
    type: 'about:blank',
    title: STATUS_CODES[status] ?? 'Error',
    status,
    detail,
    code: error.code,
    requestId,
    ...(details ? { details } : {}),
    ...(keyed ? { detailKey: error.messageKey } : {}),
    ...(detailKeys ? { detailKeys } : {}),
  };
}

function withMore(message: string, more: number): string {
  return `${message.replace(/\.$/, '')}: ${MAX_DETAILS} fields are named in details, and ${more.toLocaleString('en-US')} more.`;
}

/** A database restart takes seconds; a client that waits this long usually finds it back. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * What Fastify, its plugins and the database drivers throw, translated; anything unknown is a
 * 500 with no internals.
 */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const e = error as {
    code?: string;
    errcode?: number;
    statusCode?: number;
    validation?: ErrorObject[];
    validationContext?: string;
    message?: string;
  };
  if (e.validation) {
    const { details, more } = validationDetails(e.validation, e.validationContext ?? 'body');
    return more > 0 ? AppError.invalid(details, withMore('The request is invalid.', more)) : AppError.invalid(details);
  }
  // A foreign-key violation is a 409, not a 400: services check every reference a client names
  // and answer a 400 naming the field, so one that still reaches the database is a reference
  // that changed under the request (deleted by a concurrent request) or a row still in use.
  // Either is a conflict with the current state, which re-reading and retrying can resolve.
  if (isForeignKeyViolation(e)) return new AppError('conflict', said('error.request.foreignKey'));
  // The database restarting or unreachable is an outage to wait out, not a bug: 503, retry.
  if (isDatabaseOutage(error))
    return new AppError('unavailable', said('error.request.databaseDown'), undefined, DATABASE_RETRY_AFTER_SECONDS);
  switch (e.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('unsupported_media_type', said('error.request.mediaType'));
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('payload_too_large', said('error.request.bodyTooLargeHere'));
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('malformed_json', said('error.request.emptyJson'));
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError('malformed_json', said('error.request.invalidJson'));
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('malformed_json', said('error.request.contentLength'));
    case 'FST_ERR_BAD_URL':
      return new AppError('malformed_request', said('error.request.badUrl'));
    case 'FST_ERR_MAX_PARAM_LENGTH':
      // No id is that long, as no id holds a NUL: the thing named does not exist.
      return AppError.notFound('Resource');
  }
  if (e.statusCode === 400 && error instanceof SyntaxError)
    return new AppError('malformed_json', said('error.request.invalidJson'));
  if (e.statusCode === 429) return new AppError('rate_limited', e.message ?? said('error.request.tooMany'));
  if (e.statusCode === 413) return new AppError('payload_too_large', said('error.request.bodyTooLarge'));
  if (e.statusCode === 415) return new AppError('unsupported_media_type', said('error.request.mediaType'));
  if (e.statusCode === 406) return new AppError('not_acceptable', e.message ?? said('error.request.notAcceptable'));
  if (e.statusCode === 404) return AppError.notFound('Resource');
  if (e.statusCode !== undefined && e.statusCode >= 400 && e.statusCode < 500)
    return new AppError('validation_failed', e.message ?? said('error.request.bad'));
  return new AppError('internal', said('error.internal'));
}

/**
 * Ajv's errors as `field path → messages`, paths written the way a developer reads them:
 * `lines[2].quantity`; the first MAX_DETAILS fields, and how many more there are.
 */
export function validationDetails(
  errors: readonly ErrorObject[],
  context: string,
): { details: FieldErrors; more: number } {
  // First only the paths: a body of 80,000 bad items costs a Set of their names, and messages
  // are written for the fields shown.
  const paths = new Map<string, string>();
  const keys = errors.map((error) => {
    let base = paths.get(error.instancePath);
    if (base === undefined) {
      base = jsonPointerToPath(error.instancePath);
      paths.set(error.instancePath, base);
    }
    const path =
      error.keyword === 'required'
        ? join(base, (error.params as { missingProperty: string }).missingProperty)
        : error.keyword === 'additionalProperties'
          ? join(base, (error.params as { additionalProperty: string }).additionalProperty)
          : error.keyword === 'discriminator'
            ? join(base, (error.params as { tag: string }).tag)
            : base;
    return path === '' ? context : path;
  });
  const shown = new Set<string>();
  const beyond = new Set<string>();
  for (const key of keys) if (!shown.has(key)) (shown.size < MAX_DETAILS ? shown : beyond).add(key);
  const keyOf = new Map<ErrorObject, string>();
  errors.forEach((error, i) => {
    if (shown.has(keys[i]!)) keyOf.set(error, keys[i]!);
  });
  const kept = [...keyOf.keys()];

  // Field names come from the client: `constructor` or `__proto__` must land as fields, not find inherited members.
  const details = fieldErrors();
  // An empty string fails both minLength and the "not only white space" pattern: say it once.
  const tooShort = new Set(kept.filter((e) => e.keyword === 'minLength').map((e) => e.instancePath));
  const unionNoise = unionNoiseOf(kept);
  for (const error of kept) {
    if (error.keyword === 'pattern' && tooShort.has(error.instancePath)) continue;
    if (unionNoise.has(error)) continue;
    let message: string;
    switch (error.keyword) {
      case 'required':
        message = 'Is required.';
        break;
      case 'additionalProperties':
        message = 'Is not a known field.';
        break;
      case 'type':
        message = `Must be ${article((error.params as { type: string }).type)}.`;
        break;
      case 'minLength':
        message =
          (error.params as { limit: number }).limit === 1
            ? 'Must not be empty.'
            : `Must be at least ${(error.params as { limit: number }).limit} characters.`;
        break;
      case 'maxLength':
        message = `Must be at most ${(error.params as { limit: number }).limit} characters.`;
        break;
      case 'format':
        message =
          FORMAT_MESSAGES[(error.params as { format: string }).format] ??
          `Must be a valid ${(error.params as { format: string }).format}.`;
        break;
      case 'pattern':
        message =
          (error.parentSchema as { 'x-pattern-message'?: string } | undefined)?.['x-pattern-message'] ??
          'Has an invalid form.';
        break;
      case 'enum':
        message = oneOf((error.params as { allowedValues: unknown[] }).allowedValues);
        break;
      case 'anyOf': {
        const values = literalValues(error.schema);
        message = values
          ? oneOf(values)
          : (patternMessageOf(error.parentSchema) ?? 'Does not match any of the allowed forms.');
        break;
      }
      case 'discriminator': {
        // A `kind` outside the mapping: name the kinds there are.
        const values = tagValues(error.parentSchema, (error.params as { tag: string }).tag);
        message = values ? oneOf(values) : 'Is not a known kind.';
        break;
      }
      case 'minItems':
        message = `Must have at least ${(error.params as { limit: number }).limit} item(s).`;
        break;
      case 'maxItems':
        message = `Must have at most ${(error.params as { limit: number }).limit} items.`;
        break;
      case 'minimum':
      case 'exclusiveMinimum':
      case 'maximum':
      case 'exclusiveMaximum':
        message = `Must be ${(error.params as { comparison: string }).comparison} ${(error.params as { limit: number }).limit}.`;
        break;
      default:
        message = error.message ? `${error.message[0]!.toUpperCase()}${error.message.slice(1)}.` : 'Is invalid.';
    }
    // Said by key where the catalog has the message, so the hub and clients can say it in their language.
    addFieldError(details, keyOf.get(error)!, saidOf(message));
  }
  return { details, more: beyond.size };
}

/**
 * Ajv explains a failed `anyOf` branch by branch ("Must be equal to constant. Must match a
 * schema in anyOf."). For a union of literals the `anyOf` error alone says it, as "Must be one
 * of: …"; for a nullable value the null branch ("Must be null.") and the `anyOf` summary are
 * noise once the other branch has said what is wrong.
 */
function unionNoiseOf(errors: readonly ErrorObject[]): Set<ErrorObject> {
  const noise = new Set<ErrorObject>();
  errors.forEach((union, at) => {
    if (union.keyword !== 'anyOf' || !Array.isArray(union.schema)) return;
    // Ajv reports a failed anyOf's branch errors just before it, one contiguous run; walking
    // back over that run only keeps this linear when a body holds thousands of failed unions.
    const prefix = `${union.schemaPath}/`;
    const branchErrors: ErrorObject[] = [];
    for (
      let i = at - 1;
      i >= 0 && errors[i]!.schemaPath.startsWith(prefix) && errors[i]!.instancePath.startsWith(union.instancePath);
      i--
    )
      branchErrors.push(errors[i]!);
    const alternatives = union.schema as unknown[];
    if (literalValues(alternatives)) {
      for (const e of branchErrors) noise.add(e);
      return;
    }
    // A value of two types (a quantity: a number or a decimal string): the branch of the other
    // type only says "Must be a number"; the branch of the value's own type says what is wrong.
    const ownLevelTypes = branchErrors.filter((e) => e.keyword === 'type' && e.instancePath === union.instancePath);
    if (ownLevelTypes.length > 0 && ownLevelTypes.length < branchErrors.length && !alternatives.some(isNullType)) {
      for (const e of ownLevelTypes) noise.add(e);
      noise.add(union);
      return;
    }
    // Neither type: the union's own message, when it has one, says it once.
    if (ownLevelTypes.length === branchErrors.length && patternMessageOf(union.parentSchema)) {
      for (const e of branchErrors) noise.add(e);
      return;
    }
    const nullBranches = alternatives.flatMap((a, i) => (isNullType(a) ? [`${prefix}${i}/`] : []));
    if (nullBranches.length === 0) return;
    for (const e of branchErrors)
      if (e.instancePath === union.instancePath && nullBranches.some((p) => e.schemaPath.startsWith(p))) noise.add(e);
    if (branchErrors.some((e) => !noise.has(e))) noise.add(union);
  });
  return noise;
}

/** The values a union allows when every branch is a literal (or null); otherwise undefined. */
function literalValues(alternatives: unknown): unknown[] | undefined {
  if (!Array.isArray(alternatives) || alternatives.length === 0) return undefined;
  const values: unknown[] = [];
  for (const a of alternatives as Array<Record<string, unknown>>) {
    if (a && typeof a === 'object' && 'const' in a) values.push(a.const);
    else if (a && typeof a === 'object' && Array.isArray(a.enum)) values.push(...a.enum);
    else if (isNullType(a)) values.push(null);
    else return undefined;
  }
  return values;
}

function tagValues(parentSchema: unknown, tag: string): unknown[] | undefined {
  const branches = (parentSchema as { oneOf?: Array<{ properties?: Record<string, unknown> }> } | undefined)?.oneOf;
  if (!Array.isArray(branches)) return undefined;
  const values = branches.map((b) => literalValues([b.properties?.[tag]]));
  return values.every((v) => v !== undefined) ? values.flat() : undefined;
}

function patternMessageOf(schema: unknown): string | undefined {
  return (schema as { 'x-pattern-message'?: string } | undefined)?.['x-pattern-message'];
}

function isNullType(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && (schema as { type?: unknown }).type === 'null';
}

function oneOf(values: readonly unknown[]): string {
  return `Must be one of: ${values.map(String).join(', ')}.`;
}

/** SQLite (node:sqlite: extended code SQLITE_CONSTRAINT_FOREIGNKEY) or PostgreSQL (SQLSTATE 23503). */
function isForeignKeyViolation(e: { code?: string; errcode?: number }): boolean {
  return (e.code === 'ERR_SQLITE_ERROR' && e.errcode === 787) || e.code === '23503';
}

const FORMAT_MESSAGES: Record<string, string> = {
  email: 'Must be an e-mail address.',
  uri: 'Must be a URL.',
  'date-time': 'Must be an ISO 8601 timestamp such as 2026-12-31T12:00:00.000Z.',
};

function article(type: string): string {
  const word =
    type === 'integer'
      ? 'a whole number'
      : type === 'object'
        ? 'an object'
        : type === 'array'
          ? 'an array'
          : type === 'null'
            ? 'null'
            : `a ${type}`;
  return word;
}

function join(base: string, name: string): string {
  return base === '' ? name : `${base}.${name}`;
}

function jsonPointerToPath(pointer: string): string {
  if (pointer === '') return '';
  return pointer
    .slice(1)
    .split('/')
    .reduce((out, raw) => {
      const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      return /^\d+$/.test(segment) ? `${out}[${segment}]` : out === '' ? segment : `${out}.${segment}`;
    }, '');
}
