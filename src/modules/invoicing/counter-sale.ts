import { AppError, addFieldError, fieldErrors } from '../../lib/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { formatMoney, MONEY_SCALE, parseScaled } from '../../lib/money.ts';
import type { CatalogService } from '../catalog/index.ts';
import { lineRows, priceLines, type LineRequest } from '../documents/index.ts';
import { resolveLanguage, said, translate } from '../i18n/index.ts';
import type { SaleView } from '../sales/index.ts';
import { enqueueEvent } from '../webhooks/index.ts';
import type { TseRecord } from '../fiscal/index.ts';
import { tseAmountsOf, type CounterTse } from './counter-tse.ts';
import {
  customerForSale,
  issueInvoice,
  type CustomerDirectory,
  type CustomerSnapshot,
  type IssueDeps,
  type IssueRepos,
} from './issue-invoice.ts';

/** How a counter sale is paid: there and then, so the invoice is paid when it is issued. */
export const COUNTER_PAYMENT_METHODS = ['cash', 'card'] as const;
export type CounterPaymentMethod = (typeof COUNTER_PAYMENT_METHODS)[number];

export interface CounterSale {
  lines: LineRequest[];
  /** A directory customer (an R-1 invoice for a business); absent: a walk-in customer. */
  customerId?: string | null;
  paymentMethod: CounterPaymentMethod;
  /** Cash handed over, a decimal string; at least the total. Only with cash. */
  tendered?: string | null;
  note?: string | null;
  /** Where it is sold (its series); the company's first location when absent. */
  locationId?: string;
  /** When the goods were delivered (BT-72); today when absent. */
  deliveryDate?: string | null;
  /** The buyer's order number (BT-13). */
  orderReference?: string | null;
}

/**
 * A walk-in customer has no directory record: the sale keeps the kind `walk_in`, no id (the
 * empty string: the column predates walk-ins and stays NOT NULL on SQLite without rebuilding the
 * table) and the label in the company's language as the name the invoice prints.
 */
export const WALK_IN_KIND = 'walk_in';

/**
 * A sale at the counter: the lines priced as a quotation's (discounts included), the invoice
 * issued exactly as a conversion issues it (`issueInvoice`: legal number, fiscal step in the same
 * transaction, `sale.created`), and the payment recorded with it (`payment.recorded`), so the
 * invoice is paid the moment it exists. With cash, what was handed over is kept for the receipt
 * and the change is what it says back.
 */
export function createCounterSales<R extends IssueRepos>(
  deps: IssueDeps<R> & {
    clock: Clock;
    catalog: CatalogService;
    customers: CustomerDirectory;
    get(companyId: string, id: string): Promise<SaleView>;
    /** Germany's TSE (KassenSichV): signs each counter transaction before its unit of work. */
    tse?: CounterTse;
  },
) {
  const { store, clock, newId } = deps;
  return {
    /**
     * What these lines come to, priced exactly as the sale will be: the counter's live total.
     * Null while some line cannot be priced yet (a quantity being typed).
     */
    async priceAtCounter(companyId: string, lines: LineRequest[]): Promise<number | null> {
      if (lines.length === 0) return 0;
      try {
        return (await priceLines((requested) => deps.catalog.resolveLines(companyId, requested), lines)).totals.withTax;
      } catch (error) {
        if (error instanceof AppError && error.code === 'validation_failed') return null;
        throw error;
      }
    },

    /**
     * A basket given up at the counter (the customer left, the card was declined): in Germany its
     * own TSE transaction, finished as aborted (DSFinV-K `AVBelegabbruch`), with what the basket
     * held; no document. Null where the company has no TSE.
     */
    async abortAtCounter(
      actor: { companyId: string },
      input: { lines: LineRequest[]; locationId?: string },
    ): Promise<TseRecord | null> {
      const { companyId } = actor;
      const details = fieldErrors();
      const priced = await priceLines(
        (requested) => deps.catalog.resolveLines(companyId, requested),
        input.lines,
        details,
      );
      const locations = await store.repos.companies.listLocations(companyId);
      const location = input.locationId === undefined ? locations[0] : locations.find((l) => l.id === input.locationId);
      if (!location) addFieldError(details, 'locationId', said('error.location.noSuchId'));
      if (Object.keys(details).length > 0) throw AppError.invalid(details);
      if (!deps.tse || priced.company.country !== 'DE' || !priced.company.fiscal.enabled) return null;
      const amounts = tseAmountsOf(priced.totals.taxes, 'cash');
      // Nothing was paid: the basket's amounts are recorded, no payment.
      return deps.tse.abort(companyId, location!.id, { ...amounts, cashMinor: 0, nonCashMinor: 0 });
    },

    async sellAtCounter(actor: { companyId: string; userId: string | null }, input: CounterSale): Promise<SaleView> {
      const { companyId } = actor;
      const details = fieldErrors();
      let tenderedMinor: number | null = null;
      if (input.tendered !== undefined && input.tendered !== null) {
        if (input.paymentMethod !== 'cash') addFieldError(details, 'tendered', said('error.counter.cashOnly'));
        else
          try {
            tenderedMinor = Number(parseScaled(input.tendered, MONEY_SCALE));
          } catch {
            addFieldError(details, 'tendered', said('error.counter.tenderedForm'));
          }
      }
      const priced = await priceLines(
        (requested) => deps.catalog.resolveLines(companyId, requested),
        input.lines,
        details,
      );
      if (tenderedMinor !== null && tenderedMinor < priced.totals.withTax)
        addFieldError(
          details,
          'tendered',
          said('error.counter.tenderedShort', { total: priced.totals.withTax / 10 ** MONEY_SCALE }),
        );
      const locations = await store.repos.companies.listLocations(companyId);
      const location = input.locationId === undefined ? locations[0] : locations.find((l) => l.id === input.locationId);
      if (!location) addFieldError(details, 'locationId', said('error.location.noSuchId'));
      if (Object.keys(details).length > 0) throw AppError.invalid(details);
      const company = priced.company;
      const customer: CustomerSnapshot = input.customerId
        ? await customerForSale(deps.customers, companyId, input.customerId, 'sale')
        : {
            id: '',
            kind: WALK_IN_KIND,
            name: translate(resolveLanguage(company.locale), 'print.walkInCustomer'),
            taxId: null,
            email: null,
            phone: null,
            address: null,
          };
      const saleId = newId('sale');
      // A German counter sale is a TSE transaction (§ 146a AO, § 2 KassenSichV) from the moment
      // Portico records it: this request (README, "Germany: the TSE"). Signed before the unit of
      // work, stored in it with the invoice.
      if (deps.tse && company.country === 'DE' && company.fiscal.enabled)
        await deps.tse.sign({
          companyId,
          locationId: location!.id,
          documentId: saleId,
          type: 'RECEIPT',
          amounts: tseAmountsOf(priced.totals.taxes, input.paymentMethod),
        });
      const now = clock.now();
      await issueInvoice(deps, {
        companyId,
        saleId,
        now,
        timezone: company.timezone,
        customer,
        repriced: false,
        createdBy: actor.userId,
        paymentMethod: input.paymentMethod,
        tenderedMinor,
        deliveryDate: input.deliveryDate ?? null,
        orderReference: input.orderReference ?? null,
        source: async () => ({
          type: 'counter',
          id: saleId,
          number: '',
          // Sold across the counter: live data (test data comes through test API keys).
          mode: 'live',
          locationId: location!.id,
          note: input.note ?? null,
          currency: company.currency,
          pricesIncludeTax: company.pricesIncludeTax,
          lines: lineRows(priced.lines, companyId, saleId, newId, 'quotationLine'),
        }),
        // Paid there and then: the payment commits with the invoice.
        alsoInTransaction: async (repos, issued) => {
          const amount = issued.row.total_minor;
          // A zero total (everything discounted away) is paid by nothing: no payment to record.
          if (amount <= 0) return;
          const createdAt = now.toISOString();
          const payment = {
            id: newId('payment'),
            company_id: companyId,
            sale_id: saleId,
            method: input.paymentMethod,
            amount_minor: amount,
            recorded_by: actor.userId,
            created_at: createdAt,
            voided_at: null,
            voided_by: null,
            void_reason: null,
          };
          await repos.sales.addPaid(companyId, saleId, amount);
          await repos.sales.insertPayment(payment);
          await enqueueEvent(
            repos,
            {
              companyId,
              locationId: location!.id,
              type: 'payment.recorded',
              data: {
                saleId,
                invoiceNumber: issued.row.invoice_number,
                paymentId: payment.id,
                method: input.paymentMethod,
                amount: formatMoney(amount),
                balance: formatMoney(0),
              },
            },
            { now: createdAt, newId },
          );
        },
      });
      return deps.get(companyId, saleId);
    },
  };
}
