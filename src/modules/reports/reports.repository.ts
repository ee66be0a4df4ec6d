import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { TotalsSpan } from './periods.ts';

/**
 * The reports' reads: sums of the figures each document stored when it was issued (its lines
 * per tax rate, which add up to its printed tax summary), never a new pricing. Sales and VAT sum
 * the running totals the issuing transaction keeps per day (migration 0020); the book and the
 * archive list documents, and payments and receivables read their own rows. Every query starts
 * with the company and a range of days or of the issue (or payment) time, one index range
 * whatever else the tables hold.
 */

/**
 * Which bucket an instant or a day falls in, given the buckets' boundaries in order (b0 < b1 < … < bn):
 * one CASE the two engines evaluate alike (ISO instants compare as text on SQLite and as
 * timestamps on PostgreSQL, YYYY-MM-DD days as text on both), so the grouping needs no engine's
 * date functions or time zones.
 */
function bucketOf(column: string, bounds: readonly string[]): RawBuilder<number> {
  // Every boundary after the first gets its WHEN (the last one too), so a single bucket is still a valid CASE.
  const whens = bounds.slice(1).map((b, i) => sql`when ${sql.ref(column)} < ${b} then ${sql.lit(i)} `);
  return sql<number>`case ${sql.join(whens, sql``)}else ${sql.lit(bounds.length - 2)} end`;
}

const n = (v: unknown) => Number(v ?? 0);

export interface SalesSumRow {
  bucket: number;
  locationId: string;
  operatorId: string | null;
  operatorName: string | null;
  kind: string;
  count: number;
  net: number;
  tax: number;
  total: number;
}

export interface VatSumRow {
  bucket: number;
  kind: string;
  rateBp: number;
  base: number;
  tax: number;
  gross: number;
}

export interface PaymentSumRow {
  bucket: number;
  method: string;
  userId: string | null;
  count: number;
  amount: number;
}

export interface BookRow {
  id: string;
  kind: string;
  number: string;
  invoiceNumber: string | null;
  issuedAt: string;
  customerName: string;
  customerTaxId: string | null;
  /** As the sale stored it: JSON `{street, postalCode, city, country}`, or null. */
  customerAddress: string | null;
  correctsSaleId: string | null;
  rateBp: number;
  base: number;
  tax: number;
  gross: number;
}

export interface OpenInvoiceRow {
  id: string;
  number: string;
  invoiceNumber: string | null;
  customerId: string;
  customerName: string;
  customerTaxId: string | null;
  issuedAt: string;
  dueDate: string | null;
  total: number;
  credited: number;
  paid: number;
}

export function createReportsRepository(db: Executor) {
  return {
    /**
     * Live documents issued on days [days[0], days[n]) (the company's dates, the buckets' bounds)
     * per bucket, location, operator and kind, from the running totals' rows of `spans` (which
     * cover those days once): at most a row per day or month and combination, however many
     * documents they hold.
     */
    async salesSums(
      companyId: string,
      days: readonly string[],
      spans: readonly TotalsSpan[],
      locationId?: string,
    ): Promise<SalesSumRow[]> {
      const rows = await db
        .selectFrom('sale_totals')
        .select([
          bucketOf('day', days).as('bucket'),
          'location_id',
          'operator_id',
          sql<string | null>`max(operator_name)`.as('operator_name'),
          'kind',
          sql<number>`sum(documents)`.as('count'),
          sql<number>`sum(net_minor)`.as('net'),
          sql<number>`sum(tax_minor)`.as('tax'),
          sql<number>`sum(total_minor)`.as('total'),
        ])
        .where('company_id', '=', companyId)
        .where('mode', '=', 'live')
        .where((eb) =>
          eb.or(spans.map((x) => eb.and([eb('grain', '=', x.grain), eb('day', '>=', x.from), eb('day', '<', x.to)]))),
        )
        .$if(locationId !== undefined, (q) => q.where('location_id', '=', locationId!))
        .groupBy([sql.ref('bucket'), 'location_id', 'operator_id', 'kind'])
        .execute();
      return rows.map((r) => ({
        bucket: n(r.bucket),
        locationId: r.location_id,
        operatorId: r.operator_id === '' ? null : r.operator_id,
        operatorName: r.operator_name,
        kind: r.kind,
        count: n(r.count),
        net: n(r.net),
        tax: n(r.tax),
        total: n(r.total),
      }));
    },

    /** Live documents' tax rows on days [days[0], days[n]) summed per bucket, kind and rate, from the running totals' `spans`. */
    async vatSums(
      companyId: string,
      days: readonly string[],
      spans: readonly TotalsSpan[],
      locationId?: string,
    ): Promise<VatSumRow[]> {
      const rows = await db
        .selectFrom('sale_totals')
        .select([
          bucketOf('day', days).as('bucket'),
          'kind',
          'tax_rate_bp',
          sql<number>`sum(net_minor)`.as('base'),
          sql<number>`sum(tax_minor)`.as('tax'),
          sql<number>`sum(total_minor)`.as('gross'),
        ])
        .where('company_id', '=', companyId)
        .where('mode', '=', 'live')
        .where((eb) =>
          eb.or(spans.map((x) => eb.and([eb('grain', '=', x.grain), eb('day', '>=', x.from), eb('day', '<', x.to)]))),
        )
        .$if(locationId !== undefined, (q) => q.where('location_id', '=', locationId!))
        .groupBy([sql.ref('bucket'), 'kind', 'tax_rate_bp'])
        .execute();
      return rows.map((r) => ({
        bucket: n(r.bucket),
        kind: r.kind,
        rateBp: n(r.tax_rate_bp),
        base: n(r.base),
        tax: n(r.tax),
        gross: n(r.gross),
      }));
    },

    /** The book of issued invoices: one row per document and tax rate, in order of issue. */
    async book(companyId: string, start: string, end: string, locationId?: string): Promise<BookRow[]> {
      const rows = await db
        .selectFrom('sales as s')
        .innerJoin('sale_lines as l', (j) =>
          j.onRef('l.document_id', '=', 's.id').onRef('l.company_id', '=', 's.company_id'),
        )
        .select([
          's.id',
          's.kind',
          's.number',
          's.invoice_number',
          's.issued_at',
          's.customer_name',
          's.customer_tax_id',
          's.customer_address',
          's.corrects_sale_id',
          'l.tax_rate_bp',
          sql<number>`sum(l.net_minor)`.as('base'),
          sql<number>`sum(l.tax_minor)`.as('tax'),
          sql<number>`sum(l.total_minor)`.as('gross'),
        ])
        .where('s.company_id', '=', companyId)
        .where('s.mode', '=', 'live')
        .where('s.issued_at', '>=', start)
        .where('s.issued_at', '<', end)
        .$if(locationId !== undefined, (q) => q.where('s.location_id', '=', locationId!))
        .groupBy([
          's.id',
          's.kind',
          's.number',
          's.invoice_number',
          's.issued_at',
          's.customer_name',
          's.customer_tax_id',
          's.customer_address',
          's.corrects_sale_id',
          'l.tax_rate_bp',
        ])
        .orderBy('s.issued_at')
        .orderBy('s.id')
        .orderBy('l.tax_rate_bp', 'desc')
        .execute();
      return rows.map((r) => ({
        id: r.id,
        kind: r.kind,
        number: r.number,
        invoiceNumber: r.invoice_number,
        issuedAt: r.issued_at!,
        customerName: r.customer_name,
        customerTaxId: r.customer_tax_id,
        customerAddress: r.customer_address,
        correctsSaleId: r.corrects_sale_id,
        rateBp: n(r.tax_rate_bp),
        base: n(r.base),
        tax: n(r.tax),
        gross: n(r.gross),
      }));
    },

    /** Payments recorded in the range (voided later or not), per bucket, method and who recorded them. */
    async paymentsReceived(
      companyId: string,
      bounds: readonly string[],
      locationId?: string,
    ): Promise<PaymentSumRow[]> {
      return paymentSums(db, companyId, bounds, 'created_at', 'recorded_by', locationId);
    },

    /** Payments voided in the range, per bucket (of the void), method and who voided them. */
    async paymentsVoided(companyId: string, bounds: readonly string[], locationId?: string): Promise<PaymentSumRow[]> {
      return paymentSums(db, companyId, bounds, 'voided_at', 'voided_by', locationId);
    },

    /**
     * What left the takings in the range, per bucket (of the void or the refund): payments voided
     * and money given back with cancellations and credit notes (live data). One statement: Today's
     * page reads it with its other sums.
     */
    async takenBack(companyId: string, bounds: readonly string[]): Promise<Array<{ bucket: number; amount: number }>> {
      const voided = db
        .selectFrom('sale_payments as p')
        .innerJoin('sales as s', (j) => j.onRef('s.id', '=', 'p.sale_id').onRef('s.company_id', '=', 'p.company_id'))
        .select([sql<string>`p.voided_at`.as('at'), 'p.amount_minor as amount'])
        .where('p.company_id', '=', companyId)
        .where('s.mode', '=', 'live')
        .where('p.voided_at', '>=', bounds[0]!)
        .where('p.voided_at', '<', bounds.at(-1)!);
      const refunded = db
        .selectFrom('refunds')
        .select([sql<string>`created_at`.as('at'), 'amount_minor as amount'])
        .where('company_id', '=', companyId)
        .where('mode', '=', 'live')
        .where('created_at', '>=', bounds[0]!)
        .where('created_at', '<', bounds.at(-1)!);
      const rows = await db
        .selectFrom(voided.unionAll(refunded).as('back'))
        .select([bucketOf('back.at', bounds).as('bucket'), sql<number>`sum(back.amount)`.as('amount')])
        .groupBy(sql.ref('bucket'))
        .execute();
      return rows.map((r) => ({ bucket: n(r.bucket), amount: n(r.amount) }));
    },

    /** Invoices with something still due, on the tenant's status index. */
    async openInvoices(companyId: string, issuedBefore: string, locationId?: string): Promise<OpenInvoiceRow[]> {
      const rows = await db
        .selectFrom('sales')
        .select([
          'id',
          'number',
          'invoice_number',
          'customer_id',
          'customer_name',
          'customer_tax_id',
          'issued_at',
          'due_date',
          'total_minor',
          'credited_minor',
          'paid_minor',
        ])
        .where('company_id', '=', companyId)
        .where('mode', '=', 'live')
        .where('status', 'in', ['unpaid', 'partially_paid'])
        .where('kind', '=', 'invoice')
        .where('issued_at', '<', issuedBefore)
        .$if(locationId !== undefined, (q) => q.where('location_id', '=', locationId!))
        .orderBy('customer_name')
        .orderBy('issued_at')
        .orderBy('id')
        .execute();
      return rows.map((r) => ({
        id: r.id,
        number: r.number,
        invoiceNumber: r.invoice_number,
        customerId: r.customer_id,
        customerName: r.customer_name,
        customerTaxId: r.customer_tax_id,
        issuedAt: r.issued_at!,
        dueDate: r.due_date,
        total: n(r.total_minor),
        credited: n(r.credited_minor),
        paid: n(r.paid_minor),
      }));
    },

    /** The documents issued in [start, end), in order of issue, a page after `after` (keyset on issue time and id). */
    async documentsIssued(
      companyId: string,
      start: string,
      end: string,
      after: { issuedAt: string; id: string } | null,
      limit: number,
    ): Promise<Array<{ id: string; issuedAt: string; number: string; invoiceNumber: string | null; kind: string }>> {
      const rows = await db
        .selectFrom('sales')
        .select(['id', 'issued_at', 'number', 'invoice_number', 'kind'])
        .where('company_id', '=', companyId)
        .where('mode', '=', 'live')
        .where('issued_at', '>=', start)
        .where('issued_at', '<', end)
        .$if(after !== null, (q) =>
          q.where((eb) =>
            eb.or([
              eb('issued_at', '>', after!.issuedAt),
              eb.and([eb('issued_at', '=', after!.issuedAt), eb('id', '>', after!.id)]),
            ]),
          ),
        )
        .orderBy('issued_at')
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map((r) => ({
        id: r.id,
        issuedAt: r.issued_at!,
        number: r.number,
        invoiceNumber: r.invoice_number,
        kind: r.kind,
      }));
    },

    async countIssued(companyId: string, start: string, end: string): Promise<number> {
      const row = await db
        .selectFrom('sales')
        .select(sql<number>`count(*)`.as('count'))
        .where('company_id', '=', companyId)
        .where('mode', '=', 'live')
        .where('issued_at', '>=', start)
        .where('issued_at', '<', end)
        .executeTakeFirstOrThrow();
      return n(row.count);
    },

    /** How many live, unexpired quotations in one of `statuses` there are and what they are worth (Today), in one statement. */
    async quotationsValue(
      companyId: string,
      statuses: readonly string[],
      now: string,
    ): Promise<{ count: number; total: number }> {
      const row = await db
        .selectFrom('quotations')
        .select([sql<number>`count(*)`.as('count'), sql<number>`coalesce(sum(total_minor), 0)`.as('total')])
        .where('company_id', '=', companyId)
        .where('status', 'in', [...statuses])
        .where('mode', '=', 'live')
        .where('expires_at', '>', now)
        .executeTakeFirstOrThrow();
      return { count: n(row.count), total: n(row.total) };
    },

    /** The team's names, for the operator columns (ids are what documents keep). */
    async userNames(companyId: string): Promise<Map<string, string>> {
      const rows = await db.selectFrom('users').select(['id', 'name']).where('company_id', '=', companyId).execute();
      return new Map(rows.map((r) => [r.id, r.name]));
    },

    async locations(companyId: string): Promise<Array<{ id: string; code: string; name: string }>> {
      return db
        .selectFrom('locations')
        .select(['id', 'code', 'name'])
        .where('company_id', '=', companyId)
        .orderBy('code')
        .execute();
    },
  };
}

async function paymentSums(
  db: Executor,
  companyId: string,
  bounds: readonly string[],
  at: 'created_at' | 'voided_at',
  by: 'recorded_by' | 'voided_by',
  locationId: string | undefined,
): Promise<PaymentSumRow[]> {
  const rows = await db
    .selectFrom('sale_payments as p')
    .select([
      bucketOf(`p.${at}`, bounds).as('bucket'),
      'p.method',
      `p.${by} as user_id`,
      sql<number>`count(*)`.as('count'),
      sql<number>`sum(p.amount_minor)`.as('amount'),
    ])
    .where('p.company_id', '=', companyId)
    .where(`p.${at}`, '>=', bounds[0]!)
    .where(`p.${at}`, '<', bounds.at(-1)!)
    // Payments on test sales are test data: never in a report (issue 37).
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('sales as s')
          .select('s.id')
          .where('s.company_id', '=', companyId)
          .whereRef('s.id', '=', 'p.sale_id')
          .where('s.mode', '=', 'live')
          .$if(locationId !== undefined, (q) => q.where('s.location_id', '=', locationId!)),
      ),
    )
    .groupBy([sql.ref('bucket'), 'p.method', `p.${by}`])
    .execute();
  return rows.map((r) => ({
    bucket: n(r.bucket),
    method: r.method,
    userId: (r as { user_id: string | null }).user_id,
    count: n(r.count),
    amount: n(r.amount),
  }));
}

export type ReportsRepository = ReturnType<typeof createReportsRepository>;
