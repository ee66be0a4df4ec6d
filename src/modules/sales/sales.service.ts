import { AppError, addFieldError, fieldErrors } from '../../lib/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import { formatMoney, parseScaled, MONEY_SCALE } from '../../lib/money.ts';
import type { Store } from '../../db/store.ts';
import { toCompany } from '../companies/index.ts';
import type { PrintSlot } from '../printing/index.ts';
import type { CompaniesRepository, Company, LocationRow } from '../companies/index.ts';
import { toLineView, totalsView, type DocumentLineRow, type LineView, type TotalsView } from '../documents/index.ts';
import type { PaymentRow, SaleFilter, SaleRow, SalesRepository } from './sales.repository.ts';
import type { SaleSourceType } from './sale-creation.ts';
import { toSalePrint } from './sale-print.ts';
import { said } from '../i18n/index.ts';

export const PAYMENT_METHODS = ['cash', 'card', 'bank_transfer'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const SALE_STATUSES = ['unpaid', 'partially_paid', 'paid'] as const;
export type SaleStatus = (typeof SALE_STATUSES)[number];

export interface PaymentView {
  id: string;
  method: PaymentMethod;
  amount: string;
  createdAt: string;
}

export interface SaleView {
  id: string;
  number: string;
  status: SaleStatus;
  locationId: string;
  createdAt: string;
  source: { type: SaleSourceType; id: string; number: string };
  customer: {
    id: string;
    kind: string;
    name: string;
    taxId: string | null;
    email: string | null;
    phone: string | null;
    address: { street: string; postalCode: string; city: string; country: string } | null;
  };
  note: string | null;
  currency: string;
  /** Priced at the day of conversion rather than as quoted (an expired quotation, converted by an admin). */
  repriced: boolean;
  lines: LineView[];
  totals: TotalsView;
  paid: string;
  balance: string;
  payments: PaymentView[];
}

export function toSaleView(row: SaleRow, lines: readonly DocumentLineRow[], payments: readonly PaymentRow[]): SaleView {
  return {
    id: row.id,
    number: row.number,
    status: row.status as SaleStatus,
    locationId: row.location_id,
    createdAt: row.created_at,
    source: { type: row.source_type as SaleSourceType, id: row.source_id, number: row.source_number },
    customer: {
      id: row.customer_id,
      kind: row.customer_kind,
      name: row.customer_name,
      taxId: row.customer_tax_id,
      email: row.customer_email,
      phone: row.customer_phone,
      address: row.customer_address ? (JSON.parse(row.customer_address) as SaleView['customer']['address']) : null,
    },
    note: row.note,
    currency: row.currency,
    repriced: Boolean(row.repriced),
    lines: lines.map(toLineView),
    totals: totalsView(lines),
    paid: formatMoney(row.paid_minor),
    balance: formatMoney(row.total_minor - row.paid_minor),
    payments: payments.map((p) => ({
      id: p.id,
      method: p.method as PaymentMethod,
      amount: formatMoney(p.amount_minor),
      createdAt: p.created_at,
    })),
  };
}

export function createSalesService(deps: {
  store: Store<{ sales: SalesRepository; companies: CompaniesRepository }>;
  clock: Clock;
  newId: IdGenerator;
}) {
  const { store, clock, newId } = deps;

  async function load(companyId: string, id: string) {
    const row = await store.repos.sales.find(companyId, id);
    if (!row) throw AppError.notFound('Sale');
    return row;
  }

  async function get(companyId: string, id: string): Promise<SaleView> {
    const row = await load(companyId, id);
    const [lines, payments] = await Promise.all([
      store.repos.sales.listLines(companyId, id),
      store.repos.sales.listPayments(companyId, id),
    ]);
    return toSaleView(row, lines, payments);
  }

  return {
    get,

    async list(
      companyId: string,
      filter: SaleFilter,
      page: { limit: number; before?: { createdAt: string; id: string } },
    ): Promise<SaleView[]> {
      const rows = await store.repos.sales.list(companyId, filter, page);
      const ids = rows.map((r) => r.id);
      const [lines, payments] = await Promise.all([
        store.repos.sales.listLinesOf(companyId, ids),
        store.repos.sales.listPaymentsOf(companyId, ids),
      ]);
      return rows.map((row) =>
        toSaleView(
          row,
          lines.filter((l) => l.document_id === row.id),
          payments.filter((p) => p.sale_id === row.id),
        ),
      );
    },

    /** How many are in one of `statuses`, up to COUNT_CAP (src/db/capped-count.ts): Today's cards. */
    async countWithStatus(companyId: string, statuses: readonly SaleStatus[]): Promise<number> {
      return store.repos.sales.countWithStatus(companyId, statuses);
    },

    /**
     * Records a payment: `unpaid` → `partially_paid` → `paid`. The amount is a decimal string of
     * the currency (like every money field); more than the balance is a 400 naming `amount`.
     */
    async recordPayment(
      companyId: string,
      saleId: string,
      input: { method: PaymentMethod; amount: string },
      recordedBy: string | null,
    ): Promise<SaleView> {
      const details = fieldErrors();
      let amountMinor = 0;
      try {
        amountMinor = Number(parseScaled(input.amount, MONEY_SCALE));
        if (amountMinor <= 0) addFieldError(details, 'amount', said('error.greaterThanZero'));
        else if (!Number.isSafeInteger(amountMinor)) addFieldError(details, 'amount', said('error.tooLarge'));
      } catch {
        addFieldError(details, 'amount', said('error.payment.amountForm'));
      }
      if (Object.keys(details).length > 0) throw AppError.invalid(details);
      const now = clock.now().toISOString();
      await store.unitOfWork(async (repos) => {
        const sale = await repos.sales.find(companyId, saleId);
        if (!sale) throw AppError.notFound('Sale');
        const updated = await repos.sales.addPaid(companyId, saleId, amountMinor);
        if (!updated) {
          const balance = sale.total_minor - sale.paid_minor;
          const invalid = fieldErrors();
          addFieldError(
            invalid,
            'amount',
            balance === 0
              ? said('error.payment.paidInFull')
              : said('error.payment.overBalance', { balance: formatMoney(balance), currency: sale.currency }),
          );
          throw AppError.invalid(invalid, said('error.payment.overBalanceSummary'));
        }
        await repos.sales.insertPayment({
          id: newId('payment'),
          company_id: companyId,
          sale_id: saleId,
          method: input.method,
          amount_minor: amountMinor,
          recorded_by: recordedBy,
          created_at: now,
        });
      });
      return get(companyId, saleId);
    },

    /** The sale's print, through the one printer: titled as a sale, naming its source. */
    async renderPdf(companyId: string, id: string, slot: PrintSlot): Promise<{ number: string; pdf: Buffer }> {
      const row = await load(companyId, id);
      const [lines, companyRow, location] = await Promise.all([
        store.repos.sales.listLines(companyId, id),
        store.repos.companies.findCompany(companyId),
        store.repos.companies.findLocation(companyId, row.location_id),
      ]);
      const printed = await slot.print({
        document: toSalePrint(row, lines, toCompany(companyRow!), location!),
        datasheets: [],
      });
      return {
        number: row.number,
        pdf: Buffer.from(printed.pdf.buffer, printed.pdf.byteOffset, printed.pdf.byteLength),
      };
    },
  };
}
export type SalesService = ReturnType<typeof createSalesService>;
