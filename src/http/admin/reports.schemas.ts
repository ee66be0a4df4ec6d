import { Type, type TSchema } from 'typebox';
import { GROUP_BYS } from '../../modules/reports/index.ts';
import { Money, Nullable } from '../schemas.ts';
import { ExportQuery } from '../export-reply.ts';

/**
 * The services sum reports in cents (exact); the routes answer them as decimal money like every
 * other amount of the API (`centsAsMoney`, led by this schema).
 */
const Amount = Money;
const Day = Type.String({ format: 'date', examples: ['2026-11-26'] });
const obj = (props: Record<string, TSchema>, description?: string) =>
  Type.Object(props, { additionalProperties: false, ...(description ? { description } : {}) });

export const ReportQuerystring = Type.Object(
  {
    from: Type.String({ format: 'date', description: "First day, in the company's time zone." }),
    to: Type.String({ format: 'date', description: 'Last day, inclusive.' }),
    groupBy: Type.Optional(
      Type.Union(
        GROUP_BYS.map((g) => Type.Literal(g)),
        { description: 'Period length.' },
      ),
    ),
    locationId: Type.Optional(Type.String({ maxLength: 64 })),
    ...ExportQuery,
  },
  { additionalProperties: false },
);

export const VatQuerystring = Type.Object(
  {
    ...ReportQuerystring.properties,
    view: Type.Optional(
      Type.Union([Type.Literal('summary'), Type.Literal('book')], {
        description:
          '`summary` (default): base and tax per rate and period. `book`: the book of issued invoices (knjiga izlaznih računa), one entry per document with base and tax per rate.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ReceivablesQuerystring = Type.Object(
  {
    to: Type.Optional(
      Type.String({ format: 'date', description: "The day invoices are aged on; default the company's today." }),
    ),
    locationId: Type.Optional(Type.String({ maxLength: 64 })),
    ...ExportQuery,
  },
  { additionalProperties: false },
);

const Sums = obj({ count: Type.Integer(), net: Amount, tax: Amount, gross: Amount });
const Kinds = obj(
  { invoice: Sums, cancellation: Sums, credit_note: Sums },
  'Invoices, cancellations (negative) and credit notes (negative).',
);
const Head = { key: Type.String({ examples: ['2026-11', '2026-W48', '2026-11-26'] }), from: Day, to: Day };
const RateSums = obj({
  rateBp: Type.Integer({ description: 'Rate in basis points (2500 = 25 %).' }),
  base: Amount,
  tax: Amount,
  gross: Amount,
});
const Common = {
  from: Day,
  to: Day,
  groupBy: Type.Union(GROUP_BYS.map((g) => Type.Literal(g))),
  timeZone: Type.String(),
  currency: Type.String(),
};

export const SalesReportSchema = obj({
  data: obj({
    ...Common,
    periods: Type.Array(obj({ ...Head, kinds: Kinds, total: Sums })),
    rows: Type.Array(
      obj({
        period: Type.String(),
        locationId: Type.String(),
        operatorId: Nullable(Type.String()),
        operator: Nullable(Type.String()),
        kinds: Kinds,
        total: Sums,
      }),
    ),
    locations: Type.Array(obj({ locationId: Type.String(), code: Type.String(), name: Type.String(), total: Sums })),
    operators: Type.Array(obj({ operatorId: Nullable(Type.String()), name: Nullable(Type.String()), total: Sums })),
    kinds: Kinds,
    total: Sums,
    previous: obj(
      { from: Day, to: Day, kinds: Kinds, total: Sums },
      'The period before, of the same length (whole months when the range is whole months).',
    ),
  }),
});

export const VatReportSchema = obj({
  data: obj({
    ...Common,
    periods: Type.Array(obj({ ...Head, rates: Type.Array(RateSums), total: RateSums })),
    rates: Type.Array(
      obj({ ...RateSums.properties, kinds: obj({ invoice: RateSums, cancellation: RateSums, credit_note: RateSums }) }),
    ),
    total: obj({ base: Amount, tax: Amount, gross: Amount }),
  }),
});

export const BookSchema = obj({
  data: obj({
    from: Day,
    to: Day,
    timeZone: Type.String(),
    currency: Type.String(),
    entries: Type.Array(
      obj({
        seq: Type.Integer(),
        saleId: Type.String(),
        date: Day,
        kind: Type.String(),
        number: Type.String(),
        invoiceNumber: Nullable(Type.String()),
        customerName: Type.String(),
        customerTaxId: Nullable(Type.String()),
        customerAddress: Nullable(Type.String()),
        correctsSaleId: Nullable(Type.String()),
        rates: Type.Array(RateSums),
        exempt: Amount,
        base: Amount,
        tax: Amount,
        gross: Amount,
      }),
    ),
  }),
});

const MethodSums = obj({ method: Type.String(), received: Amount, voided: Amount, net: Amount });
export const PaymentsReportSchema = obj({
  data: obj({
    ...Common,
    rows: Type.Array(
      obj({
        period: Type.String(),
        method: Type.String(),
        userId: Nullable(Type.String({ description: 'Who recorded the payment (received) or voided it (voided).' })),
        user: Nullable(Type.String()),
        count: Type.Integer(),
        received: Amount,
        voided: Amount,
        net: Amount,
      }),
    ),
    periods: Type.Array(
      obj({ ...Head, received: Amount, voided: Amount, net: Amount, methods: Type.Array(MethodSums) }),
    ),
    methods: Type.Array(MethodSums),
    total: obj({ count: Type.Integer(), received: Amount, voided: Amount, net: Amount }),
  }),
});

const Ages = obj(
  { '0-30': Amount, '31-60': Amount, '61-90': Amount, '90+': Amount },
  'Balance by days past the due date.',
);
export const ReceivablesSchema = obj({
  data: obj({
    asOf: Day,
    timeZone: Type.String(),
    currency: Type.String(),
    invoices: Type.Array(
      obj({
        saleId: Type.String(),
        number: Type.String(),
        invoiceNumber: Nullable(Type.String()),
        customerId: Type.String(),
        customerName: Type.String(),
        customerTaxId: Nullable(Type.String()),
        issuedOn: Day,
        dueDate: Day,
        daysOverdue: Type.Integer(),
        age: Type.String(),
        total: Amount,
        balance: Amount,
      }),
    ),
    customers: Type.Array(
      obj({
        customerId: Type.String(),
        name: Type.String(),
        taxId: Nullable(Type.String()),
        ages: Ages,
        balance: Amount,
      }),
    ),
    ages: Ages,
    total: Amount,
  }),
});
