import { AppError, addFieldError, fieldErrors } from '../../lib/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Store } from '../../db/store.ts';
import { said, translator } from '../i18n/index.ts';
import { OPEN_QUOTATION_STATUSES } from '../quotations/index.ts';
import { reportTable, type ReportName } from './report-tables.ts';
import type { ExportLocale, Table } from './table.ts';
import {
  addDays,
  buckets,
  daysBetween,
  localDate,
  previousPeriod,
  startOfDay,
  totalsSpans,
  type Bucket,
  type GroupBy,
} from './periods.ts';
import type { ReportsRepository } from './reports.repository.ts';
import {
  add,
  aged,
  ageBucket,
  byKind,
  head,
  kindOf,
  zero,
  type BookEntry,
  type DocumentKind,
  type PaymentsReport,
  type RateSums,
  type ReceivablesReport,
  type ReportQuery,
  type SalesReport,
  type Sums,
  type TodayTrend,
  type VatReport,
} from './report-shapes.ts';

/**
 * The reports: what was sold, taxed and paid in a period, and what is still owed. Amounts are
 * cents, summed from what each document stored at issue (so a report equals the documents'
 * printed figures to the cent), dates are the company's, `to` inclusive.
 */

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function createReportsService(deps: {
  store: Store<{ reports: ReportsRepository; companies: CompaniesSlice }>;
  clock: Clock;
}) {
  const { store, clock } = deps;
  const repo = () => store.repos.reports;

  async function company(companyId: string) {
    const row = await store.repos.companies.findCompany(companyId);
    if (!row) throw AppError.notFound('Company');
    return { timeZone: row.timezone, currency: row.currency, country: row.country, locale: row.locale };
  }

  /** The range's buckets, or a refusal naming the field. */
  function plan(q: ReportQuery, timeZone: string, groupBy: GroupBy): Bucket[] {
    const details = fieldErrors();
    if (!DATE.test(q.from) || Number.isNaN(Date.parse(q.from)))
      addFieldError(details, 'from', said('error.invalidForm'));
    if (!DATE.test(q.to) || Number.isNaN(Date.parse(q.to))) addFieldError(details, 'to', said('error.invalidForm'));
    else if (q.to < q.from) addFieldError(details, 'to', said('error.report.range'));
    if (Object.keys(details).length) throw AppError.invalid(details);
    try {
      return buckets(q.from, q.to, groupBy, timeZone);
    } catch {
      throw AppError.invalid({ groupBy: [said('error.report.tooLong', { max: 400 })] });
    }
  }
  const bounds = (bs: readonly Bucket[]) => [...bs.map((b) => b.start), bs.at(-1)!.end];
  /** The buckets' first days and the day after the last: what the running totals are keyed by. */
  const days = (bs: readonly Pick<Bucket, 'from' | 'to'>[]) => [...bs.map((b) => b.from), addDays(bs.at(-1)!.to, 1)];

  async function location(companyId: string, locationId: string | undefined) {
    if (locationId === undefined) return;
    const all = await repo().locations(companyId);
    if (!all.some((l) => l.id === locationId)) throw AppError.invalid({ locationId: [said('error.invalidForm')] });
  }

  async function salesTotals(
    companyId: string,
    bs: ReadonlyArray<Pick<Bucket, 'from' | 'to'>>,
    locationId: string | undefined,
  ) {
    const d = days(bs);
    const rows = await repo().salesSums(companyId, d, totalsSpans(d), locationId);
    const kinds = byKind();
    const total = zero();
    for (const r of rows) {
      const s = { count: r.count, net: r.net, tax: r.tax, gross: r.total };
      add(kinds[kindOf(r.kind)], s);
      add(total, s);
    }
    return { rows, kinds, total };
  }

  const service = {
    /** What an export of the company's reports is written with: its language and country. */
    company,

    /**
     * A report as the table its CSV, XLSX and hub page show, headed in `locale`: locations by
     * code and name, payment methods as the print names them.
     */
    async table(companyId: string, name: ReportName, q: ReportQuery, locale: ExportLocale): Promise<Table> {
      const tr = translator(locale);
      switch (name) {
        case 'sales': {
          const [report, locations] = await Promise.all([service.sales(companyId, q), repo().locations(companyId)]);
          return reportTable(
            { name, report, locations: new Map(locations.map((l) => [l.id, `${l.code} ${l.name}`])) },
            locale,
          );
        }
        case 'vat': {
          const [report, co] = await Promise.all([service.vat(companyId, q), company(companyId)]);
          return reportTable({ name, report, country: co.country }, locale);
        }
        case 'book': {
          const [report, co] = await Promise.all([service.book(companyId, q), company(companyId)]);
          return reportTable({ name, report, country: co.country }, locale);
        }
        case 'payments':
          return reportTable(
            {
              name,
              report: await service.payments(companyId, q),
              methodLabel: (m) => tr(`payment.method.${m}` as 'payment.method.cash'),
            },
            locale,
          );
        case 'receivables':
          return reportTable(
            {
              name,
              report: await service.receivables(companyId, { asOf: q.to || undefined, locationId: q.locationId }),
            },
            locale,
          );
      }
    },

    async sales(companyId: string, q: ReportQuery): Promise<SalesReport> {
      const co = await company(companyId);
      const groupBy = q.groupBy ?? 'month';
      const bs = plan(q, co.timeZone, groupBy);
      await location(companyId, q.locationId);
      const prev = previousPeriod(q.from, q.to);
      const [current, before, locations, names] = await Promise.all([
        salesTotals(companyId, bs, q.locationId),
        salesTotals(companyId, [prev], q.locationId),
        repo().locations(companyId),
        repo().userNames(companyId),
      ]);
      const periods = bs.map((b) => ({ ...head(b), kinds: byKind(), total: zero() }));
      const rowMap = new Map<string, SalesReport['rows'][number]>();
      const locTotals = new Map<string, Sums>();
      const opTotals = new Map<string, { operatorId: string | null; name: string | null; total: Sums }>();
      for (const r of current.rows) {
        const s = { count: r.count, net: r.net, tax: r.tax, gross: r.total };
        const p = periods[r.bucket]!;
        add(p.kinds[kindOf(r.kind)], s);
        add(p.total, s);
        const operator = r.operatorId ? (names.get(r.operatorId) ?? r.operatorName) : r.operatorName;
        const key = `${r.bucket}|${r.locationId}|${r.operatorId ?? ''}`;
        let row = rowMap.get(key);
        if (!row) {
          row = {
            period: p.key,
            locationId: r.locationId,
            operatorId: r.operatorId,
            operator,
            kinds: byKind(),
            total: zero(),
          };
          rowMap.set(key, row);
        }
        add(row.kinds[kindOf(r.kind)], s);
        add(row.total, s);
        const lt = locTotals.get(r.locationId) ?? zero();
        add(lt, s);
        locTotals.set(r.locationId, lt);
        const ok = r.operatorId ?? '';
        const ot = opTotals.get(ok) ?? { operatorId: r.operatorId, name: operator, total: zero() };
        add(ot.total, s);
        opTotals.set(ok, ot);
      }
      const locIndex = new Map(locations.map((l, i) => [l.id, i]));
      return {
        from: q.from,
        to: q.to,
        groupBy,
        timeZone: co.timeZone,
        currency: co.currency,
        periods,
        rows: [...rowMap.values()].sort(
          (a, b) =>
            a.period.localeCompare(b.period) ||
            (locIndex.get(a.locationId) ?? 0) - (locIndex.get(b.locationId) ?? 0) ||
            (a.operator ?? '').localeCompare(b.operator ?? ''),
        ),
        locations: locations
          .filter((l) => locTotals.has(l.id))
          .map((l) => ({ locationId: l.id, code: l.code, name: l.name, total: locTotals.get(l.id)! })),
        operators: [...opTotals.values()].sort((a, b) => (a.name ?? '').localeCompare(b.name ?? '')),
        kinds: current.kinds,
        total: current.total,
        previous: { from: prev.from, to: prev.to, kinds: before.kinds, total: before.total },
      };
    },

    async vat(companyId: string, q: ReportQuery): Promise<VatReport> {
      const co = await company(companyId);
      const groupBy = q.groupBy ?? 'month';
      const bs = plan(q, co.timeZone, groupBy);
      await location(companyId, q.locationId);
      const d = days(bs);
      const rows = await repo().vatSums(companyId, d, totalsSpans(d), q.locationId);
      const periods = bs.map((b) => ({
        ...head(b),
        rateMap: new Map<number, RateSums>(),
        total: { rateBp: -1 as const, base: 0, tax: 0, gross: 0 },
      }));
      const rates = new Map<number, RateSums & { kinds: Record<DocumentKind, RateSums> }>();
      const total = { base: 0, tax: 0, gross: 0 };
      for (const r of rows) {
        const p = periods[r.bucket]!;
        const pr = p.rateMap.get(r.rateBp) ?? { rateBp: r.rateBp, base: 0, tax: 0, gross: 0 };
        addRate(pr, r);
        p.rateMap.set(r.rateBp, pr);
        addRate(p.total, r);
        const all = rates.get(r.rateBp) ?? {
          rateBp: r.rateBp,
          base: 0,
          tax: 0,
          gross: 0,
          kinds: { invoice: rateZero(r.rateBp), cancellation: rateZero(r.rateBp), credit_note: rateZero(r.rateBp) },
        };
        addRate(all, r);
        addRate(all.kinds[kindOf(r.kind)], r);
        rates.set(r.rateBp, all);
        addRate(total, r);
      }
      return {
        from: q.from,
        to: q.to,
        groupBy,
        timeZone: co.timeZone,
        currency: co.currency,
        periods: periods.map(({ rateMap, ...p }) => ({
          ...p,
          rates: [...rateMap.values()].sort((a, b) => b.rateBp - a.rateBp),
        })),
        rates: [...rates.values()].sort((a, b) => b.rateBp - a.rateBp),
        total,
      };
    },

    /** The book of issued invoices for [from, to]: every document in order of issue, per rate. */
    async book(
      companyId: string,
      q: ReportQuery,
    ): Promise<{ from: string; to: string; timeZone: string; currency: string; entries: BookEntry[] }> {
      const co = await company(companyId);
      plan(q, co.timeZone, 'month');
      await location(companyId, q.locationId);
      const rows = await repo().book(
        companyId,
        bsStart(q.from, co.timeZone),
        bsStart(addDays(q.to, 1), co.timeZone),
        q.locationId,
      );
      const entries: BookEntry[] = [];
      for (const r of rows) {
        let e = entries.at(-1);
        if (!e || e.saleId !== r.id) {
          e = {
            seq: entries.length + 1,
            saleId: r.id,
            date: localDate(r.issuedAt, co.timeZone),
            kind: kindOf(r.kind),
            number: r.number,
            invoiceNumber: r.invoiceNumber,
            customerName: r.customerName,
            customerTaxId: r.customerTaxId,
            customerAddress: addressLine(r.customerAddress),
            correctsSaleId: r.correctsSaleId,
            rates: [],
            exempt: 0,
            base: 0,
            tax: 0,
            gross: 0,
          };
          entries.push(e);
        }
        e.rates.push({ rateBp: r.rateBp, base: r.base, tax: r.tax, gross: r.gross });
        if (r.rateBp === 0) e.exempt += r.base;
        addRate(e, r);
      }
      return { from: q.from, to: q.to, timeZone: co.timeZone, currency: co.currency, entries };
    },

    async payments(companyId: string, q: ReportQuery): Promise<PaymentsReport> {
      const co = await company(companyId);
      const groupBy = q.groupBy ?? 'day';
      const bs = plan(q, co.timeZone, groupBy);
      await location(companyId, q.locationId);
      const b = bounds(bs);
      const [received, voided, names] = await Promise.all([
        repo().paymentsReceived(companyId, b, q.locationId),
        repo().paymentsVoided(companyId, b, q.locationId),
        repo().userNames(companyId),
      ]);
      const rowMap = new Map<string, PaymentsReport['rows'][number]>();
      const row = (bucket: number, method: string, userId: string | null) => {
        const key = `${bucket}|${method}|${userId ?? ''}`;
        let r = rowMap.get(key);
        if (!r) {
          r = {
            period: bs[bucket]!.key,
            method,
            userId,
            user: userId ? (names.get(userId) ?? null) : null,
            count: 0,
            received: 0,
            voided: 0,
            net: 0,
          };
          rowMap.set(key, r);
        }
        return r;
      };
      for (const r of received) {
        const x = row(r.bucket, r.method, r.userId);
        x.count += r.count;
        x.received += r.amount;
        x.net += r.amount;
      }
      for (const r of voided) {
        const x = row(r.bucket, r.method, r.userId);
        x.voided += r.amount;
        x.net -= r.amount;
      }
      const rows = [...rowMap.values()].sort(
        (a, b) =>
          a.period.localeCompare(b.period) ||
          a.method.localeCompare(b.method) ||
          (a.user ?? '').localeCompare(b.user ?? ''),
      );
      const periods = bs.map((bk) => ({
        ...head(bk),
        received: 0,
        voided: 0,
        net: 0,
        methods: [] as Array<{ method: string; received: number; voided: number; net: number }>,
      }));
      const methods = new Map<string, { method: string; received: number; voided: number; net: number }>();
      const total = { count: 0, received: 0, voided: 0, net: 0 };
      for (const r of rows) {
        const p = periods.find((x) => x.key === r.period)!;
        p.received += r.received;
        p.voided += r.voided;
        p.net += r.net;
        let pm = p.methods.find((m) => m.method === r.method);
        if (!pm) {
          pm = { method: r.method, received: 0, voided: 0, net: 0 };
          p.methods.push(pm);
        }
        pm.received += r.received;
        pm.voided += r.voided;
        pm.net += r.net;
        const m = methods.get(r.method) ?? { method: r.method, received: 0, voided: 0, net: 0 };
        m.received += r.received;
        m.voided += r.voided;
        m.net += r.net;
        methods.set(r.method, m);
        total.count += r.count;
        total.received += r.received;
        total.voided += r.voided;
        total.net += r.net;
      }
      return {
        from: q.from,
        to: q.to,
        groupBy,
        timeZone: co.timeZone,
        currency: co.currency,
        rows,
        periods,
        methods: [...methods.values()],
        total,
      };
    },

    /**
     * Invoices with a balance, aged by days past their due date on `asOf` (the company's today
     * when not given); an invoice not yet due is 0 days overdue. Balances are as they stand now.
     */
    async receivables(companyId: string, q: { asOf?: string; locationId?: string }): Promise<ReceivablesReport> {
      const co = await company(companyId);
      const asOf = q.asOf ?? localDate(clock.now(), co.timeZone);
      if (!DATE.test(asOf) || Number.isNaN(Date.parse(asOf)))
        throw AppError.invalid({ to: [said('error.invalidForm')] });
      await location(companyId, q.locationId);
      const rows = await repo().openInvoices(companyId, bsStart(addDays(asOf, 1), co.timeZone), q.locationId);
      const invoices: ReceivablesReport['invoices'] = [];
      const customers = new Map<string, ReceivablesReport['customers'][number]>();
      const ages = aged();
      let total = 0;
      for (const r of rows) {
        const balance = r.total - r.credited - r.paid;
        if (balance <= 0) continue;
        const issuedOn = localDate(r.issuedAt, co.timeZone);
        const dueDate = r.dueDate ?? issuedOn;
        const daysOverdue = Math.max(0, daysBetween(dueDate, asOf));
        const age = ageBucket(daysOverdue);
        invoices.push({
          saleId: r.id,
          number: r.number,
          invoiceNumber: r.invoiceNumber,
          customerId: r.customerId,
          customerName: r.customerName,
          customerTaxId: r.customerTaxId,
          issuedOn,
          dueDate,
          daysOverdue,
          age,
          total: r.total - r.credited,
          balance,
        });
        const c = customers.get(r.customerId) ?? {
          customerId: r.customerId,
          name: r.customerName,
          taxId: r.customerTaxId,
          ages: aged(),
          balance: 0,
        };
        c.ages[age] += balance;
        c.balance += balance;
        customers.set(r.customerId, c);
        ages[age] += balance;
        total += balance;
      }
      return {
        asOf,
        timeZone: co.timeZone,
        currency: co.currency,
        invoices,
        customers: [...customers.values()],
        ages,
        total,
      };
    },

    /** The documents of [from, to] in order of issue, page by page (the month archive reads them so). */
    async *documentsIssued(companyId: string, from: string, to: string, pageSize = 200) {
      const co = await company(companyId);
      const start = startOfDay(from, co.timeZone);
      const end = startOfDay(addDays(to, 1), co.timeZone);
      let after: { issuedAt: string; id: string } | null = null;
      for (;;) {
        const page = await repo().documentsIssued(companyId, start, end, after, pageSize);
        yield* page;
        if (page.length < pageSize) return;
        const last = page.at(-1)!;
        after = { issuedAt: last.issuedAt, id: last.id };
      }
    },

    async countIssued(companyId: string, from: string, to: string): Promise<number> {
      const co = await company(companyId);
      return repo().countIssued(companyId, startOfDay(from, co.timeZone), startOfDay(addDays(to, 1), co.timeZone));
    },

    /** Today's trend: takings of the last 30 days, open quotations' value, what invoices still owe. */
    /** `known`: the company's zone and currency, when the caller has read them already (Today reads the company once). */
    async today(companyId: string, known?: { timeZone: string; currency: string }): Promise<TodayTrend> {
      const co = known ?? (await company(companyId));
      const to = localDate(clock.now(), co.timeZone);
      const from = addDays(to, -29);
      const bs = buckets(from, to, 'day', co.timeZone);
      const b = bounds(bs);
      const [received, takenBack, quotations, open] = await Promise.all([
        repo().paymentsReceived(companyId, b),
        // Voided payments and refunds (issue 34: a storno's cash given back is no longer taken).
        repo().takenBack(companyId, b),
        // Open: approved, or accepted by the customer and waiting to be converted; an expired one no longer holds its prices.
        repo().quotationsValue(companyId, OPEN_QUOTATION_STATUSES, clock.now().toISOString()),
        repo().openInvoices(companyId, b.at(-1)!),
      ]);
      const days = bs.map((bk) => ({ date: bk.key, takings: 0 }));
      for (const r of received) days[r.bucket]!.takings += r.amount;
      for (const r of takenBack) days[r.bucket]!.takings -= r.amount;
      let unpaid = 0;
      let count = 0;
      for (const r of open) {
        const balance = r.total - r.credited - r.paid;
        if (balance > 0) {
          unpaid += balance;
          count++;
        }
      }
      return { days, openQuotations: quotations, unpaid: { count, total: unpaid }, currency: co.currency };
    },
  };
  return service;
}

/** The slice of the companies repository the reports read: the company's zone and currency. */
export interface CompaniesSlice {
  findCompany(
    companyId: string,
  ): Promise<{ timezone: string; currency: string; country: string | null; locale: string } | undefined>;
}

const bsStart = startOfDay;

function rateZero(rateBp: number): RateSums {
  return { rateBp, base: 0, tax: 0, gross: 0 };
}

function addRate(
  into: { base: number; tax: number; gross: number },
  r: { base: number; tax: number; gross: number },
): void {
  into.base += r.base;
  into.tax += r.tax;
  into.gross += r.gross;
}

export type ReportsService = ReturnType<typeof createReportsService>;

/** A stored address (JSON) as one line for the book: street, postal code and city, country. */
function addressLine(json: string | null): string | null {
  if (!json) return null;
  try {
    const a = JSON.parse(json) as { street?: string; postalCode?: string; city?: string; country?: string };
    const line = [a.street, [a.postalCode, a.city].filter(Boolean).join(' '), a.country].filter(Boolean).join(', ');
    return line || null;
  } catch {
    return null;
  }
}
