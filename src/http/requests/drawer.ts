import { Type } from 'typebox';
import { MoneyInput } from '../schemas.ts';

/** A decimal amount the drawer takes: `100.00`, not negative. */
const Amount = MoneyInput({ description: 'A decimal amount, e.g. `100.00`; not negative.' });

/** The drawer opened for the day with its float. */
export const OpenDrawerBody = Type.Object({ float: Amount }, { additionalProperties: false });

/** Cash put in or taken out, with a reason. */
export const DrawerMovementBody = Type.Object(
  {
    kind: Type.Union([Type.Literal('in'), Type.Literal('out')]),
    amount: Amount,
    reason: Type.String({ minLength: 1, maxLength: 500 }),
  },
  { additionalProperties: false },
);

/** The close: the cash counted, or counted by denomination, or both when they agree. */
export const CloseDrawerBody = Type.Object(
  {
    counted: Type.Optional(Amount),
    denominations: Type.Optional(
      Type.Record(Type.String({ maxLength: 10 }), Type.Integer({ minimum: 0, maximum: 100000 }), {
        description: 'How many of each euro note and coin: `{"50.00": 2, "0.20": 3}`.',
      }),
    ),
  },
  { additionalProperties: false },
);
