import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import { AppError } from '../../lib/errors.ts';
import { MONEY_SCALE, parseScaled } from '../../lib/money.ts';
import {
  INVOICE_KINDS,
  INVOICE_PAYMENT_METHODS,
  PAYMENT_METHODS,
  SALE_STATUSES,
  type SaleView,
} from '../../modules/sales/index.ts';
import { EXCHANGE_STATUSES } from '../../modules/einvoice/index.ts';
import { Data, Money, MoneyOf, Nullable, Pagination, QuantityOf, Timestamp, errorResponses } from '../schemas.ts';
import { CreditNoteBody, InvoiceCancelBody, PaymentBody, RefundBody, toCreditNote } from '../requests/sales.ts';
import { CancelBody } from '../requests/documents.ts';
import { newestFirstPage } from './pagination.ts';
import { LineOutput, TotalsOutput } from '../public/v1/lines.schema.ts';
import { FormatQuery, PdfOrJson, reservePrint, sendIssued, sendPdf, wantsPdf } from '../pdf-reply.ts';
import { ExportQuery, JsonOrSheet, everyPage, exportFormat, exportLocale, sendTable } from '../export-reply.ts';
import { salesListTable } from '../../modules/reports/index.ts';
import { translator } from '../../modules/i18n/index.ts';
import { said } from '../request-messages.ts';
import type { UserRole } from '../../modules/companies/index.ts';
import { mayCancelInvoice } from '../access.ts';

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
const PaymentParams = Type.Object({ id: Type.String({ maxLength: 64 }), pid: Type.String({ maxLength: 64 }) });
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

/** Sales in the hub: the list, one (JSON or PDF), and payments. */
export const salesRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    const security = [{ adminToken: [] }];

    app.get(
      '/sales',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminListSales',
          summary: 'Sales, newest first',
          security,
          querystring: Type.Object(
            {
              ...Pagination,
              status: Type.Optional(Type.Enum(SALE_STATUSES)),
              locationId: Type.Optional(Type.String({ maxLength: 64 })),
              customerId: Type.Optional(Type.String({ maxLength: 64 })),
              from: Type.Optional(Type.String({ format: 'date-time', description: 'Created at or after.' })),
              to: Type.Optional(Type.String({ format: 'date-time', description: 'Created before.' })),
              q: Type.Optional(
                Type.String({
                  maxLength: 100,
                  description:
                    "The start of the number or the legal number (`12/ZG1`), a part of the customer's name, or at least four digits of their tax id (OIB).",
                }),
              ),
              amount: Type.Optional(
                Type.String({
                  pattern: '^\\d+(\\.\\d{1,2})?$',
                  maxLength: 20,
                  description: 'The gross total exactly, such as `333.79`.',
                }),
              ),
              mode: Type.Optional(
                Type.Union([Type.Literal('live'), Type.Literal('test')], {
                  description: '`live` (the default) or `test`: sales converted from test documents, never both.',
                }),
              ),
              ...ExportQuery,
            },
            { additionalProperties: false },
          ),
          response: {
            200: JsonOrSheet(
              'A page of sales; with `format=csv|xlsx`, every sale the filters select (at most 20,000), without paging.',
              Type.Object({ data: Type.Array(Sale), nextCursor: Nullable(Type.String()) }),
            ),
            ...errorResponses(400),
          },
        },
      },
      async (request, reply) => {
        const { status, locationId, customerId, from, to, mode, q, amount } = request.query;
        const companyId = request.admin.companyId;
        const filter = {
          status,
          locationId,
          customerId,
          from: instant(from, 'from'),
          to: instant(to, 'to'),
          mode,
          ...(q?.trim() ? { q } : {}),
          ...(amount === undefined ? {} : { totalMinor: Number(parseScaled(amount, MONEY_SCALE)) }),
        };
        const list = async (query: { limit?: number; cursor?: string }) => {
          const page = newestFirstPage(query);
          return page.page(await c.sales.list(companyId, filter, page));
        };
        const format = exportFormat(request, request.query.format);
        if (format === 'json') return list(request.query);
        const rows = await everyPage(list);
        const company = await c.reports.company(companyId);
        const locale = exportLocale(request.query.locale, company.locale);
        const tr = translator(locale);
        const table = salesListTable(rows, locale, company.timeZone, (s) =>
          tr(`status.sale.${s}` as 'status.sale.paid'),
        );
        return sendTable(reply, table, format, locale, 'sales');
      },
    );

    app.get(
      '/sales/:id',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminGetSale',
          summary: 'One sale: JSON, or PDF with `Accept: application/pdf` or `?format=pdf`',
          description:
            "A German company's invoice PDF is a Factur-X / ZUGFeRD (EN 16931) PDF/A-3 with the CII XML embedded as `factur-x.xml` whenever the document is a valid e-invoice (header `E-Invoice-Embedded: factur-x.xml`); `?format=facturx` asks for that hybrid PDF for any company, and is a 409 naming the missing fields when the document cannot be one.",
          security,
          params: IdParams,
          querystring: Type.Object(
            {
              format: Type.Optional(Type.Union([Type.Literal('pdf'), Type.Literal('json'), Type.Literal('facturx')])),
              layout: Type.Optional(
                Type.Union([Type.Literal('a4'), Type.Literal('receipt')], {
                  description: 'The PDF on A4 (default) or on an 80 mm receipt roll: the same content.',
                }),
              ),
            },
            { additionalProperties: false },
          ),
          response: { 200: PdfOrJson('The sale.', Data(Sale)), ...errorResponses(404, 503) },
        },
      },
      async (request, reply) => {
        const sale = await c.sales.get(request.admin.companyId, request.params.id);
        const format = request.query.format;
        if (format !== 'facturx' && !wantsPdf(request, format)) return presentSale(sale);
        // As issued: stored at its first read, the same bytes (and ETag) ever after.
        const issued = await c.invoicing.file(
          request.admin.companyId,
          sale.id,
          format === 'facturx' ? 'facturx' : request.query.layout === 'receipt' ? 'receipt' : 'a4',
          { slot: () => reservePrint(c, reply) },
        );
        if (issued.hybrid) reply.header('e-invoice-embedded', 'factur-x.xml');
        return sendIssued(request, reply, issued, `${issued.number}.pdf`, 'application/pdf');
      },
    );

    const StatementEntry = Type.Object({
      at: Timestamp,
      kind: Type.Union(
        ['invoice', 'cancellation', 'credit_note', 'payment', 'payment_voided'].map((k) => Type.Literal(k)),
      ),
      reference: Type.String({ description: "The document's legal number, or the payment's id." }),
      amount: Money,
      balance: Money,
    });
    const Statement = Type.Object({
      saleId: Type.String(),
      invoiceNumber: Nullable(Type.String()),
      currency: Type.String(),
      customerName: Type.String(),
      status: Type.String(),
      total: Money,
      credited: Money,
      paid: Money,
      balance: Money,
      entries: Type.Array(StatementEntry),
    });

    app.get(
      '/sales/:id/statement',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminGetSaleStatement',
          summary: "An invoice's account statement: JSON, or PDF with `Accept: application/pdf` or `?format=pdf`",
          description:
            'What happened since the invoice was issued: payments and their voids, the cancellation and credit notes, each with the balance after it. The invoice itself stays as issued (`GET /sales/{id}`); the statement follows the money.',
          security,
          params: IdParams,
          querystring: FormatQuery,
          response: { 200: PdfOrJson('The account statement.', Data(Statement)), ...errorResponses(404, 503) },
        },
      },
      async (request, reply) => {
        const { companyId } = request.admin;
        if (!wantsPdf(request, request.query.format))
          return { data: await c.sales.statement(companyId, request.params.id) };
        await c.sales.get(companyId, request.params.id);
        return sendPdf(reply, await c.sales.renderStatementPdf(companyId, request.params.id, reservePrint(c, reply)));
      },
    );

    app.get(
      '/sales/:id/e-invoice',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminGetSaleEInvoice',
          summary: 'The invoice, cancellation invoice or credit note as an EN 16931 e-invoice (UBL 2.1 or CII D16B)',
          description:
            'The profile follows the company and the buyer: the Croatian CIUS 2025 for Croatian companies, XRechnung 3.0 for a German buyer with a buyer reference (Leitweg-ID), plain EN 16931 otherwise (header `E-Invoice-Profile`). ' +
            'Money as printed: the same lines and tax summary. A document that cannot be a valid e-invoice for its profile is a 409 whose `details` name every missing field (`lines[0].classificationCode`, `customer.taxId`, ...).',
          security,
          params: IdParams,
          querystring: Type.Object(
            { syntax: Type.Optional(Type.Union([Type.Literal('ubl'), Type.Literal('cii')], { default: 'ubl' })) },
            { additionalProperties: false },
          ),
          response: {
            200: {
              description: 'The e-invoice.',
              content: { 'application/xml': { schema: Type.String() } },
            },
            ...errorResponses(400, 404, 409),
          },
        },
      },
      async (request, reply) => {
        const syntax = request.query.syntax ?? 'ubl';
        const einvoice = await c.invoicing.file(request.admin.companyId, request.params.id, syntax);
        if (einvoice.profile) reply.header('e-invoice-profile', einvoice.profile);
        return sendIssued(
          request,
          reply,
          einvoice,
          `${einvoice.number}-${syntax}.xml`,
          'application/xml; charset=utf-8',
        );
      },
    );

    app.post(
      '/sales/:id/payments',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminRecordSalePayment',
          summary: 'Record a payment',
          security,
          description:
            'Moves the sale to `partially_paid` or `paid`. An amount over the balance is a 400 naming `amount`.',
          params: IdParams,
          body: PaymentBody,
          response: { 201: Data(Sale), ...errorResponses(400, 404) },
        },
      },
      async (request, reply) => {
        const sale = await c.sales.recordPayment(
          request.admin.companyId,
          request.params.id,
          request.body,
          request.admin.userId,
        );
        return reply.status(201).send(presentSale(sale));
      },
    );

    app.post(
      '/sales/:id/payments/:pid/void',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminVoidSalePayment',
          summary: 'Void a payment recorded by mistake',
          security,
          description:
            'The payment is kept, marked with who voided it, when and why, and no longer counts: balance and status are recomputed. Fires `payment.voided`. A payment already voided is a 409.',
          params: PaymentParams,
          body: CancelBody,
          response: { 200: Data(Sale), ...errorResponses(400, 404, 409) },
        },
      },
      async (request) =>
        presentSale(
          await c.sales.voidPayment(
            request.admin.companyId,
            request.params.id,
            request.params.pid,
            request.body.reason,
            request.admin.userId,
          ),
        ),
    );

    app.post(
      '/sales/:id/refunds',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminRefundSale',
          summary: 'Give back money owed on a corrected invoice',
          security,
          description:
            "For money owed back (a negative `balance`) after a cancellation or credit note that recorded no refund: the storno was issued before the money went back, or the customer is refunded by transfer later. Recorded against the invoice's newest correction with its method and who gave it; the invoice's `paid` falls by it (a cash refund comes out of the correction's location's drawer). `amount` defaults to all that is owed back; more is a 400 naming `amount`. 409 when nothing is owed back. Fires `refund.recorded`. Answers the invoice with its `refunds`.",
          params: IdParams,
          body: RefundBody,
          response: { 201: Data(Sale), ...errorResponses(400, 404, 409) },
        },
      },
      async (request, reply) => {
        const sale = await c.invoicing.refund(
          request.admin.companyId,
          request.params.id,
          request.body,
          request.admin.userId,
        );
        return reply.status(201).send(presentSale(sale));
      },
    );

    app.post(
      '/sales/:id/cancel',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminCancelSale',
          summary: 'Cancel an invoice: issue its cancellation invoice (storno)',
          security,
          description:
            'Issues a sale of kind `cancellation`: every line negated, its own number in the same series, naming the invoice, fiscalised like an invoice. ' +
            'The invoice becomes `cancelled`. Fires `sale.cancelled`. 409 when it is already cancelled, is itself a correction, or has credit notes. Admins cancel any invoice; staff only one they issued, on the day it was issued (403 otherwise).',
          params: IdParams,
          body: InvoiceCancelBody,
          response: { 201: Data(Sale), ...errorResponses(400, 403, 404, 409) },
        },
      },
      async (request, reply) => {
        const { companyId, userId, role } = request.admin;
        const [sale, company] = await Promise.all([
          c.sales.get(companyId, request.params.id),
          c.companies.getCompany(companyId),
        ]);
        mayCancelInvoice({ role: role as UserRole, userId }, sale, company.timezone, c.clock.now());
        const storno = await c.invoicing.cancel(
          request.admin.companyId,
          request.params.id,
          request.body.reason,
          request.admin.userId,
          request.body.refund,
        );
        return reply.status(201).header('location', `/api/v1/admin/sales/${storno.id}`).send(presentSale(storno));
      },
    );

    app.post(
      '/sales/:id/credit-notes',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminCreateCreditNote',
          summary: 'Issue a credit note for part of an invoice (goods returned)',
          security,
          description:
            "Issues a sale of kind `credit_note` with the lines and quantities given, negated, numbered and fiscalised like an invoice; the invoice's balance falls by its total. " +
            'More of a line than was invoiced less earlier credit notes is a 400 naming `lines[i].quantity`. Fires `credit_note.created`. Admins only.',
          params: IdParams,
          body: CreditNoteBody,
          response: { 201: Data(Sale), ...errorResponses(400, 403, 404, 409) },
        },
      },
      async (request, reply) => {
        const note = await c.invoicing.creditNote(
          request.admin.companyId,
          request.params.id,
          toCreditNote(request.body),
          request.admin.userId,
        );
        return reply.status(201).header('location', `/api/v1/admin/sales/${note.id}`).send(presentSale(note));
      },
    );
  };

/** A date-time filter as the ISO UTC text stored timestamps compare with. */
function instant(value: string | undefined, field: string): string | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) throw AppError.invalid({ [field]: [said('error.timestamp.range')] });
  return new Date(ms).toISOString();
}
