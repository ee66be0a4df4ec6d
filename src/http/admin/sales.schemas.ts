import { Type } from 'typebox';
import {
  INVOICE_KINDS,
  INVOICE_PAYMENT_METHODS,
  PAYMENT_METHODS,
  SALE_STATUSES,
  type SaleView,
} from '../../modules/sales/index.ts';
import { EXCHANGE_STATUSES } from '../../modules/einvoice/index.ts';
import { Money, MoneyOf, Nullable, QuantityOf, Timestamp } from '../schemas.ts';
import { LineOutput, TotalsOutput } from '../public/v1/lines.schema.ts';

const Day = Type.String({ format: 'date', examples: ['2026-11-25'] });

/** Germany: the TSE transaction (KassenSichV) of a counter sale, its storno or return, or an aborted basket. */
export const TseRecordSchema = Type.Object(
  {
    status: Type.Union([Type.Literal('signed'), Type.Literal('failed')], {
      description: '`failed`: the TSE was not reached ("TSE ausgefallen"); the sale went through.',
    }),
    transactionNumber: Nullable(Type.Integer()),
    signatureCounter: Nullable(Type.Integer()),
    start: Nullable(Timestamp),
    end: Nullable(Timestamp),
    signature: Nullable(Type.String({ description: 'Base64, the check value (Prüfwert).' })),
    algorithm: Nullable(Type.String({ examples: ['ecdsa-plain-SHA384'] })),
    timeFormat: Nullable(Type.String({ examples: ['unixTime'] })),
    publicKey: Nullable(Type.String({ description: "Base64, the TSE's public key." })),
    serialNumber: Nullable(Type.String({ description: "The TSE's serial number." })),
    clientSerial: Nullable(Type.String({ description: "The record system's (Kasse's) serial number." })),
    processType: Type.String({ examples: ['Kassenbeleg-V1'] }),
    processData: Type.String({ examples: ['Beleg^11.90_0.00_0.00_0.00_0.00^11.90:Bar'] }),
    qrCode: Nullable(Type.String({ description: 'The DSFinV-K QR code (`V0;…`) the receipt prints.' })),
    error: Nullable(Type.String()),
  },
  {
    additionalProperties: false,
    description: 'Germany: the TSE transaction (KassenSichV) of a counter sale or its storno.',
  },
);

export const Sale = Type.Object(
  {
    id: Type.String({ examples: ['sale_4fJ2kq9XbR0mW8tLz1cA'] }),
    number: Type.String({ examples: ['S-ZG1-2026-00007'], description: "Portico's internal reference." }),
    kind: Type.Enum(INVOICE_KINDS, {
      description:
        'An invoice, a cancellation invoice (storno) or a credit note; the last two correct `correctsSaleId`.',
    }),
    livemode: Type.Boolean({
      description:
        'False for a test sale: converted from a quotation or order made with a test key, numbered `T-…`, never fiscalised.',
    }),
    invoiceNumber: Nullable(
      Type.String({
        examples: ['12/ZG1/1'],
        description:
          'The legal number: `{sequence}/{premises}/{device}` in Croatia (per premises or device and year), `{year}-{sequence}` elsewhere (per company and year). Null on sales made before invoices.',
      }),
    ),
    status: Type.Enum(SALE_STATUSES, {
      description:
        'An invoice: `unpaid` → `partially_paid` → `paid` as payments are recorded (a void moves it back), `cancelled` once a storno took it back. A correction: `issued`.',
    }),
    locationId: Type.String(),
    createdAt: Timestamp,
    issuedAt: Nullable(Timestamp),
    deliveryDate: Nullable(Day),
    orderReference: Nullable(Type.String({ description: "The buyer's order number (EN 16931 BT-13)." })),
    dueDate: Nullable(Day),
    paymentMethod: Nullable(Type.Enum(INVOICE_PAYMENT_METHODS)),
    operator: Nullable(
      Type.Object(
        { name: Nullable(Type.String()), oib: Nullable(Type.String()) },
        { additionalProperties: false, description: 'The hub user who issued it, with the operator OIB (Croatia).' },
      ),
    ),
    correctsSaleId: Nullable(Type.String({ description: 'The invoice a cancellation or credit note corrects.' })),
    correctionReason: Nullable(Type.String()),
    corrections: Type.Array(
      Type.Object(
        { id: Type.String(), kind: Type.Enum(INVOICE_KINDS), invoiceNumber: Nullable(Type.String()) },
        { additionalProperties: false },
      ),
      { description: "An invoice's cancellation and credit notes (filled when one sale is read)." },
    ),
    refunds: Type.Array(
      Type.Object(
        {
          id: Type.String({ description: 'The refund (`rfd_…`).' }),
          saleId: Type.String({ description: 'The cancellation or credit note it went with.' }),
          invoiceId: Type.String({ description: 'The invoice refunded.' }),
          method: Type.Enum(PAYMENT_METHODS),
          amount: Money,
          createdAt: Timestamp,
          givenBy: Nullable(Type.String({ description: 'The user who gave the money back.' })),
        },
        { additionalProperties: false },
      ),
      {
        description:
          "Money given back: a correction's own refunds, an invoice's refunds (filled when one sale is read, and in the correction's answer).",
      },
    ),
    source: Type.Object(
      {
        type: Type.Union(
          [Type.Literal('quotation'), Type.Literal('order'), Type.Literal('counter'), Type.Literal('sale')],
          {
            description: "`counter`: a counter sale, its own source (the sale's id and number).",
          },
        ),
        id: Type.String(),
        number: Type.String(),
      },
      {
        additionalProperties: false,
        description: 'The quotation or web order it was converted from; for a correction, the invoice it corrects.',
      },
    ),
    customer: Type.Object(
      {
        id: Type.String(),
        kind: Type.String(),
        name: Type.String(),
        taxId: Nullable(Type.String()),
        email: Nullable(Type.String()),
        phone: Nullable(Type.String()),
        address: Nullable(
          Type.Object(
            { street: Type.String(), postalCode: Type.String(), city: Type.String(), country: Type.String() },
            { additionalProperties: false },
          ),
        ),
      },
      { additionalProperties: false, description: 'The directory customer as it was at conversion.' },
    ),
    note: Nullable(Type.String()),
    currency: Type.String(),
    repriced: Type.Boolean({
      description: 'Priced at the day of conversion, not as quoted (an expired quotation, converted by an admin).',
    }),
    lines: Type.Array(
      Type.Object(
        {
          id: Type.String({ description: 'The line; a credit note names it.' }),
          ...LineOutput.properties,
          creditable: Nullable(
            QuantityOf(
              "What of the line's quantity is left to credit (a decimal string); null on a correction or a cancelled invoice.",
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    totals: TotalsOutput,
    credited: Type.String({ ...Money, description: 'What credit notes took off this invoice.' }),
    paid: Money,
    tendered: Nullable(MoneyOf('Cash handed over at a counter sale; null otherwise.')),
    change: Nullable(MoneyOf('Given back at a counter sale: tendered − total.')),
    balance: Type.String({
      ...Money,
      description:
        'Total less credit notes less payments (voided ones do not count); 0 on a cancelled invoice or a correction.',
    }),
    payments: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          method: Type.Enum(PAYMENT_METHODS),
          amount: Money,
          createdAt: Timestamp,
          recordedBy: Nullable(Type.String()),
          voided: Nullable(
            Type.Object(
              { at: Timestamp, by: Nullable(Type.String()), reason: Type.String() },
              { additionalProperties: false, description: 'A voided payment is kept and no longer counts.' },
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    fiscal: Type.Object(
      {
        status: Type.Union(
          [Type.Literal('not_required'), Type.Literal('pending'), Type.Literal('fiscalised'), Type.Literal('rejected')],
          { description: '`not_required` where the company does not fiscalise; `pending` until the JIR arrives.' },
        ),
        zki: Nullable(Type.String({ description: "ZKI, the issuer's protection code." })),
        jir: Nullable(Type.String({ description: "JIR, the tax administration's receipt." })),
        verifyUrl: Nullable(Type.String({ description: 'The verification URL the printed QR code holds.' })),
        error: Type.Optional(
          Type.Object({ code: Type.String(), message: Type.String() }, { additionalProperties: false }),
        ),
        tse: Type.Optional(TseRecordSchema),
      },
      { additionalProperties: false },
    ),
    exchange: Type.Object(
      {
        status: Type.Enum(EXCHANGE_STATUSES, {
          description:
            "`not_required`: not an e-invoice (a consumer, a business paying cash or card, another country, or no exchange configured); `queued` in the outbox; `sent` to the company's e-invoice exchange; `delivered` to the buyer; `rejected` by the buyer; `failed`: the exchange refused it (not sent again).",
        }),
        documentId: Nullable(
          Type.String({ description: "The exchange's id of the e-invoice (moj-eRačun's ElectronicId)." }),
        ),
        fiscalisation: Nullable(
          Type.Union([Type.Literal('unknown'), Type.Literal('fiscalised'), Type.Literal('failed')], {
            description: "The issuer's fiscalisation of the e-invoice (EvidentirajERacun), as the exchange reports it.",
          }),
        ),
        error: Nullable(Type.String({ description: 'Why it failed, or why the exchange could not be asked yet.' })),
        rejection: Type.Optional(
          Type.Object(
            {
              type: Nullable(
                Type.Union([Type.Literal('N'), Type.Literal('U'), Type.Literal('O')], {
                  description:
                    "The buyer's reason type (Zakon o fiskalizaciji art. 52): N a data mismatch not affecting the VAT, U one affecting it, O other; null when the exchange does not state it.",
                }),
              ),
              reason: Type.String(),
              at: Nullable(Timestamp),
            },
            { additionalProperties: false, description: "The buyer's rejection (EvidentirajOdbijanje)." },
          ),
        ),
        payments: Type.Array(
          Type.Object(
            {
              amount: Type.String({ ...Money, description: 'Negative for a voided payment.' }),
              date: Day,
              method: Type.Union([Type.Literal('T'), Type.Literal('O'), Type.Literal('Z')], {
                description: 'EvidentirajNaplatu: T transfer, O set-off, Z other.',
              }),
              status: Type.Union([Type.Literal('queued'), Type.Literal('reported'), Type.Literal('failed')]),
            },
            { additionalProperties: false },
          ),
          { description: 'Each payment (and void) reported through the exchange (EvidentirajNaplatu).' },
        ),
      },
      {
        additionalProperties: false,
        description:
          "Croatian B2B (Zakon o fiskalizaciji NN 89/2025 art. 38): the document sent as an HR-CIUS e-invoice through the company's e-invoice exchange instead of a receipt to CIS.",
      },
    ),
  },
  { additionalProperties: false },
);

export const presentSale = (s: SaleView) => ({ data: s });
