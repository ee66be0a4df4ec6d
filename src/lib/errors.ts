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
 * A message by its key in the message catalog and its parameters, with its English text: the
 * API sends the text (integrators read it) and the key (a client in another language, and the
 * hub, say it in the reader's language). Services build one with the i18n module's `said`.
 */
export interface Said {
  readonly text: string;
  readonly key: string;
  readonly params?: Readonly<Record<string, string | number>>;
}

/** What an error names a message by: its key and parameters. */
export interface MessageKey {
  key: string;
  params: Record<string, string | number>;
}

/** A message as a service may give it: English text alone (not yet in the catalog) or said by key. */
export type Message = string | Said;

/**
 * Field path (`lines[2].quantity`) → messages. Paths come from the client (an unknown field is
 * named as sent), so build one with `fieldErrors()`: on a plain `{}` a field called `constructor`
 * or `__proto__` would find or replace what every object inherits.
 */
export type FieldErrors = Record<string, string[]>;

/** Field path → the key of each message in `FieldErrors` at the same place (null: none yet). */
export type FieldMessageKeys = Record<string, Array<MessageKey | null>>;

/** The details a service may throw: field path → messages, each text or said by key. */
export type FieldMessages = Readonly<Record<string, ReadonlyArray<Message>>>;

/**
 * The keys of the messages `addFieldError` collected, kept on the details object itself (not
 * enumerable, so it is not sent, compared or copied as a field) until an AppError takes them.
 */
const KEYS = Symbol('message keys');

/** An empty, prototype-free map of field errors; JSON.stringify writes it as any object. */
export function fieldErrors(): FieldErrors {
  return Object.create(null) as FieldErrors;
}

const textOf = (message: Message): string => (typeof message === 'string' ? message : message.text);
const keyOf = (message: Message): MessageKey | null =>
  typeof message === 'string' ? null : { key: message.key, params: { ...message.params } };

/**
 * What may be "not found", and the last part of its message key (`error.notFound.<key>` in the
 * i18n catalog, whose test checks every one is there in hr, de and en).
 */
export const NOT_FOUND = {
  'API key': 'apiKey',
  Category: 'category',
  Company: 'company',
  Customer: 'customer',
  Datasheet: 'datasheet',
  Delivery: 'delivery',
  'Drawer day': 'drawerDay',
  Export: 'export',
  Inquiry: 'inquiry',
  Location: 'location',
  Model: 'model',
  Notification: 'notification',
  Order: 'order',
  Page: 'page',
  Payment: 'payment',
  Photo: 'photo',
  Product: 'product',
  'Purchase invoice': 'purchaseInvoice',
  Quotation: 'quotation',
  'Quotation revision': 'quotationRevision',
  Resource: 'resource',
  Sale: 'sale',
  'Tax rate': 'taxRate',
  Unit: 'unit',
  User: 'user',
  'Webhook endpoint': 'webhookEndpoint',
} as const;
export type NotFoundThing = keyof typeof NOT_FOUND;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: FieldErrors | undefined;
  /** The key of `message`, when it was said by key. */
  readonly messageKey: MessageKey | undefined;
  /** The keys of the messages in `details`, where any was said by key. */
  readonly detailKeys: FieldMessageKeys | undefined;
  /** When the client may try again (`unavailable`, `rate_limited`); sent as Retry-After. */
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ErrorCode, message: Message, details?: FieldMessages, retryAfterSeconds?: number) {
    super(textOf(message));
    this.name = 'AppError';
    this.code = code;
    this.messageKey = keyOf(message) ?? undefined;
    const split = details ? splitMessages(details) : undefined;
    this.details = split?.texts;
    this.detailKeys = split?.keys;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** "Quotation not found.", said by its key (`error.notFound.quotation`) so the hub says it in the reader's language. */
  static notFound(what: NotFoundThing): AppError {
    return new AppError('not_found', {
      text: `${what} not found.`,
      key: `error.notFound.${NOT_FOUND[what]}`,
      params: {},
    });
  }

  static invalid(details: FieldMessages, message: Message = INVALID): AppError {
    return new AppError('validation_failed', message, details);
  }

  /** Its message as thrown: the text, with its key where it had one (to throw again, or wrap). */
  said(): Message {
    return this.messageKey ? { text: this.message, ...this.messageKey } : this.message;
  }
}

/** The message of a refusal that names no message of its own: its fields say what is wrong. */
const INVALID: Said = { text: 'The request is invalid.', key: 'error.request.invalid', params: {} };

/**
 * Adds every field message of a refusal to `details`, each with its key, so the refusals of two
 * checks (the caller's and a service's it calls) reach the client together and still in the
 * reader's language; a spread of the two would drop the keys.
 */
export function addFieldErrors(details: FieldErrors, error: AppError): void {
  for (const [path, list] of Object.entries(error.details ?? {}))
    list.forEach((text, i) => {
      const key = error.detailKeys?.[path]?.[i];
      addFieldError(details, path, key ? { text, ...key } : text);
    });
}

/**
 * Texts and keys apart. Details of texts only stay the very object given (a service's own map,
 * compared and extended as it is); otherwise a copy of the same kind holds the texts.
 */
function splitMessages(details: FieldMessages): { texts: FieldErrors; keys: FieldMessageKeys | undefined } {
  const collected = (details as { [KEYS]?: FieldMessageKeys })[KEYS];
  const paths = Object.keys(details);
  if (paths.every((path) => details[path]!.every((m) => typeof m === 'string')))
    return { texts: details as FieldErrors, keys: collected };
  const texts = Object.create(Object.getPrototypeOf(details)) as FieldErrors;
  const keys = Object.create(null) as FieldMessageKeys;
  for (const path of paths) {
    define(texts, path, details[path]!.map(textOf));
    define(
      keys,
      path,
      details[path]!.map((m, i) => keyOf(m) ?? collected?.[path]?.[i] ?? null),
    );
  }
  return { texts, keys };
}

function define<T>(target: Record<string, T>, path: string, value: T): void {
  Object.defineProperty(target, path, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Adds a message under a field path, creating the list on first use. Own properties only, and
 * defined rather than assigned, so even a plain `{}` takes `__proto__` or `toString` as a field.
 * A message said by key keeps its key beside the text, for the AppError the details end up in.
 */
export function addFieldError(details: FieldErrors, path: string, message: Message): void {
  if (!Object.hasOwn(details, path)) define<string[]>(details, path, []);
  const list = details[path]!;
  const text = textOf(message);
  if (list.includes(text)) return;
  list.push(text);
  const key = keyOf(message);
  let keys = (details as { [KEYS]?: FieldMessageKeys })[KEYS];
  if (!key && !keys) return;
  if (!keys) {
    keys = Object.create(null) as FieldMessageKeys;
    Object.defineProperty(details, KEYS, { value: keys, enumerable: false });
  }
  if (!Object.hasOwn(keys, path)) define<Array<MessageKey | null>>(keys, path, []);
  const at = keys[path]!;
  while (at.length < list.length - 1) at.push(null);
  at.push(key);
}
