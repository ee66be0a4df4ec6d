import { Type, type TSchema } from 'typebox';

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

export const Money = Type.String({
  pattern: '^-?\\d+\\.\\d{2}$',
  description: 'Decimal amount in the currency, two places.',
  examples: ['1234.50'],
});

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
