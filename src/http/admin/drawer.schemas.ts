import { Type } from 'typebox';
import { Money, Nullable, Timestamp } from '../schemas.ts';
const Count = Type.Object(
  { count: Type.Integer(), total: Money },
  { additionalProperties: false, description: 'How many documents of the kind and their total.' },
);

export const DayReportSchema = Type.Object(
  {
    locationId: Type.String(),
    premises: Type.String({
      description:
        "The till: the location's fiscal premises label (its code when it has none), as its invoice numbers write it.",
    }),
    device: Type.String({
      description:
        "The till: the location's device label (`1` when it has none). A second till in one shop is a second location with the same premises and another device.",
    }),
    date: Type.String({ description: 'YYYY-MM-DD where the company is, the day the drawer was opened.' }),
    currency: Type.String(),
    openedAt: Timestamp,
    openedBy: Nullable(Type.String()),
    closedAt: Nullable(Timestamp),
    closedBy: Nullable(Type.String()),
    float: Money,
    cashIn: Money,
    cashOut: Money,
    cashSales: Type.String({ ...Money, description: 'Cash payments at the location while the drawer was open.' }),
    cashRefunds: Type.String({ ...Money, description: 'Cash given back with cancellations and credit notes.' }),
    expected: Type.String({ ...Money, description: 'float + cashIn − cashOut + cashSales − cashRefunds.' }),
    counted: Nullable(Money),
    difference: Nullable(Type.String({ ...Money, description: 'counted − expected; negative: cash missing.' })),
    denominations: Nullable(
      Type.Array(Type.Object({ value: Money, count: Type.Integer(), amount: Money }, { additionalProperties: false })),
    ),
    byMethod: Type.Array(
      Type.Object({ method: Type.String(), sales: Money, refunds: Money }, { additionalProperties: false }),
    ),
    byRate: Type.Array(
      Type.Object(
        { rate: Type.String({ description: 'Percent, e.g. `25.00`.' }), net: Money, tax: Money, total: Money },
        { additionalProperties: false },
      ),
    ),
    invoices: Count,
    cancellations: Count,
    creditNotes: Count,
    documents: Type.Object(
      { first: Nullable(Type.String()), last: Nullable(Type.String()), count: Type.Integer() },
      { additionalProperties: false, description: 'The legal numbers of the first and last document issued.' },
    ),
    movements: Type.Array(
      Type.Object(
        {
          kind: Type.Union([Type.Literal('in'), Type.Literal('out')]),
          amount: Money,
          reason: Type.String(),
          at: Timestamp,
          by: Nullable(Type.String()),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
