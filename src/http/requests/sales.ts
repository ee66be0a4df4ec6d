import { Type, type Static } from 'typebox';
import { MoneyInput, QuantityInput, Text, quantityText } from '../schemas.ts';
import { INVOICE_PAYMENT_METHODS, PAYMENT_METHODS } from '../../modules/sales/index.ts';

/** A payment as recorded; the hub's payment form is checked against the same schema, so the same messages. */
export const PaymentBody = Type.Object(
  {
    method: Type.Enum(PAYMENT_METHODS),
    amount: MoneyInput({ description: "In the sale's currency, at most two decimal places, like every money field." }),
  },
  { additionalProperties: false },
);

/** How money paid on a corrected invoice goes back. */
export const RefundRequest = Type.Object(
  {
    method: Type.Union([Type.Literal('cash'), Type.Literal('card'), Type.Literal('bank_transfer')], {
      description: 'Cash from the drawer, a card reversal, or a bank transfer.',
    }),
  },
  {
    additionalProperties: false,
    description:
      "How what was paid goes back when the invoice was paid: recorded as a refund with who gave it (`refund.recorded`), and the invoice's `paid` falls by it. Absent: a counter sale's money goes back the way it was paid; another invoice's stays owed back (a negative `balance`). Nothing is recorded when nothing was paid.",
  },
);

/** Money owed back on a corrected invoice, given later than its correction. */
export const RefundBody = Type.Object(
  {
    method: RefundRequest.properties.method,
    amount: Type.Optional(
      MoneyInput({ description: 'At most what is owed back (the default: all of it), in the sale’s currency.' }),
    ),
  },
  { additionalProperties: false },
);

/** A credit note: which invoice lines come back, how many of each, and why. */
export const CreditNoteBody = Type.Object(
  {
    lines: Type.Array(
      Type.Object(
        {
          lineId: Type.String({ maxLength: 64, description: "The invoice line's `id`." }),
          quantity: QuantityInput(),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 500 },
    ),
    reason: Text(500, { examples: ['One tin returned unopened.'] }),
    refund: Type.Optional(RefundRequest),
  },
  { additionalProperties: false },
);

/** The credit note as the service takes it: each quantity as decimal text, as sent or from the number sent. */
export function toCreditNote(body: Static<typeof CreditNoteBody>) {
  return { ...body, lines: body.lines.map((l) => ({ lineId: l.lineId, quantity: quantityText(l.quantity) })) };
}

/** A cancellation of an invoice: why, and how money paid on it goes back. */
export const InvoiceCancelBody = Type.Object(
  {
    reason: Text(500, { examples: ['Wrong item scanned.'] }),
    refund: Type.Optional(RefundRequest),
  },
  { additionalProperties: false },
);

/** The payment method an invoice states, chosen when a quotation or web order is converted. */
export const ConvertPaymentMethod = Type.Optional(
  Type.Enum(INVOICE_PAYMENT_METHODS, {
    default: 'bank_transfer',
    description: 'How the invoice is paid, printed on it (and told to the fiscal authority). Absent: `bank_transfer`.',
  }),
);

/** What a conversion or counter sale may add to the invoice: the delivery date (BT-72) and the buyer's order number (BT-13). */
export const IssueDetails = {
  deliveryDate: Type.Optional(
    Type.String({
      pattern: '^\\d{4}-\\d{2}-\\d{2}$',
      maxLength: 10,
      'x-pattern-message': 'Must be a calendar date, YYYY-MM-DD.',
      description: 'When the goods or services were delivered (EN 16931 BT-72); the day of issue when absent.',
      examples: ['2026-03-14'],
    }),
  ),
  orderReference: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description:
        "The buyer's order number (EN 16931 BT-13), printed and carried in the e-invoice; for a quotation accepted online, the reference the customer gave when absent.",
      examples: ['NG-2026-114'],
    }),
  ),
};
