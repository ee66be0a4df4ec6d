import { AppError, addFieldError, fieldErrors } from '../../lib/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import { formatMoney, parseScaled, MONEY_SCALE } from '../../lib/money.ts';
import type { Store } from '../../db/store.ts';
import { toCompany } from '../companies/index.ts';
import type { PrintSlot } from '../printing/index.ts';
import type { FiscalStatusReader } from '../fiscal/index.ts';
import { enqueueEvent } from '../webhooks/index.ts';
import { cancelInvoice, creditInvoice, type CorrectionRepos, type Issued } from './corrections.ts';
import { deliverFiscal, type IssueFiscaliser } from './invoice-issue.ts';
import type { SaleFilter, SaleRow } from './sales.repository.ts';
import { balanceMinor, toSaleView, type PaymentMethod, type SaleStatus, type SaleView } from './sale-view.ts';
import { toSalePrint } from './sale-print.ts';
import { said } from '../i18n/index.ts';

export function createSalesService(deps: {
  store: Store<CorrectionRepos>;
  clock: Clock;
  newId: IdGenerator;
  /** The fiscal step of every cancellation and credit note, in its issuing transaction. */
  fiscaliser: IssueFiscaliser;
  /** The fiscal status of documents already issued (the receipt comes later). */
  fiscalStatus: FiscalStatusReader;
  onEventQueued: () => void;
}) {
  const { store, clock, newId } = deps;

  async function load(companyId: string, id: string) {
    const row = await store.repos.sales.find(companyId, id);
    if (!row) throw AppError.notFound('Sale');
    return row;
  }

  async function get(companyId: string, id: string): Promise<SaleView> {
    const row = await load(companyId, id);
    const [lines, payments, corrections, fiscal] = await Promise.all([
      store.repos.sales.listLines(companyId, id),
      store.repos.sales.listPayments(companyId, id),
      store.repos.sales.listCorrections(companyId, id),
      deps.fiscalStatus.statusOf(companyId, [id]),
    ]);
    return toSaleView(row, lines, payments, { fiscal: fiscal.get(id), corrections });
  }

  /** Announces a payment's change with what is due afterwards. */
  async function paymentEvent(
    repos: CorrectionRepos,
    type: 'payment.recorded' | 'payment.voided',
    sale: SaleRow,
    payment: { id: string; method: string; amount_minor: number },
    now: string,
    reason?: string,
  ): Promise<void> {
    const after = (await repos.sales.find(sale.company_id, sale.id))!;
    const base = {
      saleId: sale.id,
      invoiceNumber: sale.invoice_number,
      paymentId: payment.id,
      method: payment.method as PaymentMethod,
      amount: formatMoney(payment.amount_minor),
      balance: formatMoney(balanceMinor(after)),
    };
    const where = { companyId: sale.company_id, locationId: sale.location_id, livemode: sale.mode !== 'test' };
    await enqueueEvent(
      repos,
      type === 'payment.voided'
        ? { ...where, type, data: { ...base, reason: reason ?? '' } }
        : { ...where, type, data: base },
      { now, newId },
    );
  }

  async function correct(work: (repos: CorrectionRepos) => Promise<Issued>): Promise<SaleView> {
    const issued = await store.unitOfWork(work);
    deps.onEventQueued();
    const fiscal = await deliverFiscal(deps.fiscaliser, issued.row.company_id, issued.row.id, issued.fiscal);
    return toSaleView(issued.row, issued.lines, [], { fiscal });
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
      const [lines, payments, fiscal] = await Promise.all([
        store.repos.sales.listLinesOf(companyId, ids),
        store.repos.sales.listPaymentsOf(companyId, ids),
        deps.fiscalStatus.statusOf(companyId, ids),
      ]);
      return rows.map((row) =>
        toSaleView(
          row,
          lines.filter((l) => l.document_id === row.id),
          payments.filter((p) => p.sale_id === row.id),
          { fiscal: fiscal.get(row.id) },
        ),
      );
    },

    /** Every test sale (converted from test documents) with its corrections, lines and payments: "delete test data". */
    async deleteTestData(companyId: string): Promise<number> {
      return store.unitOfWork((repos) => repos.sales.deleteTest(companyId));
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
          const balance = balanceMinor(sale);
          const invalid = fieldErrors();
          addFieldError(
            invalid,
            'amount',
            sale.kind !== 'invoice'
              ? said('error.payment.notInvoice')
              : sale.status === 'cancelled'
                ? said('error.payment.invoiceCancelled')
                : balance <= 0
                  ? said('error.payment.paidInFull')
                  : said('error.payment.overBalance', {
                      balance: balance / 10 ** MONEY_SCALE,
                      currency: sale.currency,
                    }),
          );
          throw AppError.invalid(invalid, said('error.payment.overBalanceSummary'));
        }
        const payment = {
          id: newId('payment'),
          company_id: companyId,
          sale_id: saleId,
          method: input.method,
          amount_minor: amountMinor,
          recorded_by: recordedBy,
          created_at: now,
          voided_at: null,
          voided_by: null,
          void_reason: null,
        };
        await repos.sales.insertPayment(payment);
        await paymentEvent(repos, 'payment.recorded', sale, payment, now);
      });
      deps.onEventQueued();
      return get(companyId, saleId);
    },

    /**
     * Reverses a payment recorded by mistake: kept, marked with who voided it, when and why, and
     * no longer counted; the balance and status follow. A payment already voided is a 409.
     */
    async voidPayment(
      companyId: string,
      saleId: string,
      paymentId: string,
      reason: string,
      voidedBy: string | null,
    ): Promise<SaleView> {
      const now = clock.now().toISOString();
      await store.unitOfWork(async (repos) => {
        const sale = await repos.sales.find(companyId, saleId);
        if (!sale) throw AppError.notFound('Sale');
        const payment = await repos.sales.findPayment(companyId, saleId, paymentId);
        if (!payment) throw AppError.notFound('Payment');
        if (
          !(await repos.sales.voidPayment(companyId, paymentId, {
            voided_at: now,
            voided_by: voidedBy,
            void_reason: reason,
          }))
        )
          throw new AppError('conflict', said('error.payment.alreadyVoided'));
        await repos.sales.subtractPaid(companyId, saleId, payment.amount_minor);
        await paymentEvent(repos, 'payment.voided', sale, payment, now, reason);
      });
      deps.onEventQueued();
      return get(companyId, saleId);
    },

    /** Issues a cancellation invoice for an invoice (admins): `sale.cancelled`. */
    cancel: (companyId: string, saleId: string, reason: string, actorId: string | null) =>
      correct((repos) =>
        cancelInvoice(repos, { companyId, saleId, reason, actorId, now: clock.now() }, newId, deps.fiscaliser),
      ),

    /** Issues a credit note for part of an invoice (admins): `credit_note.created`. */
    creditNote: (
      companyId: string,
      saleId: string,
      input: { lines: ReadonlyArray<{ lineId: string; quantity: string }>; reason: string },
      actorId: string | null,
    ) =>
      correct((repos) =>
        creditInvoice(
          repos,
          { companyId, saleId, reason: input.reason, lines: input.lines, actorId, now: clock.now() },
          newId,
          deps.fiscaliser,
        ),
      ),

    /** The sale's print, through the one printer: an invoice, storno or credit note, following the money. */
    async renderPdf(companyId: string, id: string, slot: PrintSlot): Promise<{ number: string; pdf: Buffer }> {
      const row = await load(companyId, id);
      const [lines, payments, companyRow, location, fiscal, original] = await Promise.all([
        store.repos.sales.listLines(companyId, id),
        store.repos.sales.listPayments(companyId, id),
        store.repos.companies.findCompany(companyId),
        store.repos.companies.findLocation(companyId, row.location_id),
        deps.fiscalStatus.statusOf(companyId, [id]),
        row.corrects_sale_id ? store.repos.sales.find(companyId, row.corrects_sale_id) : Promise.resolve(undefined),
      ]);
      const printed = await slot.print({
        document: toSalePrint(row, lines, toCompany(companyRow!), location!, {
          payments,
          fiscal: fiscal.get(id),
          original: original ?? null,
        }),
        datasheets: [],
      });
      return {
        // The file keeps the internal number: unique across years, and free of the legal number's slashes.
        number: row.number,
        pdf: Buffer.from(printed.pdf.buffer, printed.pdf.byteOffset, printed.pdf.byteLength),
      };
    },
  };
}
export type SalesService = ReturnType<typeof createSalesService>;
