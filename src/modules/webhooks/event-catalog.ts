import { Type, type Static, type TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { Money } from '../../lib/decimal-schemas.ts';
import type { Company } from '../companies/index.ts';
import { escapeClipped, escapeTelegramHtml, formatCount, formatTotal } from './channels/telegram-html.ts';

/**
 * Every webhook event, the one place it is described: the outbox, the endpoints' event filter,
 * the admin API's enum, the OpenAPI `webhooks` section and the Telegram channel all read this.
 * Adding an event is one entry here plus the code that fires it (`enqueueEvent`).
 */

/** What a chat message may say about the company: its name, and how it writes money. */
export type MessageCompany = Pick<Company, 'name' | 'currency' | 'locale'>;

export interface EventDefinition<S extends TSchema = TSchema> {
  /** One line: when the event fires. */
  description: string;
  /** The body's `data`, documented to receivers and checked by the tests against real bodies. */
  data: S;
  /** A realistic `data`: the documentation's example and the tests' sample. */
  example: Static<S>;
  /** The Telegram message as HTML lines; every dynamic value is escaped (and clipped) here. */
  telegram(data: Static<S>, company: MessageCompany): string[];
  /** About the company as a whole, not one location: its body's `locationId` is null. */
  companyWide?: true;
  /**
   * Written only when an endpoint wants it. An event's deliveries are its only reader, so one
   * nobody wants is a row nobody reads. Most events are kept anyway: there is one per document
   * staff make. The contact form's is the exception: anyone on the internet can send a thousand
   * a minute (issue 37), and it was a third of the contact form's cost to write.
   */
  onlyWhenWanted?: true;
}

const define = <S extends TSchema>(definition: EventDefinition<S>): EventDefinition<S> => definition;

// Escaped-length limits per field; their sum keeps every message far below Telegram's 4096.
const LIMITS = { company: 200, number: 100, customer: 1000, total: 100, location: 300, reference: 300 } as const;

const DocumentFacts = {
  customerName: Type.String({ description: 'The customer as the website sent it.' }),
  totalWithTax: Money,
  locationName: Type.String({ description: 'The location of the API key that created it.' }),
  lineCount: Type.Integer({ minimum: 1 }),
};

const ORDER_STATUS = Type.Enum(['received', 'accepted', 'converted', 'cancelled'] as const, {
  description: '`received` → `accepted` → `converted`, or `cancelled` from either open state.',
});

const InvoiceNumber = Type.String({ description: 'The legal number: `12/ZG1/1` in Croatia, `2026-12` elsewhere.' });
const PaymentFacts = {
  saleId: Type.String({ description: 'The invoice (`sale_…`).' }),
  invoiceNumber: Type.Union([InvoiceNumber, Type.Null()]),
  paymentId: Type.String({ description: 'The payment (`pay_…`).' }),
  method: Type.Enum(['cash', 'card', 'bank_transfer'] as const),
  amount: Money,
  balance: Type.String({ ...Money, description: 'What is still due after this change.' }),
};

/** A correction document: what it corrects, its number, amount and why. */
function correctionLines(
  title: string,
  document: string,
  d: { totalWithTax: string; reason: string },
  company: MessageCompany,
): string[] {
  const name = escapeClipped(company.name, LIMITS.company);
  const lines = [`<b>${escapeTelegramHtml(title)}</b>`];
  if (name) lines.push(`<i>${name}</i>`);
  lines.push(
    '',
    `📄 ${escapeClipped(document, LIMITS.number)}`,
    `💰 ${escapeClipped(formatTotal(d.totalWithTax, company.currency, company.locale), LIMITS.total)}`,
    `📝 ${escapeClipped(d.reason, LIMITS.reference)}`,
  );
  return lines;
}

function paymentLines(
  title: string,
  d: { amount: string; balance: string; reason?: string },
  company: MessageCompany,
): string[] {
  const name = escapeClipped(company.name, LIMITS.company);
  const lines = [`<b>${escapeClipped(title, LIMITS.number + 40)}</b>`];
  if (name) lines.push(`<i>${name}</i>`);
  lines.push(
    '',
    `💶 ${escapeClipped(formatTotal(d.amount, company.currency, company.locale), LIMITS.total)}`,
    `Balance: ${escapeClipped(formatTotal(d.balance, company.currency, company.locale), LIMITS.total)}`,
  );
  if (d.reason) lines.push(`📝 ${escapeClipped(d.reason, LIMITS.reference)}`);
  return lines;
}

/** A new sales document arriving from the website: what the counter wants to see at a glance. */
function documentLines(
  title: string,
  d: {
    number: string;
    customerName: string;
    totalWithTax: string;
    locationName: string;
    lineCount: number;
    externalReference?: string | null;
  },
  company: MessageCompany,
): string[] {
  const number = escapeClipped(d.number, LIMITS.number);
  const name = escapeClipped(company.name, LIMITS.company);
  const lines = [`<b>${title}${number ? ` ${number}` : ''}</b>`];
  if (name) lines.push(`<i>${name}</i>`);
  lines.push('');
  lines.push(`👤 Customer: <b>${escapeClipped(d.customerName, LIMITS.customer)}</b>`);
  lines.push(
    `💰 Total (incl. tax): <b>${escapeClipped(formatTotal(d.totalWithTax, company.currency, company.locale), LIMITS.total)}</b>`,
  );
  if (d.locationName) lines.push(`📍 Location: ${escapeClipped(d.locationName, LIMITS.location)}`);
  lines.push(`📦 Lines: ${escapeTelegramHtml(formatCount(d.lineCount, company.locale))}`);
  if (d.externalReference)
    lines.push(`🔖 Reference: <code>${escapeClipped(d.externalReference, LIMITS.reference)}</code>`);
  return lines;
}

const AnsweredQuotation = {
  quotationId: Type.String({ description: 'The quotation (`qt_…`).' }),
  number: Type.String({ description: 'Quotation number (with its revision suffix, if revised).' }),
  revision: Type.Integer({ minimum: 1, description: 'The revision the customer saw and answered (1: never revised).' }),
  customerName: Type.String({ description: 'The customer as the quotation names them.' }),
  totalWithTax: Money,
  locationName: Type.String({ description: 'The location the quotation was created at.' }),
};

/** The customer's own actions: a contact form, and their answer to a sent quotation. */
const CUSTOMER_EVENTS = {
  'inquiry.created': define({
    description:
      'A contact-form inquiry arrived through `POST /reach-out` (not one held back as spam: that one fires when released).',
    onlyWhenWanted: true,
    data: Type.Object(
      {
        inquiryId: Type.String({ description: 'The inquiry (`inq_…`).' }),
        topic: Type.String(),
        subject: Type.String(),
        name: Type.Union([Type.String(), Type.Null()]),
        email: Type.String(),
        phone: Type.String(),
        locationName: Type.String({ description: 'The location of the API key that sent it.' }),
      },
      { additionalProperties: false },
    ),
    example: {
      inquiryId: 'inq_4fJ2kq9XbR0mW8tLz1cA',
      topic: 'paint',
      subject: 'Walnut stain in 5 L cans?',
      name: 'Ana Kovač',
      email: 'ana.kovac@example.com',
      phone: '+385 91 234 5678',
      locationName: 'Zagreb',
    },
    telegram: (d, company) => {
      const name = escapeClipped(company.name, LIMITS.company);
      const lines = [`<b>✉️ New inquiry: ${escapeClipped(d.subject, LIMITS.reference)}</b>`];
      if (name) lines.push(`<i>${name}</i>`);
      lines.push(
        '',
        `👤 ${escapeClipped(d.name ?? '', LIMITS.customer)} &lt;${escapeClipped(d.email, LIMITS.reference)}&gt;`,
        `🏷 ${escapeClipped(d.topic, LIMITS.reference)}`,
      );
      if (d.locationName) lines.push(`📍 Location: ${escapeClipped(d.locationName, LIMITS.location)}`);
      return lines;
    },
  }),
  'quote.accepted': define({
    description: 'The customer accepted a sent quotation on its page; it is ready to convert.',
    data: Type.Object(
      {
        ...AnsweredQuotation,
        acceptedBy: Type.String({ description: 'The name the customer signed with.' }),
        purchaseOrderReference: Type.Union([Type.String(), Type.Null()]),
        note: Type.Union([Type.String(), Type.Null()]),
      },
      { additionalProperties: false },
    ),
    example: {
      quotationId: 'qt_4fJ2kq9XbR0mW8tLz1cA',
      number: 'Q-ZG1-2026-00042',
      revision: 1,
      customerName: 'Ana Kovač',
      totalWithTax: '1234.50',
      locationName: 'Zagreb',
      acceptedBy: 'Ana Kovač',
      purchaseOrderReference: 'PO-2026-118',
      note: null,
    },
    telegram: (d, company) => {
      const lines = answerLines('👍 Quotation accepted', d, company);
      lines.push(`✍️ ${escapeClipped(d.acceptedBy, LIMITS.customer)}`);
      if (d.purchaseOrderReference)
        lines.push(`🔖 PO: <code>${escapeClipped(d.purchaseOrderReference, LIMITS.reference)}</code>`);
      if (d.note) lines.push(`📝 ${escapeClipped(d.note, LIMITS.reference)}`);
      return lines;
    },
  }),
  'quote.declined': define({
    description: 'The customer declined a sent quotation on its page.',
    data: Type.Object(
      { ...AnsweredQuotation, reason: Type.String({ description: 'Why, in the customer’s words.' }) },
      { additionalProperties: false },
    ),
    example: {
      quotationId: 'qt_4fJ2kq9XbR0mW8tLz1cA',
      number: 'Q-ZG1-2026-00042',
      revision: 1,
      customerName: 'Ana Kovač',
      totalWithTax: '1234.50',
      locationName: 'Zagreb',
      reason: 'We found the paint cheaper elsewhere.',
    },
    telegram: (d, company) => {
      const lines = answerLines('👎 Quotation declined', d, company);
      lines.push(`📝 ${escapeClipped(d.reason, LIMITS.reference)}`);
      return lines;
    },
  }),
};

function answerLines(
  title: string,
  d: { number: string; customerName: string; totalWithTax: string },
  company: MessageCompany,
): string[] {
  const name = escapeClipped(company.name, LIMITS.company);
  const lines = [`<b>${title} ${escapeClipped(d.number, LIMITS.number)}</b>`];
  if (name) lines.push(`<i>${name}</i>`);
  lines.push(
    '',
    `👤 ${escapeClipped(d.customerName, LIMITS.customer)}`,
    `💰 ${escapeClipped(formatTotal(d.totalWithTax, company.currency, company.locale), LIMITS.total)}`,
  );
  return lines;
}

/** Received e-invoices (issue 33): about the company, not a location. */
const PURCHASE_EVENTS = {
  'purchase_invoice.received': define({
    description:
      'An e-invoice addressed to the company arrived through its e-invoice exchange, or was uploaded as XML; it waits to be accepted or rejected.',
    companyWide: true,
    data: Type.Object(
      {
        purchaseInvoiceId: Type.String({ description: 'The received invoice (`pinv_…`).' }),
        number: Type.String({ description: "The supplier's invoice number." }),
        supplierName: Type.String(),
        supplierOib: Type.Union([Type.String(), Type.Null()]),
        issueDate: Type.String({ format: 'date' }),
        dueDate: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
        totalWithTax: Money,
        currency: Type.String({ description: 'ISO 4217, as the invoice states it.' }),
        source: Type.Enum(['exchange', 'upload'] as const),
      },
      { additionalProperties: false },
    ),
    example: {
      purchaseInvoiceId: 'pinv_4fJ2kq9XbR0mW8tLz1cA',
      number: '1-P1-1',
      supplierName: 'Boje Zagreb d.o.o.',
      supplierOib: '12345678903',
      issueDate: '2026-11-20',
      dueDate: '2026-12-20',
      totalWithTax: '1250.00',
      currency: 'EUR',
      source: 'exchange',
    },
    telegram: (d, company) => {
      const name = escapeClipped(company.name, LIMITS.company);
      const lines = [`<b>📥 Invoice received: ${escapeClipped(d.number, LIMITS.number)}</b>`];
      if (name) lines.push(`<i>${name}</i>`);
      lines.push(
        '',
        `🏢 ${escapeClipped(d.supplierName, LIMITS.customer)}`,
        `💰 ${escapeClipped(formatTotal(d.totalWithTax, d.currency, company.locale), LIMITS.total)}`,
      );
      return lines;
    },
  }),
};

/** Sent e-invoices (issue 33): what the buyer's side did with one, as the exchange reports it. */
const SentEInvoice = {
  saleId: Type.String({ description: 'The invoice, cancellation or credit note (`sale_…`).' }),
  invoiceNumber: InvoiceNumber,
  documentId: Type.String({ description: "The exchange's id of the e-invoice (moj-eRačun's ElectronicId)." }),
  customerName: Type.String(),
};
const EINVOICE_EVENTS = {
  'einvoice.delivered': define({
    description:
      "An e-invoice sent through the company's e-invoice exchange reached the buyer (downloaded by its side).",
    data: Type.Object(SentEInvoice, { additionalProperties: false }),
    example: {
      saleId: 'sale_4fJ2kq9XbR0mW8tLz1cA',
      invoiceNumber: '12/ZG1/1',
      documentId: '3100042',
      customerName: 'Gradnja d.o.o.',
    },
    telegram: (d, company) => {
      const name = escapeClipped(company.name, LIMITS.company);
      const lines = [`<b>📨 E-invoice delivered: ${escapeClipped(d.invoiceNumber, LIMITS.number)}</b>`];
      if (name) lines.push(`<i>${name}</i>`);
      lines.push('', `🏢 ${escapeClipped(d.customerName, LIMITS.customer)}`);
      return lines;
    },
  }),
  'einvoice.rejected': define({
    description:
      'The buyer rejected an e-invoice sent through the exchange (EvidentirajOdbijanje): correct it with a credit note or a cancellation.',
    data: Type.Object(
      {
        ...SentEInvoice,
        reason: Type.String({ description: "The buyer's reason, as the exchange reports it." }),
        type: Type.Union([Type.Literal('N'), Type.Literal('U'), Type.Literal('O'), Type.Null()], {
          description:
            "The buyer's reason type (Zakon o fiskalizaciji art. 52; specification v1.15 §5.1.2.6): N a data mismatch not affecting the VAT, U one affecting it, O other; null when the exchange does not state it.",
        }),
      },
      { additionalProperties: false },
    ),
    example: {
      saleId: 'sale_4fJ2kq9XbR0mW8tLz1cA',
      invoiceNumber: '12/ZG1/1',
      documentId: '3100042',
      customerName: 'Gradnja d.o.o.',
      reason: 'Pogrešna cijena na stavci 1.',
      type: 'U',
    },
    telegram: (d, company) => {
      const name = escapeClipped(company.name, LIMITS.company);
      const lines = [`<b>⛔ E-invoice rejected: ${escapeClipped(d.invoiceNumber, LIMITS.number)}</b>`];
      if (name) lines.push(`<i>${name}</i>`);
      lines.push(
        '',
        `🏢 ${escapeClipped(d.customerName, LIMITS.customer)}`,
        `📝 ${escapeClipped(d.reason, LIMITS.reference)}`,
      );
      return lines;
    },
  }),
};

export const EVENTS = {
  'quote.created': define({
    description: 'A quotation was created through `POST /quotes`.',
    data: Type.Object(
      {
        quotationId: Type.String({ description: 'The quotation (`qt_…`); `GET /quotes/{id}` returns it.' }),
        number: Type.String({ description: 'Quotation number, `Q-{location code}-{year}-{sequence}`.' }),
        ...DocumentFacts,
      },
      { additionalProperties: false },
    ),
    example: {
      quotationId: 'qt_4fJ2kq9XbR0mW8tLz1cA',
      number: 'Q-ZG1-2026-00042',
      customerName: 'Ana Kovač',
      totalWithTax: '1234.50',
      locationName: 'Zagreb',
      lineCount: 3,
    },
    telegram: (d, company) => documentLines('🧾 New quotation', d, company),
  }),
  'quote.revised': define({
    description:
      'An open quotation was revised in the hub or through `PUT /admin/quotations/{id}`: same id, new lines, the number with a revision suffix.',
    data: Type.Object(
      {
        quotationId: Type.String({ description: 'The quotation (`qt_…`): a revision keeps it.' }),
        number: Type.String({ description: 'The new number, `Q-{location code}-{year}-{sequence}-{revision}`.' }),
        revision: Type.Integer({ minimum: 2 }),
        previousNumber: Type.String({ description: 'The number of the revision it replaces.' }),
        ...DocumentFacts,
      },
      { additionalProperties: false },
    ),
    example: {
      quotationId: 'qt_4fJ2kq9XbR0mW8tLz1cA',
      number: 'Q-ZG1-2026-00042-2',
      revision: 2,
      previousNumber: 'Q-ZG1-2026-00042',
      customerName: 'Ana Kovač',
      totalWithTax: '1180.20',
      locationName: 'Zagreb',
      lineCount: 3,
    },
    telegram: (d, company) => documentLines('✏️ Quotation revised', d, company),
  }),
  'order.created': define({
    description: 'A web order was placed through `POST /orders`.',
    data: Type.Object(
      {
        orderId: Type.String({ description: 'The order (`ord_…`); `GET /orders/{id}` returns it.' }),
        number: Type.String({ description: 'Order number, `O-{location code}-{year}-{sequence}`.' }),
        ...DocumentFacts,
        externalReference: Type.Union([Type.String(), Type.Null()], {
          description: "The website's own reference, when it sent one.",
        }),
      },
      { additionalProperties: false },
    ),
    example: {
      orderId: 'ord_4fJ2kq9XbR0mW8tLz1cA',
      number: 'O-ZG1-2026-00017',
      customerName: 'Ana Kovač',
      totalWithTax: '89.90',
      locationName: 'Zagreb',
      lineCount: 2,
      externalReference: 'WEB-10442',
    },
    telegram: (d, company) => documentLines('🛒 New web order', d, company),
  }),
  'sale.created': define({
    description: 'A quotation or a web order was converted into a sale in the hub, or a counter sale was made.',
    data: Type.Object(
      {
        saleId: Type.String({ description: 'The sale (`sale_…`); `GET /admin/sales/{id}` returns it.' }),
        number: Type.String({ description: 'Sale number, `S-{location code}-{year}-{sequence}`.' }),
        invoiceNumber: Type.String({
          description:
            "The invoice's legal number: in Croatia `{sequence}/{premises}/{device}` (e.g. `12/ZG1/1`), elsewhere `{year}-{sequence}`.",
        }),
        paymentMethod: Type.Union(
          [Type.Literal('cash'), Type.Literal('card'), Type.Literal('bank_transfer'), Type.Literal('other')],
          { description: 'How the customer pays, chosen when the invoice was issued.' },
        ),
        source: Type.Object(
          {
            type: Type.Union([Type.Literal('quotation'), Type.Literal('order'), Type.Literal('counter')], {
              description: "What was converted; `counter` for a counter sale (its id and number are the sale's own).",
            }),
            id: Type.String({
              description: 'The quotation (`qt_…`), order (`ord_…`) or, at the counter, the sale itself.',
            }),
            number: Type.String({ description: 'Its number.' }),
          },
          { additionalProperties: false },
        ),
        customerName: Type.String({ description: 'The directory customer the sale is made out to.' }),
        totalWithTax: Money,
        locationName: Type.String({ description: 'The location the source document was created at.' }),
        lineCount: Type.Integer({ minimum: 1 }),
      },
      { additionalProperties: false },
    ),
    example: {
      saleId: 'sale_4fJ2kq9XbR0mW8tLz1cA',
      number: 'S-ZG1-2026-00007',
      invoiceNumber: '7/ZG1/1',
      paymentMethod: 'bank_transfer',
      source: { type: 'quotation', id: 'qt_4fJ2kq9XbR0mW8tLz1cA', number: 'Q-ZG1-2026-00042' },
      customerName: 'Kovač obrt',
      totalWithTax: '1234.50',
      locationName: 'Zagreb',
      lineCount: 3,
    },
    telegram: (d, company) => {
      const lines = documentLines('✅ New sale', d, company);
      if (d.source.type === 'counter') return [...lines, '🏪 At the counter'];
      const kind = d.source.type === 'order' ? 'web order' : 'quotation';
      lines.push(`📄 From ${kind}: <code>${escapeClipped(d.source.number, LIMITS.number)}</code>`);
      return lines;
    },
  }),
  'sale.cancelled': define({
    description: 'An invoice was cancelled: a cancellation invoice (storno) with every line negated was issued for it.',
    data: Type.Object(
      {
        saleId: Type.String({ description: 'The cancelled invoice (`sale_…`).' }),
        invoiceNumber: InvoiceNumber,
        cancellationId: Type.String({
          description: 'The cancellation invoice (`sale_…`), a sale of kind `cancellation`.',
        }),
        cancellationNumber: InvoiceNumber,
        totalWithTax: Money,
        reason: Type.String(),
      },
      { additionalProperties: false },
    ),
    example: {
      saleId: 'sale_4fJ2kq9XbR0mW8tLz1cA',
      invoiceNumber: '12/ZG1/1',
      cancellationId: 'sale_5gK3lr0YcS1nX9uMa2dB',
      cancellationNumber: '13/ZG1/1',
      totalWithTax: '-1234.50',
      reason: 'Issued to the wrong customer.',
    },
    telegram: (d, company) =>
      correctionLines(`❌ Invoice ${d.invoiceNumber} cancelled`, `Storno ${d.cancellationNumber}`, d, company),
  }),
  'credit_note.created': define({
    description: 'A credit note was issued for part of an invoice (goods returned).',
    data: Type.Object(
      {
        saleId: Type.String({ description: 'The invoice credited (`sale_…`).' }),
        invoiceNumber: InvoiceNumber,
        creditNoteId: Type.String({ description: 'The credit note (`sale_…`), a sale of kind `credit_note`.' }),
        creditNoteNumber: InvoiceNumber,
        totalWithTax: Money,
        reason: Type.String(),
      },
      { additionalProperties: false },
    ),
    example: {
      saleId: 'sale_4fJ2kq9XbR0mW8tLz1cA',
      invoiceNumber: '12/ZG1/1',
      creditNoteId: 'sale_5gK3lr0YcS1nX9uMa2dB',
      creditNoteNumber: '14/ZG1/1',
      totalWithTax: '-24.90',
      reason: 'One tin returned unopened.',
    },
    telegram: (d, company) =>
      correctionLines(`↩️ Credit note for invoice ${d.invoiceNumber}`, `Credit note ${d.creditNoteNumber}`, d, company),
  }),
  'payment.recorded': define({
    description: 'A payment was recorded on an invoice.',
    data: Type.Object(PaymentFacts, { additionalProperties: false }),
    example: {
      saleId: 'sale_4fJ2kq9XbR0mW8tLz1cA',
      invoiceNumber: '12/ZG1/1',
      paymentId: 'pay_6hL4ms1ZdT2oY0vNb3eC',
      method: 'cash',
      amount: '100.00',
      balance: '1134.50',
    },
    telegram: (d, company) => paymentLines(`💶 Payment on invoice ${d.invoiceNumber ?? d.saleId}`, d, company),
  }),
  'payment.voided': define({
    description: 'A payment recorded by mistake was voided (kept, with who, when and why); the balance grew back.',
    data: Type.Object({ ...PaymentFacts, reason: Type.String() }, { additionalProperties: false }),
    example: {
      saleId: 'sale_4fJ2kq9XbR0mW8tLz1cA',
      invoiceNumber: '12/ZG1/1',
      paymentId: 'pay_6hL4ms1ZdT2oY0vNb3eC',
      method: 'cash',
      amount: '100.00',
      balance: '1234.50',
      reason: 'Recorded twice.',
    },
    telegram: (d, company) => paymentLines(`🚫 Payment voided on invoice ${d.invoiceNumber ?? d.saleId}`, d, company),
  }),
  'refund.recorded': define({
    description:
      'Money paid on an invoice was given back with its cancellation or credit note: how (cash from the drawer, card reversal, transfer), how much and who gave it.',
    data: Type.Object(
      {
        saleId: Type.String({ description: 'The invoice refunded (`sale_…`).' }),
        invoiceNumber: InvoiceNumber,
        correctionId: Type.String({ description: 'The cancellation or credit note it goes with (`sale_…`).' }),
        correctionNumber: InvoiceNumber,
        refundId: Type.String({ description: 'The refund (`rfd_…`).' }),
        method: Type.Enum(['cash', 'card', 'bank_transfer'] as const),
        amount: Money,
        givenBy: Type.Union([Type.String({ description: 'The user who gave it (`usr_…`).' }), Type.Null()]),
      },
      { additionalProperties: false },
    ),
    example: {
      saleId: 'sale_4fJ2kq9XbR0mW8tLz1cA',
      invoiceNumber: '12/ZG1/1',
      correctionId: 'sale_5gK3lr0YcS1nX9uMa2dB',
      correctionNumber: '13/ZG1/1',
      refundId: 'rfd_6hL4ms1ZdT2oY0vNb3eC',
      method: 'cash',
      amount: '18.90',
      givenBy: 'usr_7iM5nt2AeU3pZ1wOc4fD',
    },
    telegram: (d, company) => {
      const name = escapeClipped(company.name, LIMITS.company);
      const lines = [`<b>↩️ Refund on invoice ${escapeClipped(d.invoiceNumber, LIMITS.number)}</b>`];
      if (name) lines.push(`<i>${name}</i>`);
      lines.push(
        '',
        `${escapeTelegramHtml(d.method)}: <b>${escapeTelegramHtml(formatTotal(d.amount, company.currency, company.locale))}</b>`,
      );
      return lines;
    },
  }),
  'drawer.closed': define({
    description:
      "A location's cash drawer was closed for the day: expected against counted cash, the difference, and the day's takings.",
    data: Type.Object(
      {
        locationId: Type.String({ description: 'The location (`loc_…`).' }),
        date: Type.String({ description: 'The day, YYYY-MM-DD where the company is.' }),
        expected: Money,
        counted: Money,
        difference: Type.String({ ...Money, description: 'Counted − expected: negative when cash is missing.' }),
        cashSales: Money,
        cashRefunds: Money,
        documents: Type.Integer({ minimum: 0, description: 'Documents issued at the location that day.' }),
      },
      { additionalProperties: false },
    ),
    example: {
      locationId: 'loc_4fJ2kq9XbR0mW8tLz1cA',
      date: '2026-11-28',
      expected: '612.40',
      counted: '610.40',
      difference: '-2.00',
      cashSales: '563.30',
      cashRefunds: '18.90',
      documents: 23,
    },
    telegram: (d, company) => {
      const name = escapeClipped(company.name, LIMITS.company);
      const lines = [`<b>🧾 Drawer closed, ${escapeTelegramHtml(d.date)}</b>`];
      if (name) lines.push(`<i>${name}</i>`);
      lines.push(
        '',
        `Expected: ${escapeTelegramHtml(formatTotal(d.expected, company.currency, company.locale))}`,
        `Counted: <b>${escapeTelegramHtml(formatTotal(d.counted, company.currency, company.locale))}</b>`,
        `Difference: ${escapeTelegramHtml(formatTotal(d.difference, company.currency, company.locale))}`,
      );
      return lines;
    },
  }),
  'order.status_changed': define({
    description: 'A web order moved on in the hub: accepted, converted into a sale, or cancelled.',
    data: Type.Object(
      {
        orderId: Type.String({ description: 'The order (`ord_…`).' }),
        number: Type.String({ description: 'Order number, `O-{location code}-{year}-{sequence}`.' }),
        status: ORDER_STATUS,
        previousStatus: ORDER_STATUS,
      },
      { additionalProperties: false },
    ),
    example: {
      orderId: 'ord_4fJ2kq9XbR0mW8tLz1cA',
      number: 'O-ZG1-2026-00017',
      status: 'accepted',
      previousStatus: 'received',
    },
    telegram: (d, company) => {
      const name = escapeClipped(company.name, LIMITS.company);
      const lines = [`<b>🔄 Web order ${escapeClipped(d.number, LIMITS.number)}</b>`];
      if (name) lines.push(`<i>${name}</i>`);
      lines.push('', `Status: ${escapeTelegramHtml(d.previousStatus)} → <b>${escapeTelegramHtml(d.status)}</b>`);
      return lines;
    },
  }),
  ...CUSTOMER_EVENTS,
  ...PURCHASE_EVENTS,
  ...EINVOICE_EVENTS,
};

export type EventName = keyof typeof EVENTS;
export type EventData<E extends EventName> = Static<(typeof EVENTS)[E]['data']>;
export const EVENT_NAMES = Object.keys(EVENTS) as EventName[];

export const isEventName = (name: string): name is EventName => Object.hasOwn(EVENTS, name);

/** Not an event one subscribes to: "Send a test" delivers it to one endpoint at once, outside the queue. */
export const PING = define({
  description: 'A test sent to one endpoint by `POST /admin/webhooks/{id}/test`; answered inline, never retried.',
  data: Type.Object(
    { endpointId: Type.String({ description: 'The endpoint tested (`whe_…`).' }) },
    { additionalProperties: false },
  ),
  example: { endpointId: 'whe_4fJ2kq9XbR0mW8tLz1cA' },
  telegram: (_d, company) => {
    const name = escapeClipped(company.name, LIMITS.company);
    return [
      '<b>🔔 Test notification</b>',
      name ? `Notifications from <b>${name}</b> reach this chat.` : 'Notifications reach this chat.',
    ];
  },
});

export type PingData = Static<typeof PING.data>;

/** The body a receiver gets: exactly the spec's shape plus the event id, in this order. */
export interface WebhookEnvelope {
  id: string;
  event: string;
  companyId: string;
  locationId: string | null;
  timestamp: string;
  /** False for an event about test data (made with a test key). */
  livemode: boolean;
  data: unknown;
}

export function serializeBody(b: WebhookEnvelope): string {
  return JSON.stringify({
    id: b.id,
    event: b.event,
    companyId: b.companyId,
    locationId: b.locationId,
    timestamp: b.timestamp,
    livemode: b.livemode,
    data: b.data,
  });
}

const bodySchema = (name: string, definition: EventDefinition, locationId: TSchema) =>
  Type.Object(
    {
      id: Type.String({
        description:
          'The event id (`evt_…`), also sent as `webhook-id`: the same on every retry, so a receiver can drop duplicates.',
      }),
      event: Type.Literal(name),
      companyId: Type.String(),
      locationId,
      timestamp: Type.String({ format: 'date-time', description: 'When the event happened, ISO 8601 UTC.' }),
      livemode: Type.Boolean({
        description:
          '`false` when the event is about test data, made with a test key (`ptc_test_…`, `ptc_pub_test_…`): test documents are numbered `T-…` and are not real.',
      }),
      data: definition.data,
    },
    { additionalProperties: false, description: definition.description },
  );

/** How a receiver sees an event: its body's schema, and an example body. */
export interface WebhookBody {
  name: string;
  description: string;
  schema: TSchema;
  example: Record<string, unknown>;
}

function documented(
  name: string,
  definition: EventDefinition,
  locationId: TSchema,
  exampleLocationId: string | null,
): WebhookBody {
  return {
    name,
    description: definition.description,
    schema: bodySchema(name, definition, locationId),
    example: {
      id: 'evt_0Pq5sT8uVwXyZ1a2B3c4D5',
      event: name,
      companyId: 'cmp_2bN6vX1kLq8sD3fG5hJ7',
      locationId: exampleLocationId,
      timestamp: '2026-11-21T10:15:30.123Z',
      livemode: true,
      data: definition.example,
    },
  };
}

/** Every body a receiver can get: the events, and the ping (which belongs to no location). */
export const WEBHOOK_BODIES: readonly WebhookBody[] = [
  ...Object.entries(EVENTS).map(([name, definition]: [string, EventDefinition]) =>
    definition.companyWide
      ? documented(name, definition, Type.Null(), null)
      : documented(name, definition, Type.String(), 'loc_7hQ2mZ0cW4xYp9RtK3vB'),
  ),
  documented('ping', PING, Type.Null(), null),
];

/**
 * The event's Telegram lines, or null when the event is unknown here or its data does not fit
 * its schema (a body stored by another version): the channel then sends a plain notice.
 */
export function telegramLines(event: string, data: unknown, company: MessageCompany): string[] | null {
  const definition: EventDefinition | undefined =
    event === 'ping' ? PING : isEventName(event) ? EVENTS[event] : undefined;
  if (!definition || !Value.Check(definition.data, data)) return null;
  return definition.telegram(data, company);
}
