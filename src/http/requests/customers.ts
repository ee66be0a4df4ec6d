import { Type } from 'typebox';
import { Email, Nullable, Phone, Text, Name } from '../schemas.ts';

/** A customer as the admin API and the hub's customer form send it: one schema, the same limits and messages. */

export const Kind = Type.Union([Type.Literal('person'), Type.Literal('business')], {
  description: '`person` or `business`.',
});
const TaxId = Text(40, {
  description:
    'Checked where the number has a check digit: a Croatian OIB (11 digits, or "HR" + 11; a bare 11-digit number when the address, or else the company, is in Croatia) by ISO 7064 MOD 11,10, a German VAT id ("DE" + 9 digits) likewise. Unique within the company (409 `conflict` naming `taxId`).',
  examples: ['HR 12345678903'],
});
const Address = Type.Object(
  {
    street: Text(200, { examples: ['Ilica 1'] }),
    postalCode: Text(20, { examples: ['10000'] }),
    city: Text(100, { examples: ['Zagreb'] }),
    country: Type.String({
      pattern: '^[A-Za-z]{2}$',
      'x-pattern-message': 'Must be an ISO 3166 two-letter country code such as HR.',
      examples: ['HR'],
    }),
  },
  { additionalProperties: false },
);
const Note = Type.String({ maxLength: 2000 });
export const Language = Type.Union([Type.Literal('hr'), Type.Literal('de'), Type.Literal('en')], {
  description:
    "What documents e-mailed to the customer, their quotation page and replies to their inquiries are written in, unless staff pick another when sending; null: the company's language.",
});

const fields = {
  name: Name(200, { examples: ['Kovačević d.o.o.'] }),
  taxId: TaxId,
  email: Email,
  phone: Phone,
  address: Address,
  note: Note,
};

export const CustomerInput = Type.Object(
  {
    kind: Kind,
    name: fields.name,
    taxId: Type.Optional(Nullable(fields.taxId)),
    email: Type.Optional(Nullable(fields.email)),
    phone: Type.Optional(Nullable(fields.phone)),
    address: Type.Optional(Nullable(fields.address)),
    note: Type.Optional(Nullable(fields.note)),
    electronicAddress: Type.Optional(
      Nullable(
        Type.Object(
          {
            id: Type.String({ minLength: 1, maxLength: 200 }),
            scheme: Type.String({
              maxLength: 4,
              description: 'EAS code: "9934" Croatian OIB, "9930" German VAT id, "0204" Leitweg-ID, "EM" e-mail.',
            }),
          },
          { additionalProperties: false, description: 'Where e-invoices go (EN 16931 BT-49).' },
        ),
      ),
    ),
    buyerReference: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 200,
          description:
            "BT-10: a German public buyer's Leitweg-ID (then e-invoices are XRechnung), or its own reference.",
        }),
      ),
    ),
    language: Type.Optional(Nullable(Language)),
    paymentTermsDays: Type.Optional(
      Nullable(
        Type.Integer({
          minimum: 0,
          maximum: 365,
          description:
            "Days this customer is given to pay by bank transfer: the invoice's due date (BT-9) and payment terms (BT-20). null: the company's default.",
        }),
      ),
    ),
  },
  { additionalProperties: false },
);
