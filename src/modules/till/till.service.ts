import { AppError, addFieldError, fieldErrors } from '../../lib/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import { MONEY_SCALE, parseScaled } from '../../lib/money.ts';
import type { Store } from '../../db/store.ts';
import { logoImage, toCompany, type CompanyDirectory } from '../companies/index.ts';
import type { PrintSlot } from '../printing/index.ts';
import { toDayReportPrint } from './day-report-print.ts';
import { said } from '../i18n/index.ts';
import { localDate, type ExportLocale, type Table } from '../reports/index.ts';
import { drawerDaysTable } from './drawer-table.ts';
import { enqueueEvent, type EventOutbox } from '../webhooks/index.ts';
import { buildDayReport, countDenominations, DenominationError, tillOf, type DayReport } from './day-report.ts';
import type { LocationRow } from '../companies/index.ts';
import type { DrawerDayRow, TillRepository } from './till.repository.ts';

export type TillRepos = {
  till: TillRepository;
  companies: Pick<CompanyDirectory, 'findCompany' | 'findLocation' | 'listLocations' | 'findLogo'>;
  webhooks: EventOutbox;
};

export interface CloseInput {
  /** The cash counted, a decimal string; or `denominations`, or both (then they must agree). */
  counted?: string | null;
  /** The count by denomination: {"50.00": 3, "0.20": 4}. */
  denominations?: Readonly<Record<string, number>> | null;
}

/** The drawer's business cases a German till's TSE signs (DSFinV-K Anhang C). */
export type DrawerEntry = {
  /** The drawer's record the signature belongs to: the day (float, difference) or the movement. */
  id: string;
  businessCase: 'Anfangsbestand' | 'Einzahlung' | 'Auszahlung' | 'DifferenzSollIst';
  /** Cash into the drawer, in cents; negative when it leaves. */
  amountMinor: number;
};

/**
 * What signs the drawer's movements where the law asks for it (Germany's TSE, KassenSichV): the
 * signature is asked for before the unit of work (two HTTPS round trips never held in a database
 * transaction) and written in it, with the movement. Null from `sign`: the company signs nothing.
 */
export interface DrawerSigner<R, S> {
  /** Whether the company's drawer is signed at all (a German company with a TSE account). */
  signs(companyId: string): Promise<boolean>;
  sign(companyId: string, locationId: string, entry: DrawerEntry): Promise<S | null>;
  record(repos: R, signed: S): Promise<void>;
}

/** Money a drawer takes: a decimal string, not negative; a 400 on `field` otherwise. */
function amountOf(text: string | null | undefined, field: string, details = fieldErrors()): number | null {
  if (text === undefined || text === null || text === '') {
    addFieldError(details, field, said('error.required'));
    return null;
  }
  try {
    const v = Number(parseScaled(text.trim(), MONEY_SCALE));
    if (v < 0) throw new RangeError('negative');
    return v;
  } catch {
    addFieldError(details, field, said('error.drawer.amountForm'));
    return null;
  }
}

/**
 * The cash drawer of each location: the day opened with a float, cash put in and taken out with
 * a reason, closed with a count. Expected cash is float + cash in − cash out + cash sales − cash
 * refunds of the location while the day was open; closing writes the day report whole, with the
 * difference, and the database keeps a closed day as it was (0027's guards). `drawer.closed`.
 */
export function createTillService<R extends TillRepos = TillRepos, S = never>(deps: {
  store: Store<R>;
  clock: Clock;
  newId: IdGenerator;
  onEventQueued: () => void;
  signer?: DrawerSigner<R, S>;
}) {
  const { store, clock, newId } = deps;

  async function place(companyId: string, locationId: string) {
    const [company, location] = await Promise.all([
      store.repos.companies.findCompany(companyId),
      store.repos.companies.findLocation(companyId, locationId),
    ]);
    if (!company) throw AppError.notFound('Company');
    if (!location) throw AppError.notFound('Location');
    return { company, location };
  }

  const sign = async (companyId: string, locationId: string, entry: DrawerEntry): Promise<S | null> =>
    deps.signer && entry.amountMinor !== 0 ? deps.signer.sign(companyId, locationId, entry) : null;
  const record = async (repos: R, signed: S | null) => {
    if (signed !== null && deps.signer) await deps.signer.record(repos, signed);
  };

  async function openOrRefuse(repos: TillRepos, companyId: string, locationId: string): Promise<DrawerDayRow> {
    const day = await repos.till.openDay(companyId, locationId);
    if (!day) throw new AppError('conflict', said('error.drawer.notOpen'));
    return day;
  }

  /**
   * The report of a day as it stands: a closed day's as written at closing, an open one's until
   * now. A day closed before the report named its till (premises, device) is read with the
   * location's labels, which is what it was closed under unless they were changed since.
   */
  async function reportOf(
    repos: TillRepos,
    day: DrawerDayRow,
    currency: string,
    location: LocationRow,
  ): Promise<DayReport> {
    if (day.report) return { ...tillOf(location), ...(JSON.parse(day.report) as DayReport) };
    const [movements, flows] = await Promise.all([
      repos.till.listMovements(day.company_id, day.id),
      repos.till.flows(day.company_id, day.location_id, day.opened_at, clock.now().toISOString()),
    ]);
    return buildDayReport(day, movements, flows, currency, tillOf(location), null);
  }

  const service = {
    /** Opens the location's drawer for today with a float. 409 when it is open, or today was closed already. */
    async open(actor: { companyId: string; userId: string | null }, locationId: string, input: { float: string }) {
      const { company, location } = await place(actor.companyId, locationId);
      const details = fieldErrors();
      const float = amountOf(input.float, 'float', details);
      if (Object.keys(details).length > 0) throw AppError.invalid(details);
      const now = clock.now();
      const date = localDate(now, company.timezone);
      const refuseOpen = async (repos: TillRepos) => {
        if (await repos.till.openDay(actor.companyId, locationId))
          throw new AppError('conflict', said('error.drawer.alreadyOpen'));
        if (await repos.till.findDay(actor.companyId, locationId, date))
          throw new AppError('conflict', said('error.drawer.dayClosed', { date }));
      };
      // Checked before signing too, so a refused opening leaves no signed float at the TSE.
      await refuseOpen(store.repos);
      const id = newId('drawerDay');
      const signed = await sign(actor.companyId, locationId, {
        id,
        businessCase: 'Anfangsbestand',
        amountMinor: float!,
      });
      return store.unitOfWork(async (repos) => {
        await refuseOpen(repos);
        const day: DrawerDayRow = {
          id,
          company_id: actor.companyId,
          location_id: locationId,
          date,
          float_minor: float!,
          opened_at: now.toISOString(),
          opened_by: actor.userId,
          closed_at: null,
          closed_by: null,
          counted_minor: null,
          expected_minor: null,
          difference_minor: null,
          denominations: null,
          report: null,
        };
        await repos.till.insertDay(day);
        await record(repos, signed);
        return reportOf(repos, day, company.currency, location);
      });
    },

    /** Cash put in (change from the bank) or taken out (to the safe, a supplier paid) with a reason. */
    async move(
      actor: { companyId: string; userId: string | null },
      locationId: string,
      input: { kind: string; amount: string; reason: string },
    ) {
      const { company, location } = await place(actor.companyId, locationId);
      const details = fieldErrors();
      if (input.kind !== 'in' && input.kind !== 'out') addFieldError(details, 'kind', said('error.drawer.kind'));
      const amount = amountOf(input.amount, 'amount', details);
      if (amount === 0) addFieldError(details, 'amount', said('error.greaterThanZero'));
      if (!input.reason?.trim()) addFieldError(details, 'reason', said('error.drawer.reason'));
      if (Object.keys(details).length > 0) throw AppError.invalid(details);
      await openOrRefuse(store.repos, actor.companyId, locationId);
      const id = newId('drawerMovement');
      const signed = await sign(actor.companyId, locationId, {
        id,
        businessCase: input.kind === 'in' ? 'Einzahlung' : 'Auszahlung',
        amountMinor: input.kind === 'in' ? amount! : -amount!,
      });
      return store.unitOfWork(async (repos) => {
        const day = await openOrRefuse(repos, actor.companyId, locationId);
        await repos.till.lockDay(actor.companyId, day.id);
        await repos.till.insertMovement({
          id,
          company_id: actor.companyId,
          day_id: day.id,
          kind: input.kind,
          amount_minor: amount!,
          reason: input.reason.trim(),
          recorded_by: actor.userId,
          created_at: clock.now().toISOString(),
        });
        await record(repos, signed);
        return reportOf(repos, day, company.currency, location);
      });
    },

    /** The open day so far: float, movements, expected cash. 404 when the drawer is not open. */
    async current(companyId: string, locationId: string): Promise<DayReport> {
      const { company, location } = await place(companyId, locationId);
      const day = await store.repos.till.openDay(companyId, locationId);
      if (!day) throw AppError.notFound('Drawer day');
      return reportOf(store.repos, day, company.currency, location);
    },

    /** Closes the day with the count: the day report, written whole and kept as it is. `drawer.closed`. */
    async close(actor: { companyId: string; userId: string | null }, locationId: string, input: CloseInput) {
      const { company, location } = await place(actor.companyId, locationId);
      const details = fieldErrors();
      let counted: number | null = null;
      let denominations: Array<{ value: number; count: number }> | null = null;
      if (input.denominations) {
        try {
          const count = countDenominations(input.denominations);
          denominations = count.rows;
          counted = count.total;
        } catch (error) {
          if (!(error instanceof DenominationError)) throw error;
          addFieldError(details, 'denominations', said('error.drawer.denomination', { value: error.value }));
        }
      }
      if (input.counted !== undefined && input.counted !== null) {
        const typed = amountOf(input.counted, 'counted', details);
        if (typed !== null && counted !== null && typed !== counted)
          addFieldError(details, 'counted', said('error.drawer.countedOrDenominations'));
        counted ??= typed;
      } else if (!input.denominations) addFieldError(details, 'counted', said('error.drawer.countedOrDenominations'));
      if (Object.keys(details).length > 0) throw AppError.invalid(details);
      const now = clock.now().toISOString();
      const closing = { closedAt: now, closedBy: actor.userId, counted, denominations };
      const reportAt = async (repos: TillRepos, day: DrawerDayRow) => {
        const [movements, flows] = await Promise.all([
          repos.till.listMovements(actor.companyId, day.id),
          repos.till.flows(actor.companyId, locationId, day.opened_at, now),
        ]);
        const report = buildDayReport(day, movements, flows, company.currency, tillOf(location), closing);
        return { report, expected: Number(parseScaled(report.expected, MONEY_SCALE)) };
      };
      // The counted difference is a Vorgang the TSE signs (DifferenzSollIst): computed and signed
      // before the unit of work, which refuses (409) if the drawer moved in between, rather than
      // close a day on a difference the TSE did not sign.
      const signs = deps.signer ? await deps.signer.signs(actor.companyId) : false;
      const before = signs ? await openOrRefuse(store.repos, actor.companyId, locationId) : null;
      const signedDifference = before ? counted! - (await reportAt(store.repos, before)).expected : 0;
      const signed = before
        ? await sign(actor.companyId, locationId, {
            id: before.id,
            businessCase: 'DifferenzSollIst',
            amountMinor: signedDifference,
          })
        : null;
      const report = await store.unitOfWork(async (repos) => {
        const day = await openOrRefuse(repos, actor.companyId, locationId);
        await repos.till.lockDay(actor.companyId, day.id);
        const { report, expected } = await reportAt(repos, day);
        if (before && (day.id !== before.id || counted! - expected !== signedDifference))
          throw new AppError('conflict', said('error.drawer.movedWhileClosing'));
        if (
          !(await repos.till.closeDay(actor.companyId, day.id, {
            closed_at: now,
            closed_by: actor.userId,
            counted_minor: counted,
            expected_minor: expected,
            difference_minor: counted! - expected,
            denominations: denominations ? JSON.stringify(denominations) : null,
            report: JSON.stringify(report),
          }))
        )
          throw new AppError('conflict', said('error.drawer.notOpen'));
        await record(repos, signed);
        await enqueueEvent(
          repos,
          {
            companyId: actor.companyId,
            locationId,
            type: 'drawer.closed',
            data: {
              locationId,
              date: report.date,
              expected: report.expected,
              counted: report.counted!,
              difference: report.difference!,
              cashSales: report.cashSales,
              cashRefunds: report.cashRefunds,
              documents: report.documents.count,
            },
          },
          { now, newId },
        );
        return report;
      });
      deps.onEventQueued();
      return report;
    },

    /** A day of the location by its date (YYYY-MM-DD): closed as written, or the open one so far. */
    async day(companyId: string, locationId: string, date: string): Promise<DayReport> {
      const { company, location } = await place(companyId, locationId);
      const day = await store.repos.till.findDay(companyId, locationId, date);
      if (!day) throw AppError.notFound('Drawer day');
      return reportOf(store.repos, day, company.currency, location);
    },

    /** The day report printed on A4 or on the 80 mm roll, from the report as closed (or so far). */
    async renderDay(
      companyId: string,
      locationId: string,
      date: string,
      layout: 'a4' | 'receipt',
      slot: PrintSlot,
    ): Promise<{ number: string; pdf: Buffer }> {
      const { company, location } = await place(companyId, locationId);
      const day = await store.repos.till.findDay(companyId, locationId, date);
      if (!day) throw AppError.notFound('Drawer day');
      const report = await reportOf(store.repos, day, company.currency, location);
      const document = toDayReportPrint(report, toCompany(company), location);
      const logoRow = company.logo_sha256
        ? await store.repos.companies.findLogo(companyId, company.logo_sha256)
        : undefined;
      const logo = logoRow ? logoImage(logoRow) : null;
      const printed = await slot.print({ document: { ...document, layout, logo }, datasheets: [] });
      return {
        number: `day-${location.code}-${date}${layout === 'receipt' ? '-receipt' : ''}`,
        pdf: Buffer.from(printed.pdf.buffer, printed.pdf.byteOffset, printed.pdf.byteLength),
      };
    },

    /**
     * The closed day of one location and date as written at closing, or undefined while it is
     * open or was never opened: what the German TSE's Kassenabschluss (DSFinV-K) reads.
     */
    async closedDay(companyId: string, locationId: string, date: string): Promise<DayReport | undefined> {
      const day = await store.repos.till.findDay(companyId, locationId, date);
      return day?.report ? (JSON.parse(day.report) as DayReport) : undefined;
    },

    /**
     * The closed day reports of a company in [from, to] (YYYY-MM-DD), every location or one: the
     * month archive, the reports and the German TSE's Kassenabschluss read the days as closed.
     */
    async closedDays(companyId: string, from: string, to: string, locationId?: string): Promise<DayReport[]> {
      const days = await store.repos.till.closedDays(companyId, from, to, locationId);
      return days.map((d) => JSON.parse(d.report!) as DayReport);
    },

    /** The closed days of [from, to] as one table (CSV/XLSX), a row a day and location. */
    async table(
      companyId: string,
      from: string,
      to: string,
      locale: ExportLocale,
      locationId?: string,
    ): Promise<Table> {
      const [days, locations] = await Promise.all([
        store.repos.till.closedDays(companyId, from, to, locationId),
        store.repos.companies.listLocations(companyId),
      ]);
      return drawerDaysTable(
        days.map((d) => JSON.parse(d.report!) as DayReport),
        new Map(locations.map((l) => [l.id, `${l.name} (${l.code})`])),
        locale,
      );
    },

    /**
     * The month archive's part: the closed days of [from, to] as a table, and each day as written
     * at closing (JSON) and printed on A4.
     */
    async archive(
      companyId: string,
      from: string,
      to: string,
      locale: ExportLocale,
      slot: () => Promise<PrintSlot>,
    ): Promise<{ table: Table; days: Array<{ name: string; json: Buffer; pdf: Buffer }> }> {
      const table = await service.table(companyId, from, to, locale);
      const rows = await store.repos.till.closedDays(companyId, from, to);
      const locations = new Map((await store.repos.companies.listLocations(companyId)).map((l) => [l.id, l.code]));
      const days = [];
      for (const row of rows) {
        const held = await slot();
        try {
          const { pdf } = await service.renderDay(companyId, row.location_id, row.date, 'a4', held);
          days.push({
            name: `${locations.get(row.location_id) ?? row.location_id}-${row.date}`,
            json: Buffer.from(row.report!, 'utf8'),
            pdf,
          });
        } finally {
          held.release();
        }
      }
      return { table, days };
    },

    /** Today's date where the company is. */
    async today(companyId: string): Promise<string> {
      const company = await store.repos.companies.findCompany(companyId);
      if (!company) throw AppError.notFound('Company');
      return localDate(clock.now(), company.timezone);
    },

    /** Every drawer open now, with its day so far: the admins' overview. */
    async openDrawers(companyId: string): Promise<DayReport[]> {
      const company = await store.repos.companies.findCompany(companyId);
      if (!company) throw AppError.notFound('Company');
      const [days, locations] = await Promise.all([
        store.repos.till.openDays(companyId),
        store.repos.companies.listLocations(companyId),
      ]);
      const byId = new Map(locations.map((l) => [l.id, l]));
      return Promise.all(days.map((d) => reportOf(store.repos, d, company.currency, byId.get(d.location_id)!)));
    },
  };
  return service;
}
export type TillService = ReturnType<typeof createTillService>;
