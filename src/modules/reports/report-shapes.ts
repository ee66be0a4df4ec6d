import type { Bucket, GroupBy } from './periods.ts';

/** The reports' shapes (what the service returns and the tables read) and their small sums. */

export interface ReportQuery {
  /** YYYY-MM-DD in the company's time zone. */
  from: string;
  /** YYYY-MM-DD, inclusive. */
  to: string;
  groupBy?: GroupBy;
  locationId?: string;
}

export interface Sums {
  count: number;
  net: number;
  tax: number;
  gross: number;
}

export const zero = (): Sums => ({ count: 0, net: 0, tax: 0, gross: 0 });
export function add(into: Sums, row: { count?: number; net: number; tax: number; gross: number }): void {
  into.count += row.count ?? 0;
  into.net += row.net;
  into.tax += row.tax;
  into.gross += row.gross;
}

export type DocumentKind = 'invoice' | 'cancellation' | 'credit_note';
export const KINDS: readonly DocumentKind[] = ['invoice', 'cancellation', 'credit_note'];
export type ByKind = Record<DocumentKind, Sums>;
export const byKind = (): ByKind => ({ invoice: zero(), cancellation: zero(), credit_note: zero() });
export const kindOf = (kind: string): DocumentKind =>
  KINDS.includes(kind as DocumentKind) ? (kind as DocumentKind) : 'invoice';

export interface PeriodHead {
  key: string;
  from: string;
  to: string;
}
export const head = (b: Bucket): PeriodHead => ({ key: b.key, from: b.from, to: b.to });

export interface SalesReport {
  from: string;
  to: string;
  groupBy: GroupBy;
  timeZone: string;
  currency: string;
  periods: Array<PeriodHead & { kinds: ByKind; total: Sums }>;
  /** One row per period, location and operator: the grain of the export. */
  rows: Array<{
    period: string;
    locationId: string;
    operatorId: string | null;
    operator: string | null;
    kinds: ByKind;
    total: Sums;
  }>;
  locations: Array<{ locationId: string; code: string; name: string; total: Sums }>;
  operators: Array<{ operatorId: string | null; name: string | null; total: Sums }>;
  kinds: ByKind;
  total: Sums;
  previous: { from: string; to: string; kinds: ByKind; total: Sums };
}

export interface RateSums {
  rateBp: number;
  base: number;
  tax: number;
  gross: number;
}

export interface VatReport {
  from: string;
  to: string;
  groupBy: GroupBy;
  timeZone: string;
  currency: string;
  periods: Array<PeriodHead & { rates: RateSums[]; total: RateSums & { rateBp: -1 } }>;
  /** The whole range per rate, netted, with what invoices, cancellations and credit notes each brought. */
  rates: Array<RateSums & { kinds: Record<DocumentKind, RateSums> }>;
  total: { base: number; tax: number; gross: number };
}

export interface BookEntry {
  seq: number;
  saleId: string;
  date: string;
  kind: DocumentKind;
  number: string;
  invoiceNumber: string | null;
  customerName: string;
  customerTaxId: string | null;
  /** The buyer's address as the document stated it, one line ("Vlaška 12, 10000 Zagreb, HR"). */
  customerAddress: string | null;
  correctsSaleId: string | null;
  rates: RateSums[];
  /** What the 0 % lines came to: exempt or not taxable, the book's own column. */
  exempt: number;
  base: number;
  tax: number;
  gross: number;
}

export interface PaymentsReport {
  from: string;
  to: string;
  groupBy: GroupBy;
  timeZone: string;
  currency: string;
  /** One row per period, method and person (who recorded, or who voided). */
  rows: Array<{
    period: string;
    method: string;
    userId: string | null;
    user: string | null;
    count: number;
    received: number;
    voided: number;
    net: number;
  }>;
  periods: Array<
    PeriodHead & {
      received: number;
      voided: number;
      net: number;
      methods: Array<{ method: string; received: number; voided: number; net: number }>;
    }
  >;
  methods: Array<{ method: string; received: number; voided: number; net: number }>;
  total: { count: number; received: number; voided: number; net: number };
}

const AGE_BUCKETS = ['0-30', '31-60', '61-90', '90+'] as const;
export type AgeBucket = (typeof AGE_BUCKETS)[number];
export type Aged = Record<AgeBucket, number>;
export const aged = (): Aged => ({ '0-30': 0, '31-60': 0, '61-90': 0, '90+': 0 });

export function ageBucket(daysOverdue: number): AgeBucket {
  if (daysOverdue <= 30) return '0-30';
  if (daysOverdue <= 60) return '31-60';
  if (daysOverdue <= 90) return '61-90';
  return '90+';
}

export interface ReceivablesReport {
  asOf: string;
  timeZone: string;
  currency: string;
  invoices: Array<{
    saleId: string;
    number: string;
    invoiceNumber: string | null;
    customerId: string;
    customerName: string;
    customerTaxId: string | null;
    issuedOn: string;
    dueDate: string;
    daysOverdue: number;
    age: AgeBucket;
    total: number;
    balance: number;
  }>;
  customers: Array<{ customerId: string; name: string; taxId: string | null; ages: Aged; balance: number }>;
  ages: Aged;
  total: number;
}

export interface TodayTrend {
  /** The last 30 days, oldest first: payments received less voided, per day. */
  days: Array<{ date: string; takings: number }>;
  openQuotations: { count: number; total: number };
  unpaid: { count: number; total: number };
  currency: string;
}
