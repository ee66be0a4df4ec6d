import { formatMoney, formatScaledTrimmed, QUANTITY_SCALE } from '../../lib/money.ts';
import { toLineView, totalsView, type DocumentLineRow, type LineView, type TotalsView } from '../documents/index.ts';
import { NOT_REQUIRED, type FiscalStatus, type TseRecord } from '../fiscal/index.ts';
import { NOT_SENT, type ExchangeView } from '../einvoice/index.ts';
import type { InvoiceKind, InvoicePaymentMethod, SaleSourceType } from './sale-kinds.ts';
import type { PaymentRow, RefundRow, SaleRow } from './types.ts';

export const PAYMENT_METHODS = ['cash', 'card', 'bank_transfer'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
/** `issued`: a cancellation or credit note (nothing to pay); `cancelled`: an invoice a storno took back. */
export const SALE_STATUSES = ['unpaid', 'partially_paid', 'paid', 'cancelled', 'issued'] as const;
export type SaleStatus = (typeof SALE_STATUSES)[number];

export interface PaymentView {
  id: string;
  method: PaymentMethod;
  amount: string;
  createdAt: string;
  recordedBy: string | null;
  /** A voided payment is kept, with who voided it, when and why; it no longer counts. */
  voided: { at: string; by: string | null; reason: string } | null;
}

/** The fiscal record as the JSON shows it: ZKI and JIR under their Croatian names. */
export interface FiscalView {
  status: FiscalStatus['status'];
  zki: string | null;
  jir: string | null;
  verifyUrl: string | null;
  error?: { code: string; message: string };
  /** Germany: the TSE transaction (KassenSichV). */
  tse?: TseRecord;
}

export interface SaleView {
  id: string;
  number: string;
  kind: InvoiceKind;
  /** False for a test sale (converted from a document made with a test key). */
  livemode: boolean;
  /** The legal number; null on sales made before invoices. */
  invoiceNumber: string | null;
  status: SaleStatus;
  locationId: string;
  createdAt: string;
  issuedAt: string | null;
  /** The user who issued it (null: an API key, or made before this was kept): staff may cancel their own. */
  createdBy: string | null;
  deliveryDate: string | null;
  /** The buyer's order number (EN 16931 BT-13), given at conversion or at the counter. */
  orderReference: string | null;
  dueDate: string | null;
  paymentMethod: InvoicePaymentMethod | null;
  operator: { name: string | null; oib: string | null } | null;
  /** The invoice a cancellation or credit note corrects. */
  correctsSaleId: string | null;
  correctionReason: string | null;
  /** The cancellation and credit notes of an invoice. */
  corrections: Array<{ id: string; kind: InvoiceKind; invoiceNumber: string | null }>;
  source: { type: SaleSourceType | 'sale'; id: string; number: string };
  customer: {
    id: string;
    kind: string;
    name: string;
    taxId: string | null;
    email: string | null;
    phone: string | null;
    address: { street: string; postalCode: string; city: string; country: string } | null;
  };
  note: string | null;
  currency: string;
  /** Priced at the day of conversion rather than as quoted (an expired quotation, converted by an admin). */
  repriced: boolean;
  /** `creditable`: what is left to credit of the line (an open invoice's), else null. */
  lines: Array<LineView & { id: string; creditable: string | null }>;
  totals: TotalsView;
  credited: string;
  paid: string;
  /** Cash handed over at a counter sale; null otherwise. */
  tendered: string | null;
  /** What was given back: tendered − total; null when nothing was tendered. */
  change: string | null;
  balance: string;
  payments: PaymentView[];
  /** Money given back: a correction's own refunds, or those on an invoice (filled when one sale is read). */
  refunds: RefundView[];
  fiscal: FiscalView;
  /** Its e-invoice through the company's exchange (Croatian B2B, issue 33); `not_required` otherwise. */
  exchange: ExchangeView;
}

/** Money given back with a cancellation or credit note, and who gave it. */
export interface RefundView {
  id: string;
  /** The correction it went with. */
  saleId: string;
  invoiceId: string;
  method: PaymentMethod;
  amount: string;
  createdAt: string;
  givenBy: string | null;
}

export function toFiscalView(status: FiscalStatus): FiscalView {
  return {
    status: status.status,
    zki: status.protectionCode,
    jir: status.receipt,
    verifyUrl: status.verifyUrl,
    ...(status.error ? { error: status.error } : {}),
    ...(status.tse ? { tse: status.tse } : {}),
  };
}

/**
 * What is still due: nothing on a correction; negative when money is to be refunded (a credit
 * note over what was left to pay, or a cancelled invoice that had been paid: all of it).
 */
export function balanceMinor(row: SaleRow): number {
  if (row.kind !== 'invoice') return 0;
  if (row.status === 'cancelled') return -row.paid_minor;
  return row.total_minor - row.credited_minor - row.paid_minor;
}

export function toSaleView(
  row: SaleRow,
  lines: readonly DocumentLineRow[],
  payments: readonly PaymentRow[],
  extra: {
    fiscal?: FiscalStatus;
    exchange?: ExchangeView;
    corrections?: readonly SaleRow[];
    refunds?: readonly RefundRow[];
    /** The lines of the invoice's credit notes, for what is left to credit. */
    creditLines?: ReadonlyArray<{ corrects_line_id?: string | null; quantity_milli: number }>;
  } = {},
): SaleView {
  const correction = row.kind !== 'invoice';
  // Credit-note lines carry negative quantities and name the line they credit.
  const creditedOf = (lineId: string) =>
    (extra.creditLines ?? []).reduce((sum, c) => (c.corrects_line_id === lineId ? sum + c.quantity_milli : sum), 0);
  return {
    id: row.id,
    number: row.number,
    kind: row.kind as InvoiceKind,
    livemode: row.mode !== 'test',
    invoiceNumber: row.invoice_number,
    status: row.status as SaleStatus,
    locationId: row.location_id,
    createdAt: row.created_at,
    issuedAt: row.issued_at,
    createdBy: row.created_by,
    deliveryDate: row.delivery_date,
    orderReference: row.order_reference ?? null,
    dueDate: row.due_date,
    paymentMethod: row.payment_method as InvoicePaymentMethod | null,
    operator: row.operator_name || row.operator_oib ? { name: row.operator_name, oib: row.operator_oib } : null,
    correctsSaleId: row.corrects_sale_id,
    correctionReason: row.correction_reason,
    corrections: (extra.corrections ?? []).map((c) => ({
      id: c.id,
      kind: c.kind as InvoiceKind,
      invoiceNumber: c.invoice_number,
    })),
    source: correction
      ? { type: 'sale', id: row.corrects_sale_id!, number: row.source_number }
      : { type: row.source_type as SaleSourceType, id: row.source_id, number: row.source_number },
    customer: {
      id: row.customer_id,
      kind: row.customer_kind,
      name: row.customer_name,
      taxId: row.customer_tax_id,
      email: row.customer_email,
      phone: row.customer_phone,
      address: row.customer_address ? (JSON.parse(row.customer_address) as SaleView['customer']['address']) : null,
    },
    note: row.note,
    currency: row.currency,
    repriced: Boolean(row.repriced),
    lines: lines.map((l) => ({
      id: l.id,
      ...toLineView(l),
      creditable:
        row.kind === 'invoice' && row.status !== 'cancelled'
          ? formatScaledTrimmed(l.quantity_milli + creditedOf(l.id), QUANTITY_SCALE)
          : null,
    })),
    totals: totalsView(lines),
    credited: formatMoney(row.credited_minor),
    paid: formatMoney(row.paid_minor),
    tendered: row.tendered_minor == null ? null : formatMoney(row.tendered_minor),
    change: row.tendered_minor == null ? null : formatMoney(Number(row.tendered_minor) - Number(row.total_minor)),
    balance: formatMoney(balanceMinor(row)),
    payments: payments.map((p) => ({
      id: p.id,
      method: p.method as PaymentMethod,
      amount: formatMoney(p.amount_minor),
      createdAt: p.created_at,
      recordedBy: p.recorded_by,
      voided: p.voided_at ? { at: p.voided_at, by: p.voided_by, reason: p.void_reason ?? '' } : null,
    })),
    refunds: (extra.refunds ?? []).map((r) => ({
      id: r.id,
      saleId: r.sale_id,
      invoiceId: r.invoice_id,
      method: r.method as PaymentMethod,
      amount: formatMoney(r.amount_minor),
      createdAt: r.created_at,
      givenBy: r.given_by,
    })),
    fiscal: toFiscalView(extra.fiscal ?? NOT_REQUIRED),
    exchange: extra.exchange ?? NOT_SENT,
  };
}
