import { Type, type TSchema } from 'typebox';
import { formatMoney } from '../lib/money.ts';
import { DECIMAL_MARKER, Money, MoneyOf, Quantity, QuantityOf } from '../lib/decimal-schemas.ts';

export { DECIMAL_MARKER, Money, MoneyOf, Quantity, QuantityOf };

/** Shared schema pieces; each route keeps its own request and response schemas beside it. */

/** A required line of text: not empty, not only white space, bounded. */
export const Text = (maxLength: number, extra: Record<string, unknown> = {}) =>
  Type.String({
    minLength: 1,
    maxLength,
    pattern: '\\S',
    'x-pattern-message': 'Must contain more than white space.',
    ...extra,
  });

/**
 * A name (a customer's, an inquirer's, a product's): a Text with no control characters. A line
 * break or a C1 control in a name ends up in e-mail headers, PDFs, CSV exports and printed
 * receipts, where it breaks lines or hides text.
 */
export const Name = (maxLength: number, extra: Record<string, unknown> = {}) =>
  Text(maxLength, {
    pattern: '^(?=.*\\S)[^\\u0000-\\u001F\\u007F-\\u009F]*$',
    'x-pattern-message': 'Must contain more than white space, and no control characters (line breaks, tabs).',
    ...extra,
  });

export const Email = Type.String({ format: 'email', maxLength: 254, examples: ['ana.kovac@example.com'] });

export const Phone = Type.String({
  minLength: 3,
  maxLength: 40,
  pattern: '^[+0-9 ()./-]*[0-9][+0-9 ()./-]*$',
  'x-pattern-message': 'Must be a phone number: digits, spaces and + ( ) . / -.',
  examples: ['+385 1 234 5678'],
});

export const Id = (prefix: string) =>
  Type.String({ minLength: 1, maxLength: 64, examples: [`${prefix}_4fJ2kq9XbR0mW8tLz1cA`] });

export const API_CONVENTION =
  'Amounts: money in every request and answer is a decimal string in the currency of its document ' +
  '(or company), with a point: answered with exactly two places (`"12.50"`, `"-3.00"`), accepted with ' +
  'at most two (`"12.5"`). Never a JSON number, never cents. Quantities are accepted as a JSON number ' +
  'or a decimal string with at most three places (`3`, `1.5`, `"1.5"`) and answered as decimal strings ' +
  'without trailing zeros (`"1.5"`, `"3"`). A malformed amount is a 400 problem whose `details` name the field.';

/**
 * Money in a request: a decimal string, at most two places (`"12.5"` and `"12.50"` alike), not
 * a number: a JSON number is a binary fraction, and 0.1 + 0.2 is not 0.3. `signed` lets a minus in.
 */
export const MoneyInput = (options: { signed?: boolean; description?: string } = {}) =>
  Type.String({
    pattern: options.signed ? '^-?\\d{1,15}(\\.\\d{1,2})?$' : '^\\d{1,15}(\\.\\d{1,2})?$',
    maxLength: 19,
    'x-pattern-message': 'Must be a decimal amount such as 50.00.',
    description:
      options.description ?? "Decimal amount in the document's currency, as a string with at most two decimal places.",
    examples: ['12.50'],
    [DECIMAL_MARKER]: 'money',
  });

/**
 * A quantity in a request: a JSON number or a decimal string, greater than 0, at most three
 * places. Routes hand it on as text (`quantityText`), which the services parse exactly.
 */
export const QuantityInput = (
  description = 'Greater than 0, at most 3 decimal places: a JSON number or a decimal string.',
) =>
  Type.Union(
    [
      Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000_000 }),
      Type.String({
        pattern: '^\\d{1,10}(\\.\\d{1,3})?$',
        maxLength: 14,
        'x-pattern-message': 'Must be a decimal quantity such as 1.5.',
      }),
    ],
    {
      description,
      examples: [1.5, '1.5'],
      // Said once for the field when the value is neither a number nor a string.
      'x-pattern-message': 'Must be a decimal quantity such as 1.5.',
      [DECIMAL_MARKER]: 'quantity',
    },
  );

/**
 * A service's answer with money in cents, as the API answers it: every integer the schema marks
 * as money becomes a decimal string ("1250" cents → "12.50"); everything else is copied as is.
 */
export function centsAsMoney(value: unknown, schema: TSchema): unknown {
  const s = schema as Record<string, unknown>;
  if (value === null || value === undefined) return value;
  if (s[DECIMAL_MARKER] === 'money') return typeof value === 'number' ? formatMoney(value) : value;
  if (Array.isArray(s.anyOf)) {
    // Nullable, or a union of answers (the VAT summary or the book): the branch whose fields fit.
    const branches = (s.anyOf as TSchema[]).filter((b) => (b as { type?: string }).type !== 'null');
    const fits = branches.find((b) => fitsObject(value, b)) ?? branches[0];
    return fits ? centsAsMoney(value, fits) : value;
  }
  if (Array.isArray(value)) return s.items ? value.map((v) => centsAsMoney(v, s.items as TSchema)) : value;
  if (typeof value === 'object' && s.properties) {
    const properties = s.properties as Record<string, TSchema>;
    const copy: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) copy[key] = properties[key] ? centsAsMoney(v, properties[key]) : v;
    return copy;
  }
  return value;
}

function fitsObject(value: unknown, schema: TSchema): boolean {
  const properties = (schema as { properties?: Record<string, unknown> }).properties;
  return (
    !!properties && typeof value === 'object' && value !== null && Object.keys(value).every((k) => k in properties)
  );
}

/**
 * A quantity as sent, as the decimal text the services parse: a number's shortest round-trip
 * text is what the client wrote (1.5, 0.333); exponent notation (1e-7) is left for the service
 * to refuse by field.
 */
export const quantityText = (value: number | string): string => (typeof value === 'number' ? String(value) : value);

export const Timestamp = Type.String({
  format: 'date-time',
  description: 'ISO 8601 UTC with milliseconds.',
  examples: ['2026-11-21T10:15:30.123Z'],
});

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const Data = <T extends TSchema>(schema: T) => Type.Object({ data: schema }, { additionalProperties: false });

export const Problem = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String({ description: 'Stable machine-readable error code.' }),
    requestId: Type.String(),
    details: Type.Optional(
      Type.Record(Type.String(), Type.Array(Type.String()), {
        description: 'Field path → messages, e.g. "lines[2].quantity".',
      }),
    ),
    detailKey: Type.Optional(
      Type.Object(
        { key: Type.String(), params: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()])) },
        {
          description:
            "`detail`'s key in Portico's message catalog and its parameters, for showing it in another language (`detail` stays English). Absent when the message has no key yet.",
        },
      ),
    ),
    detailKeys: Type.Optional(
      Type.Record(
        Type.String(),
        Type.Array(
          Type.Union([
            Type.Object({
              key: Type.String(),
              params: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()])),
            }),
            Type.Null(),
          ]),
        ),
        {
          description:
            "Beside `details`, path by path and in the same order: each message's catalog key and parameters, or null where a message has no key yet.",
        },
      ),
    ),
  },
  { $id: 'Problem', description: 'RFC 9457 problem details.' },
);

export const ProblemRef = Type.Ref('Problem');

/** The error responses every authenticated route can give. */
export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(
    [401, 429, ...statuses].map((s) => [s, { ...ProblemRef, description: DESCRIPTIONS[s] ?? 'Error' }]),
  );

const DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request; `details` names each bad field.',
  401: 'Missing, malformed, unknown or revoked credentials.',
  403: 'The credentials may not do this.',
  404: 'Not found (or not visible to this key).',
  409: 'A request with the same Idempotency-Key is in progress.',
  413: 'Body too large.',
  415: 'Body is not application/json.',
  422: 'Idempotency-Key reused with a different request.',
  429: 'Rate limit exceeded; see Retry-After.',
  503: 'Too busy printing PDFs; retry after Retry-After seconds (nothing was created).',
};

export const Pagination = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 25 })),
  cursor: Type.Optional(Type.String({ maxLength: 500, description: "From the previous page's `nextCursor`." })),
};
