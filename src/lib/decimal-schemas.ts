import { Type } from 'typebox';

/**
 * The API's one convention for amounts (docs/api-conventions.md), for answers and webhook
 * bodies alike, so here where both the HTTP layer and the event catalog reach it. Every money
 * field and every quantity is built from these schemas (requests from `src/http/schemas.ts`'s
 * `MoneyInput` and `QuantityInput`), which carry `x-portico-decimal` ("money" or
 * "quantity") into the OpenAPI document; test/http/api-conventions.test.ts walks that document
 * and fails on an amount that is not one of them, so the convention cannot drift field by field.
 */
export const DECIMAL_MARKER = 'x-portico-decimal';

/** Money in an answer: a decimal string, two places, in the document's currency. */
export const Money = Type.String({
  pattern: '^-?\\d+\\.\\d{2}$',
  description: "Decimal amount in the document's currency, two places.",
  examples: ['1234.50'],
  [DECIMAL_MARKER]: 'money',
});

/** Money in an answer, with a description of its own. */
export const MoneyOf = (description: string) => Type.String({ ...Money, description });

/** A quantity in an answer: a decimal string, at most three places, no trailing zeros; negative on a correction. */
export const Quantity = Type.String({
  pattern: '^-?\\d+(\\.\\d{1,3})?$',
  description: 'Decimal string, at most 3 places.',
  examples: ['1.5'],
  [DECIMAL_MARKER]: 'quantity',
});

/** A quantity in an answer, with a description of its own. */
export const QuantityOf = (description: string) => Type.String({ ...Quantity, description });
