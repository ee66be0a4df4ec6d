import { AppError } from '../../lib/errors.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import { formatMoney, MONEY_SCALE, parseScaled } from '../../lib/money.ts';
import type { CompaniesRepository } from '../companies/index.ts';
import { enqueueEvent, type EventOutbox } from '../webhooks/index.ts';
import {
  formatDocumentNumber,
  totalsView,
  yearIn,
  type DocumentLineRow,
  type SequencesRepository,
} from '../documents/index.ts';
import type { SaleRow, SalesRepository } from './sales.repository.ts';

/** A directory customer as the sale keeps it: a snapshot, so later edits do not rewrite a sale. */
export interface CustomerSnapshot {
  id: string;
  kind: string;
  name: string;
  taxId: string | null;
  email: string | null;
  phone: string | null;
  address: { street: string; postalCode: string; city: string; country: string } | null;
}

export type SaleSourceType = 'quotation' | 'order';

export interface SaleSource {
  type: SaleSourceType;
  id: string;
  number: string;
  locationId: string;
  note: string | null;
  currency: string;
  pricesIncludeTax: boolean;
  /** The lines the sale takes: the source's as stored, or repriced at today's prices. */
  lines: readonly DocumentLineRow[];
}

/**
 * Writes a sale for a source document inside the caller's unit of work: its own gap-free
 * number (`S-{location}-{year}-{seq}`), a copy of the lines with their notes and taxes, the
 * customer snapshot, and the `sale.created` event. The caller has already moved the source to
 * `converted` in the same unit of work, so the sale and the source's new state commit together.
 */
export async function insertSale(
  repos: {
    companies: CompaniesRepository;
    sequences: SequencesRepository;
    sales: SalesRepository;
    webhooks: EventOutbox;
  },
  input: {
    companyId: string;
    saleId: string;
    source: SaleSource;
    customer: CustomerSnapshot;
    repriced: boolean;
    createdBy: string | null;
    now: Date;
    timezone: string;
  },
  newId: IdGenerator,
): Promise<{ row: SaleRow; lines: DocumentLineRow[] }> {
  const { companyId, saleId, source, customer, now } = input;
  const location = await repos.companies.findLocation(companyId, source.locationId);
  if (!location) throw new Error(`location ${source.locationId} of ${source.type} ${source.id} is gone`);
  const year = yearIn(now, input.timezone);
  const seq = await repos.sequences.next(companyId, location.id, 'sale', year);
  const lines: DocumentLineRow[] = source.lines.map((l, i) => ({
    ...l,
    id: newId('saleLine'),
    company_id: companyId,
    document_id: saleId,
    position: i + 1,
  }));
  // The totals the sale's JSON and print show (totalsView), so payments settle exactly what they say.
  const totals = totalsView(lines);
  const [net, tax, withTax] = [totals.net, totals.tax, totals.withTax].map((amount) =>
    Number(parseScaled(amount, MONEY_SCALE)),
  ) as [number, number, number];
  const createdAt = now.toISOString();
  const row: SaleRow = {
    id: saleId,
    company_id: companyId,
    location_id: location.id,
    number: formatDocumentNumber('S', location.code, year, seq),
    status: 'unpaid',
    source_type: source.type,
    source_id: source.id,
    source_number: source.number,
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
  };
  await repos.sales.insert(row);
  await repos.sales.insertLines(lines);
  await enqueueEvent(
    repos,
    {
      companyId,
      locationId: location.id,
      type: 'sale.created',
      data: {
        saleId,
        number: row.number,
        source: { type: source.type, id: source.id, number: source.number },
        customerName: customer.name,
        totalWithTax: formatMoney(row.total_minor),
        locationName: location.name,
        lineCount: lines.length,
      },
    },
    { now: createdAt, newId },
  );
  return { row, lines };
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
  what: string,
): Promise<CustomerSnapshot> {
  if (!customerId) {
    throw new AppError(
      'customer_required',
      `Assign a directory customer to the ${what} before converting it (PUT …/customer).`,
    );
  }
  const c = await directory.get(companyId, customerId);
  return { id: c.id, kind: c.kind, name: c.name, taxId: c.taxId, email: c.email, phone: c.phone, address: c.address };
}
