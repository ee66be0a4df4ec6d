import { AppError } from '../../lib/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import { formatMoney } from '../../lib/money.ts';
import { searchKey } from '../../lib/search-key.ts';
import type { Store } from '../../db/store.ts';
import type { CatalogService } from '../catalog/index.ts';
import type { ApiCaller } from '../api-keys/index.ts';
import type { CustomerReads } from '../customers/index.ts';
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
import type { OrderFilter, OrderRow } from './orders.repository.ts';
import { createOrderTransitions, type OrderTransitionRepos } from './order-transitions.ts';

export interface NewOrder {
  customer: { name: string; email: string; phone: string; address?: string | null };
  lines: LineRequest[];
  note?: string | null;
  externalReference?: string | null;
}

export const ORDER_STATUSES = ['received', 'accepted', 'converted', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** The states a web order may still leave (accepted, converted, cancelled) or get its customer in. */
export const ORDER_OPEN_STATUSES: readonly OrderStatus[] = ['received', 'accepted'];
export function isOrderOpen(status: string): boolean {
  return (ORDER_OPEN_STATUSES as readonly string[]).includes(status);
}

export interface OrderView {
  id: string;
  number: string;
  status: OrderStatus;
  locationId: string;
  createdAt: string;
  customer: { name: string; email: string; phone: string; address: string | null };
  /** The directory customer staff assigned (its current name); the placeholder `customer` stays as it arrived. */
  directoryCustomer: { id: string; name: string } | null;
  note: string | null;
  externalReference: string | null;
  acceptedAt: string | null;
  /** The sale it was converted to (status `converted`). */
  saleId: string | null;
  cancelledAt: string | null;
  cancellationReason: string | null;
  currency: string;
  lines: LineView[];
  totals: TotalsView;
}

/** Orders and their numbers, the names of their directory customers, and what a transition writes. */
type OrdersRepos = OrderTransitionRepos & { customers: Pick<CustomerReads, 'findMany'> };

export function createOrdersService(deps: {
  store: Store<OrdersRepos>;
  clock: Clock;
  newId: IdGenerator;
  catalog: CatalogService;
  onEventQueued: () => void;
  /** Where conversion reads the directory customer a sale snapshots. */
  customers: CustomerDirectory;
  /** The fiscal step of the invoice a conversion issues. */
  fiscaliser: IssueFiscaliser;
}) {
  const { store, clock, newId } = deps;

  /** The names of the directory customers the orders are assigned, by id, in one query. */
  async function assignedNames(companyId: string, rows: readonly OrderRow[]): Promise<Map<string, string>> {
    const ids = rows.flatMap((r) => (r.directory_customer_id === null ? [] : [r.directory_customer_id]));
    return new Map((await store.repos.customers.findMany(companyId, ids)).map((c) => [c.id, c.name]));
  }

  return {
    ...createOrderTransitions(deps),

    /** The order, its lines, its order.created event and the request's commit hooks (its Idempotency-Key) commit together. */
    async create(caller: ApiCaller, input: NewOrder): Promise<OrderView> {
      const now = clock.now();
      const priced = await priceLines(
        (requested) => deps.catalog.resolveLines(caller.companyId, requested),
        input.lines,
      );
      const id = newId('order');
      const createdAt = now.toISOString();
      const result = await store.unitOfWork(
        async (repos) => {
          const location = await repos.companies.findLocation(caller.companyId, caller.locationId);
          if (!location) throw AppError.notFound('Location');
          const year = yearIn(now, priced.company.timezone);
          const mode = caller.mode ?? 'live';
          const seq = await repos.sequences.next(caller.companyId, location.id, sequenceKind('order', mode), year);
          const row: OrderRow = {
            id,
            company_id: caller.companyId,
            location_id: location.id,
            api_key_id: caller.apiKeyId,
            number: testPrefix(mode) + formatDocumentNumber('O', location.code, year, seq),
            status: 'received',
            customer_name: input.customer.name,
            customer_email: input.customer.email,
            customer_phone: input.customer.phone,
            customer_address: input.customer.address ?? null,
            directory_customer_id: null,
            note: input.note ?? null,
            external_reference: input.externalReference ?? null,
            currency: priced.company.currency,
            prices_include_tax: priced.company.pricesIncludeTax,
            net_minor: priced.totals.net,
            tax_minor: priced.totals.tax,
            total_minor: priced.totals.withTax,
            created_at: createdAt,
            sale_id: null,
            accepted_at: null,
            cancelled_at: null,
            cancellation_reason: null,
            customer_name_key: searchKey(input.customer.name),
            mode,
          };
          const lines = lineRows(priced.lines, caller.companyId, id, newId, 'orderLine');
          await repos.orders.insert(row);
          await repos.orders.insertLines(lines);
          await enqueueEvent(
            repos,
            {
              companyId: caller.companyId,
              locationId: location.id,
              livemode: mode === 'live',
              type: 'order.created',
              data: {
                orderId: id,
                number: row.number,
                customerName: row.customer_name,
                totalWithTax: formatMoney(row.total_minor),
                locationName: location.name,
                lineCount: lines.length,
                externalReference: row.external_reference,
              },
            },
            { now: createdAt, newId },
          );
          return { row, lines };
        },
        { creates: id },
      );
      deps.onEventQueued();
      return toView(result.row, result.lines, new Map());
    },

    /** `atLocation`: a location key reads only what its location created; the hub reads the whole company. `mode`: only that mode's. */
    async get(companyId: string, id: string, atLocation?: string, mode?: 'live' | 'test'): Promise<OrderView> {
      const row = await store.repos.orders.find(companyId, id, atLocation, mode);
      if (!row) throw AppError.notFound('Order');
      return toView(row, await store.repos.orders.listLines(companyId, id), await assignedNames(companyId, [row]));
    },

    /** The hub's list, newest first; `q` as documentSearch (src/modules/documents/document-search.ts) says. */
    async list(
      companyId: string,
      opts: { limit: number; before?: { createdAt: string; id: string } },
      filter: OrderFilter = {},
    ): Promise<OrderView[]> {
      const rows = await store.repos.orders.list(companyId, opts, filter);
      const lines = await store.repos.orders.listLinesOf(
        companyId,
        rows.map((r) => r.id),
      );
      const names = await assignedNames(companyId, rows);
      return rows.map((row) =>
        toView(
          row,
          lines.filter((l) => l.document_id === row.id),
          names,
        ),
      );
    },

    /** How many are in one of `statuses`, up to COUNT_CAP (src/db/capped-count.ts): Today's cards. */
    async countWithStatus(companyId: string, statuses: readonly OrderStatus[]): Promise<number> {
      return store.repos.orders.countWithStatus(companyId, statuses);
    },

    /** Every test order of the company and its lines, gone (none was converted: see convert). */
    async deleteTestData(companyId: string): Promise<number> {
      return store.unitOfWork((repos) => repos.orders.deleteTest(companyId));
    },
  };
}
export type OrdersService = ReturnType<typeof createOrdersService>;

function toView(row: OrderRow, lines: DocumentLineRow[], customerNames: ReadonlyMap<string, string>): OrderView {
  const assignedName = row.directory_customer_id === null ? undefined : customerNames.get(row.directory_customer_id);
  return {
    id: row.id,
    number: row.number,
    status: row.status as OrderStatus,
    locationId: row.location_id,
    createdAt: row.created_at,
    customer: {
      name: row.customer_name,
      email: row.customer_email,
      phone: row.customer_phone,
      address: row.customer_address,
    },
    directoryCustomer: assignedName === undefined ? null : { id: row.directory_customer_id!, name: assignedName },
    note: row.note,
    externalReference: row.external_reference,
    acceptedAt: row.accepted_at,
    saleId: row.sale_id,
    cancelledAt: row.cancelled_at,
    cancellationReason: row.cancellation_reason,
    currency: row.currency,
    lines: lines.map(toLineView),
    totals: totalsView(lines),
  };
}
