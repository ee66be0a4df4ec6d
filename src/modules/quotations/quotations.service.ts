import { AppError, type FieldErrors } from '../../lib/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import { formatMoney } from '../../lib/money.ts';
import type { Store } from '../store.ts';
import type { CatalogService, DatasheetFiles } from '../catalog/index.ts';
import { toCompany, type Company } from '../companies/index.ts';
import {
  formatDocumentNumber, lineRows, priceLines, toLineView, totalsView, yearIn,
  type DocumentLineRow, type LineRequest, type LineView, type TotalsView,
} from '../sales/index.ts';
import { enqueueEvent } from '../webhooks/index.ts';
import type { ApiCaller } from '../api-keys/index.ts';
import type { QuotationRow } from './quotations.repository.ts';
import { toQuotationDocument } from './quotation-document-from-rows.ts';
import { renderQuotationPdf } from './pdf/render-quotation-pdf.ts';
import { appendDatasheets } from './pdf/append-datasheets.ts';

export interface NewQuotation {
  includeDatasheets: boolean;
  expiresAt?: string;
  note?: string | null;
  customer: { name: string; email?: string | null; phone?: string | null };
  lines: LineRequest[];
}

export interface QuotationView {
  id: string;
  number: string;
  status: string;
  locationId: string;
  createdAt: string;
  expiresAt: string;
  note: string | null;
  customer: { name: string; email: string | null; phone: string | null };
  directoryCustomerId: string | null;
  currency: string;
  includeDatasheets: boolean;
  lines: Array<LineView & { hasDatasheet: boolean }>;
  totals: TotalsView;
}

export interface QuotationsLogger {
  warn(obj: object, msg: string): void;
}

export function createQuotationsService(deps: {
  store: Store;
  clock: Clock;
  newId: IdGenerator;
  catalog: CatalogService;
  datasheets: DatasheetFiles;
  logger: QuotationsLogger;
  onEventQueued: () => void;
}) {
  const { store, clock, newId, catalog } = deps;

  async function load(companyId: string, id: string, atLocation?: string) {
    const row = await store.repos.quotations.find(companyId, id, atLocation);
    if (!row) throw AppError.notFound('Quotation');
    const [lines, companyRow, location] = await Promise.all([
      store.repos.quotations.listLines(companyId, id),
      store.repos.companies.findCompany(companyId),
      store.repos.companies.findLocation(companyId, row.location_id),
    ]);
    return { row, lines, company: toCompany(companyRow!), location: location! };
  }

  async function view(row: QuotationRow, lines: DocumentLineRow[]): Promise<QuotationView> {
    const products = await store.repos.catalog.findProducts(row.company_id, [...new Set(lines.map((l) => l.product_id))]);
    const withDatasheet = new Set(products.filter((p) => p.datasheet_file).map((p) => p.id));
    return {
      id: row.id,
      number: row.number,
      status: row.status,
      locationId: row.location_id,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
      note: row.note,
      customer: { name: row.customer_name, email: row.customer_email, phone: row.customer_phone },
      directoryCustomerId: row.directory_customer_id,
      currency: row.currency,
      includeDatasheets: Boolean(row.include_datasheets),
      lines: lines.map((l) => ({ ...toLineView(l), hasDatasheet: withDatasheet.has(l.product_id) })),
      totals: totalsView(lines),
    };
  }

  return {
    /** Prices, numbers and stores an approved quotation, its quote.created event and the request's commit hooks (its Idempotency-Key) in one unit of work. */
    async create(caller: ApiCaller, input: NewQuotation): Promise<QuotationView> {
      const now = clock.now();
      const details: FieldErrors = {};
      const expiry = input.expiresAt === undefined ? null : Date.parse(input.expiresAt);
      // Date.parse gives NaN for forms the schema's date-time allows but Date cannot hold (leap seconds).
      if (expiry !== null && !Number.isFinite(expiry)) details.expiresAt = ['Not a representable timestamp.'];
      else if (expiry !== null && expiry <= now.getTime()) details.expiresAt = ['Must be in the future.'];
      const priced = await priceLines(catalog, caller.companyId, input.lines, details);
      const company: Company = priced.company;
      const expiresAt = input.expiresAt !== undefined
        ? new Date(input.expiresAt).toISOString()
        : new Date(now.getTime() + company.quotationValidityDays * 86_400_000).toISOString();
      const id = newId('quotation');
      const createdAt = now.toISOString();

      const result = await store.unitOfWork(async (repos) => {
        const location = await repos.companies.findLocation(caller.companyId, caller.locationId);
        if (!location) throw AppError.notFound('Location');
        const year = yearIn(now, company.timezone);
        const seq = await repos.sequences.next(caller.companyId, location.id, 'quotation', year);
        const row: QuotationRow = {
          id, company_id: caller.companyId, location_id: location.id, api_key_id: caller.apiKeyId,
          number: formatDocumentNumber('Q', location.code, year, seq), status: 'approved',
          customer_name: input.customer.name, customer_email: input.customer.email ?? null, customer_phone: input.customer.phone ?? null,
          directory_customer_id: null, note: input.note ?? null, currency: company.currency, prices_include_tax: company.pricesIncludeTax,
          include_datasheets: input.includeDatasheets, net_minor: priced.totals.net, tax_minor: priced.totals.tax,
          total_minor: priced.totals.withTax, expires_at: expiresAt, created_at: createdAt,
        };
        const lines = lineRows(priced.lines, caller.companyId, id, newId, 'quotationLine');
        await repos.quotations.insert(row);
        await repos.quotations.insertLines(lines);
        await enqueueEvent(repos, {
          companyId: caller.companyId, locationId: location.id, type: 'quote.created',
          data: {
            quotationId: id, number: row.number, customerName: row.customer_name, totalWithTax: formatMoney(row.total_minor),
            locationName: location.name, lineCount: lines.length,
          },
        }, { now: createdAt, newId });
        return { row, lines };
      }, { creates: id });
      deps.onEventQueued();
      return view(result.row, result.lines);
    },

    /** `atLocation`: a location key reads only what its location created; the hub reads the whole company. */
    async get(companyId: string, id: string, atLocation?: string): Promise<QuotationView> {
      const { row, lines } = await load(companyId, id, atLocation);
      return view(row, lines);
    },

    async list(companyId: string, opts: { limit: number; before?: { createdAt: string; id: string } }) {
      return store.repos.quotations.list(companyId, opts);
    },

    /** The print: rendered from the stored quotation only, so the same quotation gives the same bytes. */
    async renderPdf(companyId: string, id: string): Promise<{ number: string; pdf: Buffer }> {
      const { row, lines, company, location } = await load(companyId, id);
      const pdf = await renderQuotationPdf(toQuotationDocument(row, lines, company, location));
      if (!row.include_datasheets) return { number: row.number, pdf };
      const products = await store.repos.catalog.findProducts(companyId, [...new Set(lines.map((l) => l.product_id))]);
      const byId = new Map(products.map((p) => [p.id, p]));
      const sheets: Array<{ name: string; bytes: Buffer }> = [];
      // Each product's datasheet once, in the order the products first appear on the quotation.
      for (const productId of new Set(lines.map((l) => l.product_id))) {
        const product = byId.get(productId);
        if (!product?.datasheet_file) continue;
        // A datasheet that cannot be read never breaks the quote it belongs to.
        const bytes = await deps.datasheets.read(product.datasheet_file).catch((error: unknown) => {
          deps.logger.warn({ quotationId: id, productId, err: error }, 'datasheet unreadable; skipped');
          return null;
        });
        if (bytes) sheets.push({ name: product.datasheet_name ?? product.name, bytes });
        else deps.logger.warn({ quotationId: id, productId }, 'datasheet file missing; skipped');
      }
      const merged = await appendDatasheets(pdf, sheets, (name, error) =>
        deps.logger.warn({ quotationId: id, datasheet: name, err: error.message }, 'datasheet unreadable; skipped'));
      return { number: row.number, pdf: merged };
    },
  };
}
export type QuotationsService = ReturnType<typeof createQuotationsService>;
