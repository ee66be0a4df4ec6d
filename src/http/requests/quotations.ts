import { Type, type Static } from 'typebox';
import { LineInput, MAX_LINES, toLineRequests } from '../public/v1/lines.schema.ts';
import { QuoteBody } from '../public/v1/quotes.routes.ts';
import type { StaffQuotation } from '../../modules/quotations/index.ts';

/** A line as staff write it: the public line and a discount. */
export const StaffLineInput = Type.Object(
  {
    ...LineInput.properties,
    discountPercent: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 100,
        description:
          'Percent off the line, at most 2 decimal places; the line amount is price × quantity × (100 − discount) %, rounded half-up to the cent once.',
        examples: [10],
      }),
    ),
  },
  { additionalProperties: false },
);

/**
 * A quotation made or revised by staff (the hub and the admin API): the public `POST /quotes`
 * body, a directory customer (`customerId`) or a typed one (`customer`), line discounts, and
 * the location it is made at. The hub's "New quotation" form is checked with this schema.
 */
export const StaffQuotationBody = Type.Object(
  {
    format: Type.Optional(
      Type.Union([Type.Literal('pdf'), Type.Literal('json')], {
        default: 'json',
        description: 'Response form; `json` by default (the PDF is `GET /quotations/{id}?format=pdf`).',
      }),
    ),
    includeDatasheets: QuoteBody.properties.includeDatasheets,
    expiresAt: QuoteBody.properties.expiresAt,
    note: QuoteBody.properties.note,
    customerId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description:
          'A directory customer: the quotation is assigned to it, and made out to it unless `customer` is sent.',
      }),
    ),
    customer: Type.Optional(QuoteBody.properties.customer),
    locationId: Type.Optional(
      Type.String({
        maxLength: 64,
        description: "Where it is made (its number's series); the company's first location when absent.",
      }),
    ),
    lines: Type.Array(StaffLineInput, { minItems: 1, maxItems: MAX_LINES }),
  },
  { additionalProperties: false },
);
export type StaffQuotationBody = Static<typeof StaffQuotationBody>;

/** A revision: the same body, at the quotation's own location. */
export const QuotationRevisionBody = Type.Object(
  {
    includeDatasheets: StaffQuotationBody.properties.includeDatasheets,
    expiresAt: Type.Optional(
      Type.String({
        format: 'date-time',
        description: 'Must be in the future; the revised one keeps its expiry when absent.',
      }),
    ),
    note: StaffQuotationBody.properties.note,
    customerId: StaffQuotationBody.properties.customerId,
    customer: StaffQuotationBody.properties.customer,
    lines: StaffQuotationBody.properties.lines,
  },
  { additionalProperties: false },
);
export type QuotationRevisionBody = Static<typeof QuotationRevisionBody>;

/** The body as the service reads it: `lineNote` is `note`, the discount passed on. */
export function toStaffQuotation(body: StaffQuotationBody | QuotationRevisionBody): StaffQuotation {
  return {
    ...('format' in body && body.format ? { format: body.format } : {}),
    ...('locationId' in body && body.locationId ? { locationId: body.locationId } : {}),
    includeDatasheets: body.includeDatasheets ?? false,
    ...(body.expiresAt === undefined ? {} : { expiresAt: body.expiresAt }),
    note: body.note ?? null,
    ...(body.customer ? { customer: body.customer } : {}),
    directoryCustomerId: body.customerId ?? null,
    lines: toLineRequests(body.lines).map((line, i) => ({
      ...line,
      ...(body.lines[i]!.discountPercent === undefined ? {} : { discountPercent: body.lines[i]!.discountPercent }),
    })),
  };
}
