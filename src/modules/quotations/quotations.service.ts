import { AppError, addFieldError, fieldErrors, type FieldErrors } from '../../lib/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import { formatMoney } from '../../lib/money.ts';
import { searchKey } from '../../lib/search-key.ts';
import type { Store } from '../../db/store.ts';
import type { CatalogService, DatasheetFiles } from '../catalog/index.ts';
import { logoImage, toCompany, type Company } from '../companies/index.ts';
import {
  formatDocumentNumber,
  sequenceKind,
  testPrefix,
  lineRows,
  priceLines,
  toLineView,
  totalsView,
  yearIn,
  type DocumentLineRow,
  type LineRequest,
  type LineView,
  type TotalsView,
} from '../documents/index.ts';
import type { CustomerDirectory, IssueFiscaliser } from '../invoicing/index.ts';
import { enqueueEvent } from '../webhooks/index.ts';
import type { ApiCaller } from '../api-keys/index.ts';
import { said } from '../i18n/index.ts';
import type { CustomerReads } from '../customers/index.ts';
import type { QuotationFilter, QuotationRow } from './quotations.repository.ts';
import { toQuotationPrint } from './quotation-print.ts';
import { createQuotationConversion, type QuotationConversionRepos } from './quotation-conversion.ts';
import { sampleQuotationPrint, type PrintDraft } from './sample-print.ts';
import { createQuotationRevisions } from './quotation-revisions.ts';
import type { DatasheetSource, PrintSlot } from '../printing/index.ts';

export interface NewQuotation {
  /** How the caller receives it (default pdf): a PDF's appended datasheets must fit the size limit. */
  format?: 'pdf' | 'json';
  includeDatasheets: boolean;
  expiresAt?: string;
  note?: string | null;
  customer: { name: string; email?: string | null; phone?: string | null };
  /** A directory customer (the hub and admin API): the quotation is assigned to it from the start. */
  directoryCustomerId?: string | null;
  lines: LineRequest[];
}

/**
 * A quotation made or revised by staff (the hub, the admin API): a directory customer
 * (`directoryCustomerId`) or one typed (`customer`), or both (the typed one then wins on the
 * print); at a location of the company (the first one unless named).
 */
export interface StaffQuotation extends Omit<NewQuotation, 'customer' | 'format'> {
  format?: 'pdf' | 'json';
  customer?: NewQuotation['customer'];
  locationId?: string;
}

/**
 * Who makes a quotation: a location API key (the public API), or a hub user at a location of
 * theirs (`apiKeyId` null, `userId` recorded as its maker).
 */
export interface QuotationAuthor extends Omit<ApiCaller, 'apiKeyId'> {
  apiKeyId: string | null;
  userId?: string | null;
}

export {
  QUOTATION_STATUSES,
  isQuotationOpen,
  type QuotationStatus,
} from './quotation-status.ts';
import { isQuotationOpen, type QuotationStatus } from './quotation-status.ts';

/**
 * Whether this user may convert the quotation: it is open, they handle quotations, and an
 * expired one converts only at today's prices, which needs the right to reprice.
 */
export function mayConvertQuotation(
  q: { status: string; expired: boolean },
  may: { handle: boolean; reprice: boolean },
): boolean {
  return isQuotationOpen(q.status) && may.handle && (!q.expired || may.reprice);
}

export interface QuotationView {
  id: string;
  number: string;
  status: QuotationStatus;
  locationId: string;
  createdAt: string;
  expiresAt: string;
  note: string | null;
  customer: { name: string; email: string | null; phone: string | null };
  directoryCustomerId: string | null;
  /** The directory customer staff assigned (its current name); the placeholder `customer` stays as it arrived. */
  directoryCustomer: { id: string; name: string } | null;
  /** Past `expiresAt` (derived, never stored): converting it needs an admin's repricing. */
  expired: boolean;
  /** 1 for a new quotation; the number of a later revision ends in `-{revision}`. */
  revision: number;
  /** When the newest revision was made; null for revision 1. */
  revisedAt: string | null;
  /** The hub user who made it; null when an API key did. */
  createdBy: string | null;
  /** The sale it was converted to (status `converted`). */
  saleId: string | null;
  cancelledAt: string | null;
  cancellationReason: string | null;
  currency: string;
  includeDatasheets: boolean;
  lines: Array<LineView & { hasDatasheet: boolean }>;
  totals: TotalsView;
}

export interface QuotationsLogger {
  warn(obj: object, msg: string): void;
}

/** Quotations and their numbers, the products they quote, their directory customers, and what conversion writes. */
type QuotationsRepos = QuotationConversionRepos & { customers: Pick<CustomerReads, 'find' | 'findMany'> };

export function createQuotationsService(deps: {
  store: Store<QuotationsRepos>;
  clock: Clock;
  newId: IdGenerator;
  catalog: CatalogService;
  datasheets: DatasheetFiles;
  logger: QuotationsLogger;
  onEventQueued: () => void;
  /** The most datasheet bytes one quotation PDF appends. */
  datasheetsMaxBytes: number;
  /** Where conversion reads the directory customer a sale snapshots. */
  customers: CustomerDirectory;
  /** The fiscal step of the invoice a conversion issues. */
  fiscaliser: IssueFiscaliser;
}) {
  const { store, clock, newId, catalog } = deps;

  /** The print template's logo by its hash as the printer embeds it; null when none. */
  async function logoOf(
    companyId: string,
    sha256: string | null | undefined,
  ): Promise<{ png: Uint8Array; width: number; height: number } | null> {
    if (!sha256) return null;
    const logo = await store.repos.companies.findLogo(companyId, sha256);
    return logo ? logoImage(logo) : null;
  }

  async function load(companyId: string, id: string, atLocation?: string, mode?: 'live' | 'test') {
    const row = await store.repos.quotations.find(companyId, id, atLocation, mode);
    if (!row) throw AppError.notFound('Quotation');
    const [lines, companyRow, location] = await Promise.all([
      store.repos.quotations.listLines(companyId, id),
      store.repos.companies.findCompany(companyId),
      store.repos.companies.findLocation(companyId, row.location_id),
    ]);
    return { row, lines, company: toCompany(companyRow!), location: location! };
  }

  /** Each quoted product's datasheet once, in the order the products first appear, with its size (null: missing). */
  async function datasheetsOf(companyId: string, productIds: readonly string[]) {
    const ordered = [...new Set(productIds)];
    const products = await store.repos.catalog.findProducts(companyId, ordered);
    const byId = new Map(products.map((p) => [p.id, p]));
    const sheets = ordered.flatMap((productId) => {
      const product = byId.get(productId);
      return product?.datasheet_file
        ? [{ productId, name: product.datasheet_name ?? product.name, file: product.datasheet_file }]
        : [];
    });
    // A file that cannot be looked at counts as missing: it never breaks the quote it belongs to.
    return Promise.all(
      sheets.map(async (sheet) => ({ ...sheet, size: await deps.datasheets.size(sheet.file).catch(() => null) })),
    );
  }

  /**
   * Checked before anything is stored: datasheets are whole third-party PDFs (up to
   * DATASHEET_MAX_BYTES each), and a print holds them all in memory at once.
   */
  async function assertDatasheetsFit(companyId: string, productIds: readonly string[]): Promise<void> {
    const total = (await datasheetsOf(companyId, productIds)).reduce((sum, sheet) => sum + (sheet.size ?? 0), 0);
    if (total <= deps.datasheetsMaxBytes) return;
    throw AppError.invalid(
      {
        includeDatasheets: [
          said('error.quotation.datasheetsTotal', {
            total: megabytes(total),
            max: megabytes(deps.datasheetsMaxBytes),
          }),
        ],
      },
      said('error.quotation.datasheetsTooLarge'),
    );
  }

  /**
   * What a print appends: the datasheets that fit the size limit, in order. A quotation made as
   * JSON, or whose datasheets grew since, can exceed it; those past the limit are left out.
   */
  async function printableDatasheets(
    companyId: string,
    quotationId: string,
    lines: readonly DocumentLineRow[],
  ): Promise<DatasheetSource[]> {
    let left = deps.datasheetsMaxBytes;
    const sources: DatasheetSource[] = [];
    for (const sheet of await datasheetsOf(
      companyId,
      lines.map((l) => l.product_id),
    )) {
      const context = { quotationId, productId: sheet.productId };
      if (sheet.size === null) {
        deps.logger.warn(context, 'datasheet file missing or unreadable; skipped');
        continue;
      }
      if (sheet.size > left) {
        deps.logger.warn(
          { ...context, bytes: sheet.size, limit: deps.datasheetsMaxBytes },
          "datasheet past the quotation's size limit; skipped",
        );
        continue;
      }
      left -= sheet.size;
      sources.push({
        name: sheet.name,
        // A datasheet that cannot be read never breaks the quote it belongs to.
        read: () =>
          deps.datasheets.read(sheet.file).then(
            (bytes) => {
              if (!bytes) deps.logger.warn(context, 'datasheet file missing; skipped');
              return bytes;
            },
            (error: unknown) => {
              deps.logger.warn({ ...context, err: error }, 'datasheet unreadable; skipped');
              return null;
            },
          ),
      });
    }
    return sources;
  }

  /** The products of these lines that have a datasheet, in one query. */
  async function withDatasheets(companyId: string, lines: readonly DocumentLineRow[]): Promise<Set<string>> {
    const products = await store.repos.catalog.findProducts(companyId, [...new Set(lines.map((l) => l.product_id))]);
    return new Set(products.filter((p) => p.datasheet_file).map((p) => p.id));
  }

  /** `datasheets` and `customerNames`: what a list reads once for the whole page. */
  async function view(
    row: QuotationRow,
    lines: DocumentLineRow[],
    datasheets?: Set<string>,
    customerNames?: ReadonlyMap<string, string>,
  ): Promise<QuotationView> {
    const withDatasheet = datasheets ?? (await withDatasheets(row.company_id, lines));
    const customerId = row.directory_customer_id;
    const named = customerId === null || !customerNames ? undefined : customerNames.get(customerId);
    const assigned =
      customerId === null
        ? undefined
        : customerNames
          ? named === undefined
            ? undefined
            : { id: customerId, name: named }
          : await store.repos.customers.find(row.company_id, customerId);
    return {
      id: row.id,
      number: row.number,
      status: row.status as QuotationStatus,
      locationId: row.location_id,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
      note: row.note,
      customer: { name: row.customer_name, email: row.customer_email, phone: row.customer_phone },
      directoryCustomerId: row.directory_customer_id,
      directoryCustomer: assigned ? { id: assigned.id, name: assigned.name } : null,
      expired: row.expires_at <= clock.now().toISOString(),
      revision: row.revision ?? 1,
      revisedAt: row.revised_at ?? null,
      createdBy: row.created_by ?? null,
      saleId: row.sale_id,
      cancelledAt: row.cancelled_at,
      cancellationReason: row.cancellation_reason,
      currency: row.currency,
      includeDatasheets: Boolean(row.include_datasheets),
      lines: lines.map((l) => ({ ...toLineView(l), hasDatasheet: withDatasheet.has(l.product_id) })),
      totals: totalsView(lines),
    };
  }

  /** A directory customer named by a request: its id, or a 400 naming `customerId`. */
  async function directoryCustomer(companyId: string, id: string | null | undefined): Promise<string | null> {
    if (id === undefined || id === null) return null;
    if (await store.repos.customers.find(companyId, id)) return id;
    throw AppError.invalid({ customerId: [said('error.customer.noSuchId')] });
  }

  /** A staff request's customer: as typed, or the directory customer's name and contacts. */
  async function staffCustomer(companyId: string, input: StaffQuotation): Promise<NewQuotation['customer']> {
    if (input.customer) return input.customer;
    const id = input.directoryCustomerId;
    const found = id ? await store.repos.customers.find(companyId, id) : undefined;
    if (found) return { name: found.name, email: found.email, phone: found.phone };
    const details = fieldErrors();
    addFieldError(
      details,
      id ? 'customerId' : 'customer',
      said(id ? 'error.customer.noSuchId' : 'error.quotation.nameCustomer'),
    );
    throw AppError.invalid(details);
  }

  const revisions = createQuotationRevisions({
    ...deps,
    load,
    directoryCustomer,
    view,
    renderWith: printableDatasheets,
  });

  const service = {
    ...createQuotationConversion(deps),
    ...revisions,

    /** A quotation made by a hub user: priced, numbered, printed and announced as one from the public API. */
    async createByStaff(
      actor: { companyId: string; userId: string | null },
      input: StaffQuotation,
    ): Promise<QuotationView> {
      const locations = await store.repos.companies.listLocations(actor.companyId);
      const location = input.locationId === undefined ? locations[0] : locations.find((l) => l.id === input.locationId);
      if (!location) {
        throw AppError.invalid({ locationId: [said('error.location.noSuchId')] });
      }
      const customer = await staffCustomer(actor.companyId, input);
      return service.create(
        { companyId: actor.companyId, locationId: location.id, apiKeyId: null, mode: 'live', userId: actor.userId },
        { ...input, format: input.format ?? 'json', customer },
      );
    },

    /** A revision by a hub user (quotation-revisions.ts). */
    async reviseByStaff(
      actor: { companyId: string; userId: string | null },
      id: string,
      input: StaffQuotation,
    ): Promise<QuotationView> {
      const customer = await staffCustomer(actor.companyId, input);
      return revisions.revise(actor, id, { ...input, customer });
    },

    /** Prices, numbers and stores an approved quotation, its quote.created event and the request's commit hooks (its Idempotency-Key) in one unit of work. */
    async create(caller: QuotationAuthor, input: NewQuotation): Promise<QuotationView> {
      const now = clock.now();
      const details: FieldErrors = {};
      const expiry = input.expiresAt === undefined ? null : Date.parse(input.expiresAt);
      // Date.parse gives NaN for forms the schema's date-time allows but Date cannot hold (leap seconds).
      if (expiry !== null && !Number.isFinite(expiry))
        addFieldError(details, 'expiresAt', said('error.timestamp.range'));
      else if (expiry !== null && expiry <= now.getTime()) addFieldError(details, 'expiresAt', said('error.future'));
      const priced = await priceLines(
        (requested) => catalog.resolveLines(caller.companyId, requested),
        input.lines,
        details,
      );
      if (input.includeDatasheets && input.format !== 'json')
        await assertDatasheetsFit(
          caller.companyId,
          priced.lines.map((l) => l.productId),
        );
      const company: Company = priced.company;
      const expiresAt =
        input.expiresAt !== undefined
          ? new Date(input.expiresAt).toISOString()
          : new Date(now.getTime() + company.quotationValidityDays * 86_400_000).toISOString();
      const id = newId('quotation');
      const createdAt = now.toISOString();
      const directory = await directoryCustomer(caller.companyId, input.directoryCustomerId);

      const result = await store.unitOfWork(
        async (repos) => {
          const location = await repos.companies.findLocation(caller.companyId, caller.locationId);
          if (!location) throw AppError.notFound('Location');
          const year = yearIn(now, company.timezone);
          const mode = caller.mode ?? 'live';
          // Test quotations have their own series (T-Q-…): a developer's trial takes no real number.
          const seq = await repos.sequences.next(caller.companyId, location.id, sequenceKind('quotation', mode), year);
          const row: QuotationRow = {
            id,
            company_id: caller.companyId,
            location_id: location.id,
            api_key_id: caller.apiKeyId,
            number: testPrefix(mode) + formatDocumentNumber('Q', location.code, year, seq),
            status: 'approved',
            customer_name: input.customer.name,
            customer_email: input.customer.email ?? null,
            customer_phone: input.customer.phone ?? null,
            directory_customer_id: directory,
            note: input.note ?? null,
            currency: company.currency,
            prices_include_tax: company.pricesIncludeTax,
            include_datasheets: input.includeDatasheets,
            net_minor: priced.totals.net,
            tax_minor: priced.totals.tax,
            total_minor: priced.totals.withTax,
            expires_at: expiresAt,
            created_at: createdAt,
            sale_id: null,
            cancelled_at: null,
            cancellation_reason: null,
            customer_name_key: searchKey(input.customer.name),
            mode,
            created_by: caller.userId ?? null,
            revision: 1,
            revised_at: null,
          };
          const lines = lineRows(priced.lines, caller.companyId, id, newId, 'quotationLine');
          await repos.quotations.insert(row);
          await repos.quotations.insertLines(lines);
          await enqueueEvent(
            repos,
            {
              companyId: caller.companyId,
              locationId: location.id,
              livemode: mode === 'live',
              type: 'quote.created',
              data: {
                quotationId: id,
                number: row.number,
                customerName: row.customer_name,
                totalWithTax: formatMoney(row.total_minor),
                locationName: location.name,
                lineCount: lines.length,
              },
            },
            { now: createdAt, newId },
          );
          return { row, lines };
        },
        { creates: id },
      );
      deps.onEventQueued();
      return view(result.row, result.lines);
    },

    /**
     * `atLocation`: a location key reads only what its location created; the hub reads the whole
     * company. `mode`: a key reads only its own mode's data (a test key never sees a live one).
     */
    async get(companyId: string, id: string, atLocation?: string, mode?: 'live' | 'test'): Promise<QuotationView> {
      const { row, lines } = await load(companyId, id, atLocation, mode);
      return view(row, lines);
    },

    /** The hub's list, newest first; `q` as documentSearch (src/modules/documents/document-search.ts) says. */
    async list(
      companyId: string,
      opts: { limit: number; before?: { createdAt: string; id: string } },
      filter: QuotationFilter = {},
    ): Promise<QuotationView[]> {
      const rows = await store.repos.quotations.list(companyId, opts, filter);
      const lines = await store.repos.quotations.listLinesOf(
        companyId,
        rows.map((r) => r.id),
      );
      const datasheets = await withDatasheets(companyId, lines);
      const assigned = rows.flatMap((r) => (r.directory_customer_id === null ? [] : [r.directory_customer_id]));
      const names = new Map((await store.repos.customers.findMany(companyId, assigned)).map((c) => [c.id, c.name]));
      return Promise.all(
        rows.map((row) =>
          view(
            row,
            lines.filter((l) => l.document_id === row.id),
            datasheets,
            names,
          ),
        ),
      );
    },

    /** How many are in one of `statuses`, up to COUNT_CAP (src/db/capped-count.ts): Today's cards. */
    async countWithStatus(companyId: string, statuses: readonly QuotationStatus[]): Promise<number> {
      return store.repos.quotations.countWithStatus(companyId, statuses);
    },

    /** Every test quotation of the company and its lines, gone (a converted one cannot exist: see convert). */
    async deleteTestData(companyId: string): Promise<number> {
      return store.unitOfWork((repos) => repos.quotations.deleteTest(companyId));
    },

    /** The print: rendered from the stored quotation only (and the template's logo), so the same quotation gives the same bytes. */
    async renderPdf(
      companyId: string,
      id: string,
      slot: PrintSlot,
      /** An e-mail's attachment: in the customer's language, with or without datasheets. */
      as: { locale?: string; datasheets?: boolean } = {},
    ): Promise<{ number: string; pdf: Buffer }> {
      const { row, lines, company, location } = await load(companyId, id);
      const withSheets = as.datasheets ?? Boolean(row.include_datasheets);
      const datasheets = withSheets ? await printableDatasheets(companyId, id, lines) : [];
      const printedAs = as.locale ? { ...company, locale: as.locale } : company;
      const logo = await logoOf(companyId, company.logo?.sha256);
      const printed = await slot.print({
        document: { ...toQuotationPrint(row, lines, printedAs, location), logo },
        datasheets,
      });
      for (const skipped of printed.skipped)
        deps.logger.warn(
          { quotationId: id, datasheet: skipped.name, err: skipped.reason },
          'datasheet unreadable; skipped',
        );
      return {
        number: row.number,
        pdf: Buffer.from(printed.pdf.buffer, printed.pdf.byteOffset, printed.pdf.byteLength),
      };
    },

    /**
     * A made-up quotation printed with print settings not saved yet (the hub's live preview):
     * the company's own header, locale and currency, the draft's template and bank account.
     */
    async renderSamplePdf(
      companyId: string,
      draft: PrintDraft,
      slot: PrintSlot,
    ): Promise<{ number: string; pdf: Buffer }> {
      const [companyRow, locations] = await Promise.all([
        store.repos.companies.findCompany(companyId),
        store.repos.companies.listLocations(companyId),
      ]);
      if (!companyRow) throw AppError.notFound('Company');
      const document = sampleQuotationPrint(toCompany(companyRow), locations[0] ?? null, draft, clock.now());
      const logo = await logoOf(companyId, companyRow.logo_sha256);
      const printed = await slot.print({ document: { ...document, logo }, datasheets: [] });
      return {
        number: document.number,
        pdf: Buffer.from(printed.pdf.buffer, printed.pdf.byteOffset, printed.pdf.byteLength),
      };
    },
  };
  return service;
}
export type QuotationsService = ReturnType<typeof createQuotationsService>;

function megabytes(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(1)} MiB`;
}
