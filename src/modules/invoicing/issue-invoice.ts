import { AppError, addFieldError, fieldErrors } from '../../lib/errors.ts';
import { said } from '../i18n/index.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import { formatMoney, MONEY_SCALE, parseScaled } from '../../lib/money.ts';
import type { CompanyDirectory, LocationRow } from '../companies/index.ts';
import { enqueueEvent, type EventOutbox } from '../webhooks/index.ts';
import {
  formatDocumentNumber,
  sequenceKind,
  testPrefix,
  totalsView,
  yearIn,
  type DataMode,
  type DocumentLineRow,
  type NumberSequences,
} from '../documents/index.ts';
import { unitCodeOf, type CatalogReads } from '../catalog/index.ts';
import type { FiscalStatus, FiscalWrites } from '../fiscal/index.ts';
import type { Store } from '../../db/store.ts';
import { deliverFiscal, fiscalise, insertIssued, issueFacts, type IssueFiscaliser } from './issue-steps.ts';
import type {
  InvoicePaymentMethod,
  SaleLineRow,
  SaleRow,
  SaleSourceType,
  SaleTotalsLedger,
  SaleRecords,
  SaleView,
  RefundRow,
} from '../sales/index.ts';
import { toSaleView } from '../sales/index.ts';
import type { CounterTse } from './counter-tse.ts';
import { freezeAtIssue, type IssuedDocumentsRepository } from './frozen-documents.ts';
import { JUST_QUEUED, type OutboundRepos } from '../einvoice/index.ts';
import { goesAsEInvoice, sendAsEInvoice } from './send-einvoice.ts';

/** A directory customer as the sale keeps it: a snapshot, so later edits do not rewrite a sale. */
export interface CustomerSnapshot {
  id: string;
  kind: string;
  name: string;
  taxId: string | null;
  email: string | null;
  phone: string | null;
  address: { street: string; postalCode: string; city: string; country: string } | null;
  /** The customer's own payment terms in days; absent or null: the company's. */
  paymentTermsDays?: number | null;
  /** Where the buyer takes e-invoices (BT-49, BT-10), as the directory says at issue. */
  electronicAddress?: { id: string; scheme: string } | null;
  buyerReference?: string | null;
}

export interface SaleSource {
  type: SaleSourceType;
  id: string;
  number: string;
  locationId: string;
  note: string | null;
  currency: string;
  pricesIncludeTax: boolean;
  /** A test document becomes a test sale: own `T-` numbers, no fiscal step, `livemode: false`. */
  mode: DataMode;
  /** The lines the sale takes: the source's as stored, or repriced at today's prices. */
  lines: readonly DocumentLineRow[];
}

/** The tables issuing an invoice writes. */
export type IssueRepos = {
  companies: CompanyDirectory;
  sequences: NumberSequences;
  sales: SaleRecords;
  saleTotals: SaleTotalsLedger;
  webhooks: EventOutbox;
  catalog: Pick<CatalogReads, 'listTaxRates'>;
  issuedDocuments: IssuedDocumentsRepository;
  exchange: OutboundRepos['exchange'];
} & FiscalWrites;

export interface Issued {
  row: SaleRow;
  lines: SaleLineRow[];
  fiscal: FiscalStatus;
  /** Sent to the buyer as an e-invoice through the exchange (no receipt to CIS). */
  asEInvoice?: boolean;
}

/** What issuing needs around the unit of work: the store, ids, the fiscal adapter and the dispatcher's wake-up. */
export interface IssueDeps<R extends IssueRepos> {
  store: Store<R>;
  newId: IdGenerator;
  fiscaliser: IssueFiscaliser;
  onEventQueued: () => void;
  /** Germany's TSE: counter transactions (a sale, its storno) are signed before their unit of work. */
  tse?: CounterTse;
}

/** What is being invoiced, to whom, how it is paid; `source` runs first in the issuing unit of work. */
export interface InvoiceRequest<R extends IssueRepos> {
  companyId: string;
  saleId: string;
  now: Date;
  timezone: string;
  customer: CustomerSnapshot;
  repriced: boolean;
  createdBy: string | null;
  paymentMethod: InvoicePaymentMethod;
  tenderedMinor?: number | null;
  deliveryDate?: string | null;
  orderReference?: string | null;
  /**
   * In the issuing unit of work, before the invoice: closes the source (a quotation or order
   * moves to `converted`, the gate against a second conversion) and gives the lines it sells.
   */
  source: (repos: R) => Promise<SaleSource>;
  /** In the same unit of work, after the invoice: what commits with it (the counter's payment). */
  alsoInTransaction?: (repos: R, issued: Issued) => Promise<void>;
}

/**
 * The one way an invoice is issued, whatever it is made from (a quotation, a web order, the
 * counter): one unit of work holds the source's move, the legal number, the invoice and its
 * lines, the fiscal request prepared for the outbox, the `sale.created` event, whatever the
 * caller commits with it (`alsoInTransaction`) and the snapshot its documents are printed from forever; after
 * commit the dispatcher is woken and the fiscal request is delivered with the adapter's bounded
 * wait (the fiscal worker delivers whatever that wait leaves pending).
 */
export async function issueInvoice<R extends IssueRepos>(
  deps: IssueDeps<R>,
  request: InvoiceRequest<R>,
): Promise<Issued> {
  if (request.deliveryDate != null && !isCalendarDate(request.deliveryDate)) {
    const details = fieldErrors();
    addFieldError(details, 'deliveryDate', said('error.calendarDate'));
    throw AppError.invalid(details);
  }
  const issued = await deps.store.unitOfWork(
    async (repos) => {
      const source = await request.source(repos);
      const issued = await insertSale(repos, { ...request, source }, deps.newId, deps.fiscaliser);
      let paidAtIssue = 0;
      if (request.alsoInTransaction) {
        await request.alsoInTransaction(repos, issued);
        paidAtIssue = (await repos.sales.find(request.companyId, request.saleId))?.paid_minor ?? 0;
      }
      // What issuing has read already is not read again: the location, and the buyer's e-invoice
      // address from the directory customer read for the sale.
      const c = request.customer;
      const snapshot = await freezeAtIssue(repos, issued.row, request.now, paidAtIssue, {
        location: issued.location,
        buyer: c.id
          ? {
              endpoint_id: c.electronicAddress?.id ?? null,
              endpoint_scheme: c.electronicAddress?.scheme ?? null,
              buyer_reference: c.buyerReference ?? null,
            }
          : null,
      });
      if (issued.asEInvoice) await sendAsEInvoice(repos, issued, snapshot, { now: request.now, newId: deps.newId });
      return issued;
    },
    { creates: request.saleId },
  );
  return afterIssue(deps, issued);
}

/** A document just issued as its JSON shows it (nothing paid or corrected yet; a correction's refunds given). */
export function issuedView(issued: Issued, given: { refunds?: RefundRow[] } = {}): SaleView {
  return toSaleView(issued.row, issued.lines, [], {
    fiscal: issued.fiscal,
    ...(issued.asEInvoice ? { exchange: JUST_QUEUED } : {}),
    ...given,
  });
}

/** After an issuing unit of work committed: wake the dispatcher, deliver the fiscal request. */
export async function afterIssue(
  deps: { fiscaliser: IssueFiscaliser; onEventQueued: () => void },
  issued: Issued,
): Promise<Issued> {
  deps.onEventQueued();
  const fiscal = await deliverFiscal(deps.fiscaliser, issued.row.company_id, issued.row.id, issued.fiscal);
  return { ...issued, fiscal };
}

/**
 * Issues the invoice for a source document inside the caller's unit of work: its legal number
 * (invoice-number.ts) and its internal gap-free one (`S-{location}-{year}-{seq}`), a copy of the
 * lines with their notes and taxes, the customer snapshot, the operator and payment method, the
 * fiscal step (`fiscaliser`, in the same transaction) and the `sale.created` event. The caller has already moved the source to
 * `converted` in the same unit of work, so the sale and the source's new state commit together.
 */
async function insertSale(
  repos: IssueRepos,
  input: {
    companyId: string;
    saleId: string;
    source: SaleSource;
    customer: CustomerSnapshot;
    repriced: boolean;
    createdBy: string | null;
    now: Date;
    timezone: string;
    paymentMethod: InvoicePaymentMethod;
    /** Cash handed over at a counter sale, for the receipt. */
    tenderedMinor?: number | null;
    /** When the goods or services were delivered (BT-72), a calendar day; the day of issue when absent. */
    deliveryDate?: string | null;
    /** The buyer's order number (BT-13). */
    orderReference?: string | null;
  },
  newId: IdGenerator,
  fiscaliser: IssueFiscaliser,
): Promise<Issued & { location: LocationRow }> {
  const { companyId, saleId, source, customer, now } = input;
  const location = await repos.companies.findLocation(companyId, source.locationId);
  if (!location) throw new Error(`location ${source.locationId} of ${source.type} ${source.id} is gone`);
  const year = yearIn(now, input.timezone);
  const seq = await repos.sequences.next(companyId, location.id, sequenceKind('sale', source.mode), year);
  // The e-invoice's product codes as the catalog has them now: an issued invoice keeps them, like
  // its names and prices, so a later catalog edit cannot change its e-invoice.
  const codes = await repos.sales.catalogCodes(
    companyId,
    [...new Set(source.lines.map((l) => l.product_id))],
    [...new Set(source.lines.map((l) => l.unit_id))],
  );
  const kpd = new Map(codes.products.map((p) => [p.id, p.classification_code]));
  const unitCodes = new Map(codes.units.map((u) => [u.id, unitCodeOf(u.name, u.unit_code)]));
  const lines: SaleLineRow[] = source.lines.map((l, i) => ({
    ...l,
    id: newId('saleLine'),
    company_id: companyId,
    document_id: saleId,
    position: i + 1,
    classification_code: kpd.get(l.product_id) ?? null,
    unit_code: unitCodes.get(l.unit_id) ?? null,
  }));
  // The totals the sale's JSON and print show (totalsView), so payments settle exactly what they say.
  const totals = totalsView(lines);
  const [net, tax, withTax] = [totals.net, totals.tax, totals.withTax].map((amount) =>
    Number(parseScaled(amount, MONEY_SCALE)),
  ) as [number, number, number];
  const createdAt = now.toISOString();
  const number = testPrefix(source.mode) + formatDocumentNumber('S', location.code, year, seq);
  const counter = source.type === 'counter';
  const facts = await issueFacts(repos, {
    companyId,
    location,
    now,
    paymentMethod: input.paymentMethod,
    operatorId: input.createdBy,
    correction: false,
    mode: source.mode,
    paymentTermsDays: customer.paymentTermsDays ?? null,
  });
  const row: SaleRow = {
    ...facts,
    kind: 'invoice',
    corrects_sale_id: null,
    correction_reason: null,
    exemption_reason: await exemptionReason(repos, companyId, lines),
    cancelled_at: null,
    credited_minor: 0,
    id: saleId,
    company_id: companyId,
    location_id: location.id,
    number,
    mode: source.mode,
    status: 'unpaid',
    source_type: source.type,
    source_id: source.id,
    // A counter sale is its own source: it points at itself rather than at nothing.
    source_number: counter ? number : source.number,
    customer_id: customer.id,
    customer_kind: customer.kind,
    customer_name: customer.name,
    customer_tax_id: customer.taxId,
    customer_email: customer.email,
    customer_phone: customer.phone,
    customer_address: customer.address ? JSON.stringify(customer.address) : null,
    note: source.note,
    currency: source.currency,
    prices_include_tax: source.pricesIncludeTax,
    repriced: input.repriced,
    net_minor: net,
    tax_minor: tax,
    total_minor: withTax,
    paid_minor: 0,
    created_by: input.createdBy,
    created_at: createdAt,
    tendered_minor: input.tenderedMinor ?? null,
    delivery_date: input.deliveryDate ?? facts.delivery_date,
    order_reference: input.orderReference ?? null,
  };
  await insertIssued(repos, row, lines, input.timezone);
  await repos.sales.insertSaleLines(lines);
  const asEInvoice = await goesAsEInvoice(repos, row);
  const fiscal = await fiscalise(fiscaliser, repos, row, lines, asEInvoice);
  await enqueueEvent(
    repos,
    {
      companyId,
      locationId: location.id,
      type: 'sale.created',
      livemode: source.mode === 'live',
      data: {
        saleId,
        number: row.number,
        invoiceNumber: row.invoice_number ?? row.number,
        paymentMethod: input.paymentMethod,
        source: { type: source.type, id: source.id, number: row.source_number },
        customerName: customer.name,
        totalWithTax: formatMoney(row.total_minor),
        locationName: location.name,
        lineCount: lines.length,
      },
    },
    { now: createdAt, newId },
  );
  return { row, lines, fiscal, location, asEInvoice };
}

/**
 * Why the 0 % lines are exempt, as the company's 0 % tax rates say at issue (the line keeps its
 * rate, not the rate's record); null when no line is exempt or no reason is set.
 */
export async function exemptionReason(
  repos: { catalog: Pick<CatalogReads, 'listTaxRates'> },
  companyId: string,
  lines: readonly DocumentLineRow[],
): Promise<string | null> {
  if (!lines.some((l) => l.tax_rate_bp === 0)) return null;
  const reasons = (await repos.catalog.listTaxRates(companyId))
    .filter((r) => r.rate_bp === 0 && r.exemption_reason)
    .map((r) => r.exemption_reason!);
  return reasons.length === 0 ? null : [...new Set(reasons)].join('; ');
}

/** The directory the conversion reads its customer from (the customers module's service). */
export interface CustomerDirectory {
  get(companyId: string, id: string): Promise<CustomerSnapshot>;
}

/** The directory customer as the sale snapshots it, or 409 `customer_required` when the document has none. */
export async function customerForSale(
  directory: CustomerDirectory,
  companyId: string,
  customerId: string | null,
  what: 'quotation' | 'order' | 'sale',
): Promise<CustomerSnapshot> {
  if (!customerId) {
    throw new AppError(
      'customer_required',
      said(what === 'quotation' ? 'error.customer.requiredQuotation' : 'error.customer.requiredOrder'),
    );
  }
  const c = await directory.get(companyId, customerId);
  return {
    id: c.id,
    kind: c.kind,
    name: c.name,
    taxId: c.taxId,
    email: c.email,
    phone: c.phone,
    address: c.address,
    paymentTermsDays: c.paymentTermsDays ?? null,
    electronicAddress: c.electronicAddress ?? null,
    buyerReference: c.buyerReference ?? null,
  };
}

/** `YYYY-MM-DD` naming a day the calendar has (not 2026-02-30). */
function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const day = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === text;
}
