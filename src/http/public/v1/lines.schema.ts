import { Type, type Static } from 'typebox';
import { Id, Money, MoneyOf, Quantity, QuantityInput, quantityText } from '../../schemas.ts';
import type { LineRequest } from '../../../modules/documents/index.ts';

export const MAX_LINES = 500;

export const LineInput = Type.Object(
  {
    productId: Id('prd'),
    unitId: Id('unt'),
    quantity: QuantityInput(),
    note: Type.Optional(
      Type.String({
        maxLength: 500,
        description: 'Printed under the line. For tint colours: `Colour: {code} - {name}`.',
        examples: ['Colour: RAL 9010 - Reinweiß'],
      }),
    ),
    lineNote: Type.Optional(
      Type.String({
        maxLength: 500,
        deprecated: true,
        description: 'Legacy alias of `note`; `note` wins when both are set.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const Lines = Type.Array(LineInput, { minItems: 1, maxItems: MAX_LINES });

/** v1 compatibility lives here, at the edge: `lineNote` becomes `note` before the domain sees it. */
export function toLineRequests(lines: ReadonlyArray<Static<typeof LineInput>>): LineRequest[] {
  return lines.map((l) => ({
    productId: l.productId,
    unitId: l.unitId,
    quantity: quantityText(l.quantity),
    note: l.note ?? l.lineNote ?? null,
  }));
}

export const LineOutput = Type.Object(
  {
    productId: Type.String(),
    unitId: Type.String(),
    productName: Type.String(),
    productCode: Type.Union([Type.String(), Type.Null()]),
    unitName: Type.String(),
    quantity: Quantity,
    unitPrice: Money,
    taxRate: Type.String({ description: 'Percent.', examples: ['25'] }),
    net: MoneyOf('Line amount without tax. With net prices: unit price × quantity, rounded half-up to the cent.'),
    tax: MoneyOf(
      "The line's share of its rate's tax in `totals.taxes` (see `totals`): its exact tax rounded down or up, so that the lines of a rate add up to that rate's tax.",
    ),
    total: MoneyOf('net + tax. With prices including tax: unit price × quantity, rounded half-up to the cent.'),
    note: Type.Union([Type.String(), Type.Null()]),
    discountPercent: Type.Optional(
      Type.String({
        description:
          'Percent off the line (a quotation made by staff); the amounts are after it. The public API sends it only when not 0; the admin API always.',
        examples: ['10'],
      }),
    ),
    datasheetUrl: Type.Optional(Type.String({ format: 'uri' })),
  },
  { additionalProperties: false },
);

export const TotalsOutput = Type.Object(
  {
    net: Money,
    tax: Money,
    withTax: Money,
    taxes: Type.Array(Type.Object({ rate: Type.String(), base: Money, tax: Money }, { additionalProperties: false }), {
      description: 'One row per tax rate, highest first, exactly as the PDF prints them.',
    }),
  },
  {
    additionalProperties: false,
    description:
      'Exactly the figures the PDF prints. Rounding: each line is rounded half-up to the cent once; per tax rate the lines are summed, ' +
      'and the tax is computed once on that sum and rounded half-up (with net prices: base × rate; with prices including tax: the tax contained in the gross, ' +
      'gross × rate / (1 + rate), and base = gross − tax). So base × rate = tax per rate (with net prices), net = Σ base, tax = Σ tax, withTax = net + tax, ' +
      "and the lines add up to these (each line's tax is its share of its rate's tax). A document keeps the figures it was created with.",
  },
);
