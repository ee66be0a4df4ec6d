import { Type } from 'typebox';
import { PAYMENT_METHODS } from '../../modules/sales/index.ts';

/** A payment as recorded; the hub's payment form is checked against the same schema, so the same messages. */
export const PaymentBody = Type.Object(
  {
    method: Type.Enum(PAYMENT_METHODS),
    amount: Type.String({
      pattern: '^\\d+(\\.\\d{1,2})?$',
      maxLength: 20,
      'x-pattern-message': 'Must be a decimal amount such as 12.50.',
      description: "In the sale's currency, at most two decimal places, like every money field.",
      examples: ['12.50'],
    }),
  },
  { additionalProperties: false },
);
