import type { Company, LocationRow } from '../companies/index.ts';
import { printedContent, type DocumentLineRow, type DocumentTitle } from '../documents/index.ts';
import type { FiscalStatus, TseRecord } from '../fiscal/index.ts';
import { createFormatter, resolveLanguage, translator } from '../i18n/index.ts';
import type { PrintDocument, PrintFact } from '../printing/index.ts';
import { formatMoney } from '../../lib/money.ts';
import { balanceMinor } from './sale-view.ts';
import type { PaymentRow, SaleRow } from './types.ts';

const TITLES: Record<string, DocumentTitle> = {
  invoice: 'document.invoice',
  cancellation: 'document.cancellation',
  credit_note: 'document.credit_note',
};

/**
 * An invoice, cancellation invoice or credit note as the one printer sees it, with what the law
 * of the company's country asks an invoice to state (docs/fiscalisation-hr.md, "Invoices and the law"): the legal
 * number, the seller's and buyer's ids, date and time of issue, delivery date, payment method
 * and due date, the operator, the exemption reason, the fiscal codes, and what was paid with the
 * issue (a counter sale: the payment, cash handed over and change). Issued means fixed: what is
 * paid, credited or cancelled later is the account statement's (statement.ts), never this print's.
 * Taken only from stored rows, the snapshot of issue and the fiscal status.
 */
export function toSalePrint(
  row: SaleRow,
  lines: readonly DocumentLineRow[],
  company: Company,
  location: LocationRow,
  extra: {
    /** What was paid in the issuing transaction (a counter sale's payment), from the snapshot of issue. */
    paidAtIssue: number;
    fiscal: FiscalStatus | undefined;
    original: SaleRow | null;
    /** What a correction gave back with it, from the snapshot of issue: printed in place of any cash handed over. */
    refunds?: ReadonlyArray<{ method: string; amountMinor: number }>;
    /**
     * The account statement instead of the invoice: the same document headed as a statement,
     * with today's payments, corrections and balance, and payment codes for what is still due.
     */
    account?: { payments: readonly PaymentRow[]; corrections: readonly SaleRow[] };
  },
): PrintDocument {
  const language = resolveLanguage(company.locale);
  const tr = translator(language);
  const format = createFormatter(company.locale, {
    currency: row.currency,
    timeZone: company.timezone,
    dates: 'numeric',
  });
  const account = extra.account;
  const title = account ? 'document.statement' : (TITLES[row.kind] ?? 'document.invoice');
  const number = row.invoice_number ?? row.number;
  const invoice = row.kind === 'invoice';
  const due = account ? balanceMinor(row) : invoice ? row.total_minor - extra.paidAtIssue : 0;
  const open = invoice && !(account && row.status === 'cancelled');
  const customer = {
    name: row.customer_name,
    email: row.customer_email,
    phone: row.customer_phone,
    address: addressLine(row.customer_address, company.country, language),
    ids: buyerIds(row, company.country),
  };
  const content = printedContent(
    {
      title,
      number,
      currency: row.currency,
      pricesIncludeTax: Boolean(row.prices_include_tax),
      totalMinor: open ? Math.max(due, 0) : 0,
      dueDate: row.due_date ? noon(row.due_date) : row.created_at,
      customerName: customer.name,
      paymentYear: row.invoice_number ? row.invoice_year : null,
    },
    lines,
    company,
    // The premises label the legal number was issued with (`12/VZ1/1`), beside the location's
    // name and address: the internal code once printed there disagreed with the number.
    row.fiscal_premises ? { ...location, code: row.fiscal_premises } : location,
  );
  const facts: PrintFact[] = [];
  if (row.delivery_date) facts.push({ label: 'print.deliveryDate', value: format.date(noon(row.delivery_date)) });
  if (row.payment_method)
    facts.push({
      label: 'print.paymentMethod',
      value: tr(`payment.method.${row.payment_method}` as 'payment.method.cash'),
    });
  // The operator's label (oznaka operatera), never the personal OIB: čl. 8 of Zakon o fiskalizaciji
  // has the label printed and the OIB sent to CIS only.
  if (row.operator_name) facts.push({ label: 'print.operator', value: row.operator_name });
  if (row.order_reference) facts.push({ label: 'print.orderReference', value: row.order_reference });
  const corrects: string[] = [];
  if (!invoice && extra.original) {
    const args = {
      number: extra.original.invoice_number ?? extra.original.number,
      date: format.date(extra.original.issued_at ?? extra.original.created_at),
    };
    corrects.push(tr(row.kind === 'cancellation' ? 'print.cancels' : 'print.credits', args));
    if (row.correction_reason) corrects.push(tr('print.reason', { reason: row.correction_reason }));
  }
  // The statement names each correction of the invoice: the reader holds every paper.
  for (const c of invoice ? (account?.corrections ?? []) : []) {
    const args = { number: c.invoice_number ?? c.number, date: format.date(c.issued_at ?? c.created_at) };
    corrects.push(
      c.kind === 'cancellation'
        ? tr('print.cancelledBy', args)
        : tr('print.creditedBy', { ...args, amount: format.money(c.total_minor) }),
    );
  }
  const payments = account
    ? account.payments
        .filter((p) => !p.voided_at)
        .map((p) => ({
          at: p.created_at,
          method: tr(`payment.method.${p.method}` as 'payment.method.cash'),
          amount: formatMoney(p.amount_minor),
        }))
    : [
        {
          at: row.issued_at ?? row.created_at,
          method: tr(`payment.method.${row.payment_method ?? 'cash'}` as 'payment.method.cash'),
          amount: formatMoney(extra.paidAtIssue),
        },
      ];
  const paid = account ? row.paid_minor : extra.paidAtIssue;
  return {
    title,
    number,
    // A counter sale is its own source: nothing to name.
    source: invoice && row.source_type !== 'counter' ? { number: row.source_number } : null,
    issuedAt: row.issued_at ?? row.created_at,
    issuedLabel: 'print.issuedAt',
    dates: invoice && row.due_date ? [{ label: 'print.dueDate', at: noon(row.due_date) }] : [],
    customer,
    note: row.note,
    ...content,
    // Bank details and payment codes only while something is due and it is paid by transfer: a
    // customer who pays cash or card at the counter is not asked for a bank transfer.
    payment: open && due > 0 && byTransfer(row.payment_method) ? content.payment : null,
    template: byTransfer(row.payment_method) ? content.template : { ...content.template, paymentInstructions: null },
    facts,
    corrects,
    notices: [
      ...(row.exemption_reason ? [tr('print.exemption', { reason: row.exemption_reason })] : []),
      ...(extra.refunds ?? []).map((r) =>
        tr('print.refunded', {
          amount: format.money(r.amountMinor),
          method: tr(`payment.method.${r.method}` as 'payment.method.cash'),
        }),
      ),
      ...germanCounterNotice(row, company, tr),
    ],
    // Paid with the issue (the counter): the payment, cash handed over and change, as handed out.
    settlement:
      invoice && (account ? open || due < 0 : true)
        ? {
            credited: account && row.credited_minor !== 0 ? formatMoney(-row.credited_minor) : null,
            payments: account || paid > 0 ? payments : [],
            paid: formatMoney(paid),
            balance: formatMoney(due),
            state: due > 0 ? 'due' : due < 0 ? 'refund' : 'paid',
            ...(row.tendered_minor == null
              ? {}
              : {
                  tendered: formatMoney(row.tendered_minor),
                  change: formatMoney(Number(row.tendered_minor) - Number(row.total_minor)),
                }),
          }
        : null,
    fiscal: fiscalLines(extra.fiscal),
  };
}

/** Paid by bank transfer: chosen so, or chosen as "other" (or a sale made before invoices had a method). */
function byTransfer(method: string | null): boolean {
  return method !== 'cash' && method !== 'card';
}

/** A calendar day as an instant the company's time zone shows as that day, whatever its offset. */
function noon(day: string): string {
  return `${day}T12:00:00Z`;
}

/** A domestic address without its country (as post and invoices write it); a foreign one with the country's name. */
function addressLine(json: string | null, home: string | null, language: string): string | null {
  if (!json) return null;
  const a = JSON.parse(json) as { street: string; postalCode: string; city: string; country: string };
  const country = a.country && a.country !== home ? countryName(a.country, language) : null;
  return [a.street, [a.postalCode, a.city].filter(Boolean).join(' '), country].filter(Boolean).join(', ');
}

function countryName(code: string, language: string): string {
  try {
    return new Intl.DisplayNames([language], { type: 'region' }).of(code) ?? code;
  } catch {
    return code; // not a region code Intl knows: printed as stored
  }
}

/** The buyer's tax id, for a business buyer: with it a Croatian invoice is an R-1. */
function buyerIds(row: SaleRow, country: string | null): PrintFact[] {
  const taxId = row.customer_tax_id;
  if (!taxId) return [];
  if (/^HR\d{11}$/.test(taxId) || (country === 'HR' && /^\d{11}$/.test(taxId)))
    return [{ label: 'print.oib', value: taxId.replace(/^HR/, '') }];
  if (/^[A-Z]{2}[0-9A-Z]+$/.test(taxId)) return [{ label: 'print.vatId', value: taxId }];
  return [{ label: country === 'DE' ? 'print.taxNumber' : 'print.taxId', value: taxId }];
}

/** Nothing at all when fiscalisation is not required; ZKI and JIR (or that it is pending) otherwise. */
function fiscalLines(status: FiscalStatus | undefined): PrintDocument['fiscal'] {
  if (!status || status.status === 'not_required') return null;
  if (status.tse) return tseLines(status.tse);
  const lines: PrintFact[] = [];
  if (status.protectionCode) lines.push({ label: 'print.fiscal.zki', value: status.protectionCode });
  // Without its JIR (CIS not reached yet, or refused) the receipt carries the ZKI alone, as the
  // specification has it for a receipt issued while CIS cannot be reached; CIS's refusal is for
  // the shop's staff (the hub), never for the customer's paper.
  if (status.receipt) lines.push({ label: 'print.fiscal.jir', value: status.receipt });
  return { lines, verifyUrl: status.verifyUrl };
}

/**
 * A German receipt's TSE data (§ 6 KassenSichV, AEAO zu § 146a Nr. 2.2.3): readable, and as the
 * DSFinV-K QR code (`V0;…`) in the fiscal code's place. Not reached: "TSE ausgefallen", as the
 * receipt of a sale recorded during an outage must say.
 */
function tseLines(tse: TseRecord): PrintDocument['fiscal'] {
  if (tse.status === 'failed')
    return { lines: [{ label: 'print.tse.failed', value: 'Vorgang nicht abgesichert' }], verifyUrl: null };
  const lines: PrintFact[] = [
    { label: 'print.tse.transaction', value: String(tse.transactionNumber) },
    { label: 'print.tse.start', value: tse.start ?? '' },
    { label: 'print.tse.end', value: tse.end ?? '' },
    { label: 'print.tse.counter', value: String(tse.signatureCounter) },
    { label: 'print.tse.serial', value: tse.serialNumber ?? '' },
    { label: 'print.tse.clientSerial', value: tse.clientSerial ?? '' },
    { label: 'print.tse.algorithm', value: tse.algorithm ?? '' },
    { label: 'print.tse.timeFormat', value: tse.timeFormat ?? '' },
    { label: 'print.tse.signature', value: tse.signature ?? '' },
    { label: 'print.tse.publicKey', value: tse.publicKey ?? '' },
  ];
  return { lines, verifyUrl: tse.qrCode, heading: 'print.tse.heading' };
}

/** § 33 UStDV: up to this gross a German invoice may be a small-amount invoice (250 € since 2017). */
export const SMALL_AMOUNT_LIMIT_MINOR = 25_000;

/**
 * A German counter sale to a walk-in customer: up to 250 € gross it is a small-amount invoice
 * (Kleinbetragsrechnung, § 33 UStDV: supplier's name and address, date, goods, gross and rate,
 * which every print states); above, the receipt says that a full invoice under § 14 (4) UStG,
 * with the buyer's name and address, is issued on request, by selling to the buyer as a
 * directory customer. A sale to a directory customer is the full § 14 invoice already.
 */
function germanCounterNotice(row: SaleRow, company: Company, tr: ReturnType<typeof translator>): string[] {
  if (company.country !== 'DE' || row.source_type !== 'counter' || row.kind !== 'invoice') return [];
  if (row.customer_id) return [];
  return [
    Number(row.total_minor) <= SMALL_AMOUNT_LIMIT_MINOR ? tr('print.de.smallAmount') : tr('print.de.fullOnRequest'),
  ];
}
