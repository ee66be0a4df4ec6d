import { formatMoney } from '../../lib/money.ts';
import { balanceMinor, type SaleStatus } from './sale-view.ts';
import type { PaymentRow, SaleRow } from './types.ts';

/** One movement on an invoice's account: the invoice, a correction, a payment or its void. */
export interface StatementEntry {
  at: string;
  kind: 'invoice' | 'cancellation' | 'credit_note' | 'payment' | 'payment_voided';
  /** The document's legal number, or the payment's id. */
  reference: string;
  /** What it adds to what the customer owes (negative: takes off). */
  amount: string;
  /** What is owed after it. */
  balance: string;
}

/**
 * An invoice's account as it stands: what happened since it was issued (payments and their
 * voids, cancellation, credit notes) and the balance. The invoice itself stays as issued; this is
 * where the money shows.
 */
export interface StatementView {
  saleId: string;
  invoiceNumber: string | null;
  currency: string;
  customerName: string;
  status: SaleStatus;
  total: string;
  credited: string;
  paid: string;
  balance: string;
  entries: StatementEntry[];
}

export function toStatement(
  row: SaleRow,
  corrections: readonly SaleRow[],
  payments: readonly PaymentRow[],
): StatementView {
  const moves: Array<Omit<StatementEntry, 'balance'> & { minor: number }> = [
    {
      at: row.issued_at ?? row.created_at,
      kind: 'invoice',
      reference: row.invoice_number ?? row.number,
      amount: '',
      minor: row.total_minor,
    },
    ...corrections.map((c) => ({
      at: c.issued_at ?? c.created_at,
      kind: c.kind as 'cancellation' | 'credit_note',
      reference: c.invoice_number ?? c.number,
      amount: '',
      minor: c.total_minor,
    })),
    ...payments.map((p) => ({
      at: p.created_at,
      kind: 'payment' as const,
      reference: p.id,
      amount: '',
      minor: -p.amount_minor,
    })),
    ...payments
      .filter((p) => p.voided_at)
      .map((p) => ({
        at: p.voided_at!,
        kind: 'payment_voided' as const,
        reference: p.id,
        amount: '',
        minor: p.amount_minor,
      })),
  ];
  moves.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  let running = 0;
  const entries = moves.map(({ minor, ...m }) => {
    running += minor;
    return { ...m, amount: formatMoney(minor), balance: formatMoney(running) };
  });
  return {
    saleId: row.id,
    invoiceNumber: row.invoice_number,
    currency: row.currency,
    customerName: row.customer_name,
    status: row.status as SaleStatus,
    total: formatMoney(row.total_minor),
    credited: formatMoney(row.credited_minor),
    paid: formatMoney(row.paid_minor),
    balance: formatMoney(balanceMinor(row)),
    entries,
  };
}
