import type { CatalogReads } from '../catalog/index.ts';
import { said } from '../i18n/index.ts';
import { AppError } from '../../lib/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import type { Store } from '../../db/store.ts';
import { toCompany, type CompanyDirectory } from '../companies/index.ts';
import { type InvoicePaymentMethod, type SaleView } from '../sales/index.ts';
import {
  customerForSale,
  DEFAULT_PAYMENT_METHOD,
  issueInvoice,
  issuedView,
  type CustomerDirectory,
  type IssueFiscaliser,
  type IssueRepos,
} from '../invoicing/index.ts';
import { enqueueEvent } from '../webhooks/index.ts';
import type { OrderRow, OrdersRepository } from './orders.repository.ts';
import type { OrderStatus } from './orders.service.ts';

/** An order's moves and their events; converting one also issues its invoice (invoicing.issueInvoice). */
export type OrderTransitionRepos = IssueRepos & {
  orders: OrdersRepository;
  companies: CompanyDirectory;
  catalog: Pick<CatalogReads, 'listTaxRates'>;
};

/** Where each status may go next: `received` → `accepted` → `converted`; either open state → `cancelled`. */
const FROM: Record<'accepted' | 'converted' | 'cancelled', readonly string[]> = {
  accepted: ['received'],
  converted: ['accepted'],
  cancelled: ['received', 'accepted'],
};

export interface Actor {
  companyId: string;
  userId: string;
}

function notOpen(row: OrderRow, to: keyof typeof FROM): AppError {
  const { number } = row;
  return new AppError(
    'order_not_open',
    row.status === 'converted'
      ? said('error.order.converted', { number })
      : row.status === 'cancelled'
        ? said('error.order.cancelled', { number })
        : to === 'accepted'
          ? said('error.order.alreadyAccepted', { number })
          : said('error.order.acceptFirst', { number }),
  );
}

/**
 * A web order's life after the website: each change is a conditional update (the row must
 * still be in a state it may leave), with its `order.status_changed` event in the same unit of
 * work, so two concurrent changes never both pass and no change goes unannounced.
 */
export function createOrderTransitions(deps: {
  store: Store<OrderTransitionRepos>;
  clock: Clock;
  newId: IdGenerator;
  customers: CustomerDirectory;
  onEventQueued: () => void;
  /** The fiscal step of the invoice a conversion issues. */
  fiscaliser: IssueFiscaliser;
}) {
  const { store, clock, newId } = deps;

  async function find(companyId: string, id: string): Promise<OrderRow> {
    const row = await store.repos.orders.find(companyId, id);
    if (!row) throw AppError.notFound('Order');
    return row;
  }

  /**
   * Inside a unit of work: moves the order from the status it has now, if that may go to `to`,
   * and announces it with that status as `previousStatus`. The update is conditional on the
   * status just read, so a change made in between fails this one rather than being misreported.
   */
  async function move(
    repos: OrderTransitionRepos,
    companyId: string,
    id: string,
    to: keyof typeof FROM,
    change: Parameters<OrdersRepository['transition']>[3],
    now: string,
  ): Promise<OrderRow> {
    const row = await repos.orders.find(companyId, id);
    if (!row) throw AppError.notFound('Order');
    if (!FROM[to].includes(row.status) || !(await repos.orders.transition(companyId, id, row.status, change))) {
      throw notOpen((await repos.orders.find(companyId, id))!, to);
    }
    await enqueueEvent(
      repos,
      {
        companyId,
        locationId: row.location_id,
        livemode: row.mode !== 'test',
        type: 'order.status_changed',
        data: { orderId: row.id, number: row.number, status: to, previousStatus: row.status as OrderStatus },
      },
      { now, newId },
    );
    return row;
  }

  async function simple(companyId: string, id: string, to: 'accepted' | 'cancelled', reason?: string): Promise<void> {
    const row = await find(companyId, id);
    if (!FROM[to].includes(row.status)) throw notOpen(row, to);
    const now = clock.now().toISOString();
    await store.unitOfWork(async (repos) => {
      await move(
        repos,
        companyId,
        id,
        to,
        to === 'accepted'
          ? { status: to, accepted_at: now }
          : { status: to, cancelled_at: now, cancellation_reason: reason ?? null },
        now,
      );
    });
    deps.onEventQueued();
  }

  return {
    accept: (companyId: string, id: string) => simple(companyId, id, 'accepted'),
    cancel: (companyId: string, id: string, reason: string) => simple(companyId, id, 'cancelled', reason),

    /** An accepted order with a directory customer becomes a sale at the prices it was ordered at. */
    async convert(
      actor: Actor,
      id: string,
      opts: { paymentMethod?: InvoicePaymentMethod; deliveryDate?: string | null; orderReference?: string | null } = {},
    ): Promise<SaleView> {
      const row = await find(actor.companyId, id);
      if (!FROM.converted.includes(row.status)) throw notOpen(row, 'converted');
      const customer = await customerForSale(deps.customers, actor.companyId, row.directory_customer_id, 'order');
      const company = toCompany((await store.repos.companies.findCompany(actor.companyId))!);
      const now = clock.now();
      const saleId = newId('sale');
      const result = await issueInvoice(deps, {
        companyId: actor.companyId,
        saleId,
        customer,
        repriced: false,
        createdBy: actor.userId,
        now,
        timezone: company.timezone,
        paymentMethod: opts.paymentMethod ?? DEFAULT_PAYMENT_METHOD,
        deliveryDate: opts.deliveryDate ?? null,
        // The buyer's order number: as given now, else the web order's own reference.
        orderReference: opts.orderReference ?? row.external_reference ?? null,
        source: async (repos) => {
          await move(
            repos,
            actor.companyId,
            id,
            'converted',
            { status: 'converted', sale_id: saleId },
            now.toISOString(),
          );
          return {
            type: 'order',
            id,
            number: row.number,
            locationId: row.location_id,
            note: row.note,
            currency: row.currency,
            pricesIncludeTax: Boolean(row.prices_include_tax),
            mode: row.mode === 'test' ? 'test' : 'live',
            lines: await repos.orders.listLines(actor.companyId, id),
          };
        },
      });
      return issuedView(result);
    },
  };
}
