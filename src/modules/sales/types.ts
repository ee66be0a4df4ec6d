import type { RefundsTable, SaleLinesTable, SalePaymentsTable, SalesTable } from '../../db/schema.ts';
import type { SaleTotalsRepository } from './sale-totals.repository.ts';
import type { SalesRepository } from './sales.repository.ts';

export type SaleRow = SalesTable;
export type PaymentRow = SalePaymentsTable;
export type RefundRow = RefundsTable;
export type SaleLineRow = SaleLinesTable;

export interface SaleFilter {
  /** Live (the default) or test data: never both. */
  mode?: 'live' | 'test';
  status?: string;
  locationId?: string;
  customerId?: string;
  /** created_at ≥ from (ISO UTC). */
  from?: string;
  /** created_at < to (ISO UTC). */
  to?: string;
  /** The start of the number or legal number, a part of the customer's name, or of their tax id (OIB). */
  q?: string;
  /** The gross total exactly, in minor units. */
  totalMinor?: number;
}

/**
 * The port invoicing writes the sales tables through, in its issuing unit of work: a sale, its
 * lines, payments and refunds, what it still owes, and what its e-invoice needs of it.
 */
export type SaleRecords = Pick<
  SalesRepository,
  | 'find'
  | 'insert'
  | 'insertSaleLines'
  | 'listSaleLines'
  | 'insertPayment'
  | 'insertRefund'
  | 'listPayments'
  | 'listCorrections'
  | 'addPaid'
  | 'subtractPaid'
  | 'addCredited'
  | 'markCancelled'
  | 'recomputeStatusOf'
  | 'eInvoiceBuyer'
  | 'catalogCodes'
>;

/** The running totals issuing adds to, in the same unit of work (reports read them). */
export type SaleTotalsLedger = Pick<SaleTotalsRepository, 'add'>;
