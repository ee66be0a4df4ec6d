import { Type } from 'typebox';
import { Nullable, Text } from '../schemas.ts';

/**
 * A change to the company's settings: the admin API's body; the hub's company profile and print
 * settings take their fields' limits from it (the service checks every field of a change at once).
 */

const Address = Type.Object(
  {
    street: Text(200),
    postalCode: Type.Optional(Nullable(Type.String({ maxLength: 20 }))),
    city: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
  },
  { additionalProperties: false },
);

const BankAccount = Type.Object(
  {
    iban: Type.String({
      maxLength: 64,
      description: 'IBAN; spaces allowed. Checked: country length and the mod-97 check digits.',
    }),
    bic: Type.Optional(Nullable(Type.String({ maxLength: 11, description: '8 or 11 characters.' }))),
    holder: Type.String({
      maxLength: 140,
      description: 'The account holder, named as the recipient in payment codes.',
    }),
  },
  { additionalProperties: false },
);

const PLACEHOLDERS =
  'May use the placeholders {number}, {total}, {dueDate}, {customerName} and {reference} (the payment reference as the payment codes carry it), filled per document; any other {placeholder} is a 400.';

/** Only the fields sent change; `null` clears an optional one. */
export const SettingsBody = Type.Object(
  {
    name: Type.Optional(Text(200)),
    address: Type.Optional(Nullable(Address)),
    country: Type.Optional(Nullable(Type.String({ maxLength: 2, description: 'ISO 3166-1 alpha-2, such as HR.' }))),
    taxId: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 32,
          description: 'Checked where the number has a check digit (Croatian OIB, German VAT id).',
        }),
      ),
    ),
    locale: Type.Optional(
      Type.String({
        maxLength: 35,
        description:
          'BCP 47 tag whose language has a message catalog (hr, de, en), such as hr-HR: labels, numbers and dates of the print.',
      }),
    ),
    bankAccount: Type.Optional(Nullable(BankAccount)),
    einvoiceContact: Type.Optional(
      Type.Object(
        {
          name: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
          phone: Type.Optional(Nullable(Type.String({ maxLength: 50 }))),
          email: Type.Optional(Nullable(Type.String({ maxLength: 254 }))),
        },
        {
          additionalProperties: false,
          description: 'The seller contact of e-invoices (BG-6); XRechnung requires all three.',
        },
      ),
    ),
    paymentTermsDays: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 365,
        description: 'Days a bank transfer is given unless the customer has its own terms (default 15).',
      }),
    ),
    quotationValidityDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650 })),
    pricesIncludeTax: Type.Optional(
      Type.Boolean({
        description:
          'Catalog prices include VAT (a retail shop: the shelf price is what the customer pays) or exclude it (trade). Documents already made keep the way they were priced.',
      }),
    ),
    printTemplate: Type.Optional(
      Type.Object(
        {
          header: Type.Optional(Nullable(Type.String({ maxLength: 2000, description: PLACEHOLDERS }))),
          footer: Type.Optional(Nullable(Type.String({ maxLength: 2000, description: PLACEHOLDERS }))),
          paymentInstructions: Type.Optional(Nullable(Type.String({ maxLength: 2000, description: PLACEHOLDERS }))),
        },
        { additionalProperties: false },
      ),
    ),
    fiscal: Type.Optional(
      Type.Object(
        {
          enabled: Type.Optional(
            Type.Boolean({
              description: 'Croatian fiscalisation on (needs the certificate: `PUT /fiscal/certificate`).',
            }),
          ),
          vatRegistered: Type.Optional(
            Type.Boolean({ description: 'In the VAT system: the VAT id (HR + OIB) prints beside the OIB.' }),
          ),
          sequenceMode: Type.Optional(
            Type.Union([Type.Literal('premises'), Type.Literal('device')], {
              description: 'Croatian invoice numbers counted per business premises (P) or per device (N), per year.',
            }),
          ),
          zkiHash: Type.Optional(
            Type.Union([Type.Literal('sha1'), Type.Literal('sha256')], {
              description:
                "The hash of the ZKI's RSA signature: `sha1` (specification v2.6 chapter 12, the default) or `sha256`.",
            }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

const locationFields = {
  name: Type.String({
    minLength: 1,
    maxLength: 100,
    description: 'Printed on every document issued there.',
    examples: ['Varaždin – Centar'],
  }),
  address: Nullable(
    Type.String({
      maxLength: 300,
      description: "The location's address, printed on every document issued there.",
      examples: ['Kapucinski trg 5, 42000 Varaždin'],
    }),
  ),
  fiscalPremises: Nullable(
    Type.String({
      maxLength: 20,
      description:
        'The business premises label as registered (1-20 letters or digits); null: the location code. Documents already issued keep theirs.',
      examples: ['VZ1'],
    }),
  ),
  fiscalDevice: Nullable(
    Type.String({
      maxLength: 20,
      description: 'The device label (digits, no leading zero); null: 1. Documents already issued keep theirs.',
      examples: ['1'],
    }),
  ),
};

/** A location's name, address and labels in Croatian invoice numbers `{sequence}/{premises}/{device}`. */
export const LocationBody = Type.Object(
  {
    name: Type.Optional(locationFields.name),
    address: Type.Optional(locationFields.address),
    fiscalPremises: Type.Optional(locationFields.fiscalPremises),
    fiscalDevice: Type.Optional(locationFields.fiscalDevice),
  },
  { additionalProperties: false },
);

/** A new location: its code (in quotation and sale numbers) is fixed once made. */
export const NewLocationBody = Type.Object(
  {
    name: locationFields.name,
    code: Type.String({
      minLength: 1,
      maxLength: 10,
      pattern: '^[A-Za-z0-9]+$',
      description: "Portico's code of the location, in quotation and sale numbers: 1-10 letters or digits, unique.",
      examples: ['VZ1'],
    }),
    address: Type.Optional(locationFields.address),
    fiscalPremises: Type.Optional(locationFields.fiscalPremises),
    fiscalDevice: Type.Optional(locationFields.fiscalDevice),
  },
  { additionalProperties: false },
);

/** A user's operator OIB: the personal OIB the fiscal authority is told as the invoice's operator. */
export const UserBody = Type.Object(
  {
    operatorOib: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 13,
          description: '11 digits, check digit checked; null removes it.',
          examples: ['69435151530'],
        }),
      ),
    ),
    operatorLabel: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 40,
          description:
            "The operator's label printed on receipts and invoices (oznaka operatera) instead of the OIB; null: the user's name.",
          examples: ['Blagajna 1 - Ana'],
        }),
      ),
    ),
  },
  { additionalProperties: false },
);
