import type { Company, LocationRow } from '../companies/index.ts';
import { printedContent, type DocumentLineRow, type DocumentTitle } from '../documents/index.ts';
import type { FiscalStatus } from '../fiscal/index.ts';
import { createFormatter, resolveLanguage, translator } from '../i18n/index.ts';
import type { PrintDocument, PrintFact } from '../printing/index.ts';
import { formatMoney } from '../../lib/money.ts';
import { balanceMinor } from './sale-view.ts';
import type { PaymentRow, SaleRow } from './sales.repository.ts';

const TITLES: Record<string, DocumentTitle> = {
  invoice: 'document.invoice',
  cancellation: 'document.cancellation',
  credit_note: 'document.credit_note',
};

/**
 * An invoice, cancellation invoice or credit note as the one printer sees it, with what the law
 * of the company's country asks an invoice to state (README "Invoices and the law"): the legal
 * number, the seller's and buyer's ids, date and time of issue, delivery date, payment method
 * and due date, the operator, the exemption reason, the fiscal codes; and the money: payments
 * received and the balance, payment codes only while something is due, for what is due.
 * Taken only from stored rows and the fiscal status.
 */
export function toSalePrint(
  row: SaleRow,
  lines: readonly DocumentLineRow[],
  company: Company,
  location: LocationRow,
  extra: { payments: readonly PaymentRow[]; fiscal: FiscalStatus | undefined; original: SaleRow | null },
): PrintDocument {
  const language = resolveLanguage(company.locale);
  const tr = translator(language);
  const format = createFormatter(company.locale, { currency: row.currency, timeZone: company.timezone });
  const title = TITLES[row.kind] ?? 'document.invoice';
  const number = row.invoice_number ?? row.number;
  const invoice = row.kind === 'invoice';
  const due = balanceMinor(row);
  const open = invoice && row.status !== 'cancelled';
  const customer = {
    name: row.customer_name,
    email: row.customer_email,
    phone: row.customer_phone,
    address: addressLine(row.customer_address),
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
      paymentNumber: row.number,
    },
    lines,
    company,
    location,
  );
  const facts: PrintFact[] = [];
  if (row.delivery_date) facts.push({ label: 'print.deliveryDate', value: format.date(noon(row.delivery_date)) });
  if (row.payment_method)
    facts.push({
      label: 'print.paymentMethod',
      value: tr(`payment.method.${row.payment_method}` as 'payment.method.cash'),
    });
  if (row.operator_name || row.operator_oib)
    facts.push({
      label: 'print.operator',
      value: [row.operator_name, row.operator_oib && company.country === 'HR' ? `OIB ${row.operator_oib}` : null]
        .filter(Boolean)
        .join(', '),
    });
  if (row.invoice_number) facts.push({ label: 'print.internalReference', value: row.number });
  const corrects: string[] = [];
  if (!invoice && extra.original) {
    const args = {
      number: extra.original.invoice_number ?? extra.original.number,
      date: format.date(extra.original.issued_at ?? extra.original.created_at),
    };
    corrects.push(tr(row.kind === 'cancellation' ? 'print.cancels' : 'print.credits', args));
    if (row.correction_reason) corrects.push(tr('print.reason', { reason: row.correction_reason }));
  }
  const payments = extra.payments.filter((p) => !p.voided_at);
  return {
    title,
    number,
    source: invoice ? { number: row.source_number } : null,
    issuedAt: row.issued_at ?? row.created_at,
    issuedLabel: 'print.issuedAt',
    dates: invoice && row.due_date ? [{ label: 'print.dueDate', at: noon(row.due_date) }] : [],
    customer,
    note: row.note,
    ...content,
    payment: open && due > 0 ? content.payment : null,
    facts,
    corrects,
    notices: row.exemption_reason ? [tr('print.exemption', { reason: row.exemption_reason })] : [],
    settlement: open
      ? {
          payments: payments.map((p) => ({
            at: p.created_at,
            method: tr(`payment.method.${p.method}` as 'payment.method.cash'),
            amount: formatMoney(p.amount_minor),
          })),
          paid: formatMoney(row.paid_minor),
          balance: formatMoney(due),
          state: due > 0 ? 'due' : due < 0 ? 'refund' : 'paid',
        }
      : null,
    fiscal: fiscalLines(extra.fiscal),
  };
}

/** A calendar day as an instant the company's time zone shows as that day, whatever its offset. */
function noon(day: string): string {
  return `${day}T12:00:00Z`;
}

function addressLine(json: string | null): string | null {
  if (!json) return null;
  const a = JSON.parse(json) as { street: string; postalCode: string; city: string; country: string };
  return [a.street, [a.postalCode, a.city].filter(Boolean).join(' '), a.country].filter(Boolean).join(', ');
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
  const lines: PrintFact[] = [];
  if (status.protectionCode) lines.push({ label: 'print.fiscal.zki', value: status.protectionCode });
  if (status.receipt) lines.push({ label: 'print.fiscal.jir', value: status.receipt });
  else
    lines.push({
      label: 'print.fiscal.pending',
      value: status.error ? `${status.error.code} ${status.error.message}` : '…',
    });
  return { lines, verifyUrl: status.verifyUrl };
}
