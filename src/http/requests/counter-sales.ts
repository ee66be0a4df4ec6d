import { Type, type Static } from 'typebox';
import { COUNTER_PAYMENT_METHODS, type CounterSale } from '../../modules/invoicing/index.ts';
import { IssueDetails } from './sales.ts';
import { MoneyInput } from '../schemas.ts';
import { toLineRequests, MAX_LINES } from '../public/v1/lines.schema.ts';
import { StaffLineInput } from './quotations.ts';

/** A counter sale; the hub's counter page is checked with the same schema. */
export const CounterSaleBody = Type.Object(
  {
    lines: Type.Array(StaffLineInput, { minItems: 1, maxItems: MAX_LINES }),
    customerId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'A directory customer (an R-1 invoice for a business); absent: a walk-in customer.',
      }),
    ),
    paymentMethod: Type.Enum(COUNTER_PAYMENT_METHODS, {
      description: 'Paid there and then: the invoice is issued paid.',
    }),
    tendered: Type.Optional(
      MoneyInput({
        description: 'Cash only: what the customer handed over, at least the total; the answer says the change.',
      }),
    ),
    note: Type.Optional(Type.String({ maxLength: 2000 })),
    locationId: Type.Optional(
      Type.String({ maxLength: 64, description: "Where it is sold; the company's first location when absent." }),
    ),
    ...IssueDetails,
  },
  { additionalProperties: false },
);
export type CounterSaleBody = Static<typeof CounterSaleBody>;

export function toCounterSale(body: CounterSaleBody): CounterSale {
  return {
    lines: toLineRequests(body.lines).map((line, i) => ({
      ...line,
      ...(body.lines[i]!.discountPercent === undefined ? {} : { discountPercent: body.lines[i]!.discountPercent }),
    })),
    customerId: body.customerId ?? null,
    paymentMethod: body.paymentMethod,
    tendered: body.tendered ?? null,
    note: body.note ?? null,
    ...(body.locationId ? { locationId: body.locationId } : {}),
    deliveryDate: body.deliveryDate ?? null,
    orderReference: body.orderReference ?? null,
  };
}

/** A basket given up at the counter: what it held, where. */
export const AbortBasketBody = Type.Object(
  {
    lines: Type.Array(StaffLineInput, { minItems: 1, maxItems: MAX_LINES }),
    locationId: Type.Optional(Type.String({ maxLength: 64 })),
  },
  { additionalProperties: false },
);
export type AbortBasketBody = Static<typeof AbortBasketBody>;

export function toAbortBasket(body: AbortBasketBody) {
  return {
    lines: toCounterSale({ lines: body.lines, paymentMethod: 'cash' }).lines,
    ...(body.locationId ? { locationId: body.locationId } : {}),
  };
}
