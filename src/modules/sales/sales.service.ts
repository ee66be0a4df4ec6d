import { AppError, addFieldError, fieldErrors } from '../../lib/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import { formatMoney, parseScaled, MONEY_SCALE } from '../../lib/money.ts';
import type { Store } from '../../db/store.ts';
import { logoImage, toCompany } from '../companies/index.ts';
import type { PrintSlot } from '../printing/index.ts';
import type {
  Fiscaliser,
  FiscalPaymentMethod,
  FiscalRepos,
  FiscalStatus,
  FiscalStatusReader,
} from '../fiscal/index.ts';
import { enqueueEvent } from '../webhooks/index.ts';
import type { CatalogReads } from '../catalog/index.ts';
import type { CompanyDirectory } from '../companies/index.ts';
import type { EventOutbox } from '../webhooks/index.ts';
import type { SalesRepository } from './sales.repository.ts';
import type { SaleFilter, SaleRow } from './types.ts';
import type { SaleTotalsRepository } from './sale-totals.repository.ts';
import type { IssueSnapshot } from './issue-snapshot.ts';
import { balanceMinor, toSaleView, type PaymentMethod, type SaleStatus, type SaleView } from './sale-view.ts';
import { toSalePrint } from './sale-print.ts';
import { toStatement, type StatementView } from './statement.ts';
import { saleEInvoice } from './sale-einvoice.ts';
import { said } from '../i18n/index.ts';
import {
  assertReady,
  missingFields,
  toCii,
  toFacturX,
  toUbl,
  reportPayment,
  type EInvoice,
  type ExchangeStatusReader,
  type ExchangeView,
  type OutboundRepos,
} from '../einvoice/index.ts';

type ExchangeRepositoryPort = OutboundRepos['exchange'];

/** The tables the sales service reads and writes: sales, their payments, and what prints them. */
export type SalesRepos = {
  exchange: Pick<ExchangeRepositoryPort, 'findSends' | 'insertMessage'>;
  companies: CompanyDirectory;
  sales: SalesRepository;
  saleTotals: SaleTotalsRepository;
  webhooks: EventOutbox;
  catalog: Pick<CatalogReads, 'listTaxRates'>;
  /** A payment another way than the receipt says queues its change to CIS in the same unit of work. */
  fiscal: FiscalRepos['fiscal'];
};

export function createSalesService(deps: {
  store: Store<SalesRepos>;
  clock: Clock;
  newId: IdGenerator;
  /** The fiscal status of documents already issued (the receipt comes later). */
  fiscalStatus: FiscalStatusReader;
  /** The e-invoices of documents sent through the exchange (absent: none is ever sent). */
  exchangeStatus?: ExchangeStatusReader;
  /** Tells the fiscal authority of a payment in another method than an issued receipt states. */
  fiscalChanges?: Pick<Fiscaliser<FiscalRepos>, 'changePayment'>;
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
    const [lines, payments, corrections, fiscal, exchange] = await Promise.all([
      store.repos.sales.listLines(companyId, id),
      store.repos.sales.listPayments(companyId, id),
      store.repos.sales.listCorrections(companyId, id),
      deps.fiscalStatus.statusOf(companyId, [id]),
      exchangeOf(companyId, [id]),
    ]);
    const creditNotes = corrections.filter((c) => c.kind === 'credit_note').map((c) => c.id);
    const [creditLines, refunds] = await Promise.all([
      store.repos.sales.listSaleLines(companyId, creditNotes),
      store.repos.sales.listRefunds(companyId, [id], row.kind === 'invoice' ? 'invoice_id' : 'sale_id'),
    ]);
    return toSaleView(row, lines, payments, {
      fiscal: fiscal.get(id),
      exchange: exchange.get(id),
      corrections,
      creditLines,
      refunds,
    });
  }

  async function exchangeOf(companyId: string, ids: readonly string[]): Promise<Map<string, ExchangeView>> {
    return deps.exchangeStatus ? deps.exchangeStatus.statusOf(companyId, ids) : new Map();
  }

  /** Announces a payment's change with what is due afterwards. */
  async function paymentEvent(
    repos: SalesRepos,
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

  /**
   * A payment on an invoice sent as an e-invoice is reported through the exchange from its outbox
   * (EvidentirajNaplatu, Zakon o fiskalizaciji art. 50–53), dated the day it was recorded where
   * the company is.
   */
  async function reportToExchange(
    repos: SalesRepos,
    sale: SaleRow,
    amountMinor: number,
    method: string,
    now: string,
  ): Promise<void> {
    if (sale.kind !== 'invoice' || sale.mode !== 'live') return;
    const company = await repos.companies.findCompany(sale.company_id);
    const paidOn = new Intl.DateTimeFormat('en-CA', {
      timeZone: company?.timezone ?? 'UTC',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(new Date(now));
    await reportPayment(
      repos,
      { companyId: sale.company_id, saleId: sale.id, amountMinor, paidOn, method },
      { now, newId },
    );
  }

  /** A document issued before snapshots (0025): what today's records say, with what is paid now. */
  /** A logo by its hash as the printer embeds it (0028); null when none. */
  async function logoOf(
    companyId: string,
    sha256: string | undefined,
  ): Promise<{ png: Uint8Array; width: number; height: number } | null> {
    if (!sha256) return null;
    const logo = await store.repos.companies.findLogo(companyId, sha256);
    return logo ? logoImage(logo) : null;
  }

  async function asToday(row: SaleRow): Promise<IssueSnapshot> {
    const [companyRow, location, buyer] = await Promise.all([
      store.repos.companies.findCompany(row.company_id),
      store.repos.companies.findLocation(row.company_id, row.location_id),
      store.repos.sales.eInvoiceBuyer(row.company_id, row.customer_id),
    ]);
    return {
      version: 1,
      company: toCompany(companyRow!),
      location: location!,
      buyer: buyer ?? null,
      paidMinor: row.paid_minor,
    };
  }

  /**
   * The document as an EN 16931 e-invoice model (issue 21): from its stored lines, through the
   * same tax summary as the print; the profile chosen by the company's and buyer's countries.
   */
  async function eInvoiceModel(
    companyId: string,
    id: string,
    /** As issued: the seller, location, buyer's address and what was paid at issue (null: today's records). */
    snapshot: IssueSnapshot | null = null,
  ): Promise<{ model: EInvoice; buyerKind: string }> {
    const row = await load(companyId, id);
    if (!row.invoice_number) throw new AppError('conflict', said('error.einvoice.notIssued'));
    const [lines, issuedAs, original] = await Promise.all([
      store.repos.sales.listSaleLines(companyId, [id]),
      snapshot ?? asToday(row),
      row.corrects_sale_id ? store.repos.sales.find(companyId, row.corrects_sale_id) : Promise.resolve(undefined),
    ]);
    return saleEInvoice(row, lines, issuedAs, original ?? null);
  }

  return {
    get,

    async list(
      companyId: string,
      filter: SaleFilter,
      page: { limit: number; before?: { createdAt: string; id: string } },
      /**
       * `exchange: false`, `fiscal: false`: a list that shows no e-invoice or fiscal status (Today's
       * card) skips reading it (the hub's pages have a query budget).
       */
      opts: { exchange?: boolean; fiscal?: boolean } = {},
    ): Promise<SaleView[]> {
      const rows = await store.repos.sales.list(companyId, filter, page);
      const ids = rows.map((r) => r.id);
      const [lines, payments, fiscal, exchange] = await Promise.all([
        store.repos.sales.listLinesOf(companyId, ids),
        store.repos.sales.listPaymentsOf(companyId, ids),
        opts.fiscal === false ? new Map<string, FiscalStatus>() : deps.fiscalStatus.statusOf(companyId, ids),
        opts.exchange === false ? new Map<string, ExchangeView>() : exchangeOf(companyId, ids),
      ]);
      return rows.map((row) =>
        toSaleView(
          row,
          lines.filter((l) => l.document_id === row.id),
          payments.filter((p) => p.sale_id === row.id),
          { fiscal: fiscal.get(row.id), exchange: exchange.get(row.id) },
        ),
      );
    },

    /**
     * Every test sale (converted from test documents) with its corrections, lines, payments and
     * running totals: "delete test data".
     */
    async deleteTestData(companyId: string): Promise<number> {
      return store.unitOfWork(async (repos) => {
        await repos.saleTotals.deleteTest(companyId);
        return repos.sales.deleteTest(companyId);
      });
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
        await reportToExchange(repos, sale, amountMinor, input.method, now);
        // Paid another way than the receipt says: the fiscal authority is told the same day (fiscal/payment-change.ts).
        if (deps.fiscalChanges?.changePayment && sale.kind === 'invoice' && sale.payment_method) {
          const methods = new Set(
            (await repos.sales.listPayments(companyId, saleId)).filter((p) => !p.voided_at).map((p) => p.method),
          );
          if (balanceMinor(sale) > amountMinor) methods.add(sale.payment_method);
          await deps.fiscalChanges.changePayment(repos, {
            companyId,
            documentId: saleId,
            paymentMethod: methods.size === 1 ? ([...methods][0] as FiscalPaymentMethod) : 'other',
            at: new Date(now),
          });
        }
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
        // A void is reported as what it is: the payment taken back, a negative amount.
        await reportToExchange(repos, sale, -payment.amount_minor, payment.method, now);
      });
      deps.onEventQueued();
      return get(companyId, saleId);
    },

    eInvoiceModel,

    /** The invoice's account as it stands today: payments, their voids, corrections, the balance. */
    async statement(companyId: string, id: string): Promise<StatementView> {
      const row = await load(companyId, id);
      const [corrections, payments] = await Promise.all([
        store.repos.sales.listCorrections(companyId, id),
        store.repos.sales.listPayments(companyId, id),
      ]);
      return toStatement(row, corrections, payments);
    },

    /**
     * The account statement as a PDF: the invoice's content headed as a statement, with today's
     * payments, corrections and balance, and payment codes for what is still due. Rendered each
     * time (it follows the money); the invoice's own PDF stays as issued.
     */
    async renderStatementPdf(companyId: string, id: string, slot: PrintSlot): Promise<{ number: string; pdf: Buffer }> {
      const row = await load(companyId, id);
      const [lines, payments, corrections, issuedAs, fiscal] = await Promise.all([
        store.repos.sales.listLines(companyId, id),
        store.repos.sales.listPayments(companyId, id),
        store.repos.sales.listCorrections(companyId, id),
        asToday(row),
        deps.fiscalStatus.statusOf(companyId, [id]),
      ]);
      const document = toSalePrint(row, lines, issuedAs.company, issuedAs.location, {
        paidAtIssue: 0,
        fiscal: fiscal.get(id),
        original: null,
        account: { payments, corrections },
      });
      const logo = await logoOf(companyId, issuedAs.company.logo?.sha256);
      const printed = await slot.print({ document: { ...document, layout: 'a4', logo }, datasheets: [] });
      return {
        number: `${row.number}-statement`,
        pdf: Buffer.from(printed.pdf.buffer, printed.pdf.byteOffset, printed.pdf.byteLength),
      };
    },

    /** Whether the document can be an e-invoice now, and what it misses (the hub's e-invoice box); null before invoices. */
    async eInvoiceReadiness(
      companyId: string,
      id: string,
    ): Promise<{ profile: string; missing: Record<string, string[]> } | null> {
      const row = await load(companyId, id);
      if (!row.invoice_number) return null;
      const { model, buyerKind } = await eInvoiceModel(companyId, id);
      return { profile: model.profile, missing: missingFields(model, buyerKind) };
    },

    /** The e-invoice's XML, or a 409 naming every field its profile still misses. */
    async eInvoiceXml(
      companyId: string,
      id: string,
      syntax: 'ubl' | 'cii',
      snapshot: IssueSnapshot | null = null,
    ): Promise<{ number: string; profile: string; xml: string }> {
      const { model, buyerKind } = await eInvoiceModel(companyId, id, snapshot);
      assertReady(model, buyerKind);
      const row = await load(companyId, id);
      return { number: row.number, profile: model.profile, xml: syntax === 'cii' ? toCii(model) : toUbl(model) };
    },

    /**
     * The sale's print, through the one printer: an invoice, storno or credit note as issued (what
     * happened since is the statement's). `hybrid`: `always` makes it a Factur-X / ZUGFeRD PDF/A-3
     * with the CII embedded (a 409 naming what is missing when it cannot be a valid e-invoice);
     * `auto` does so for German companies whenever the document is a valid e-invoice, and prints
     * it plain otherwise (a print is never refused for a missing e-invoice field); `never` is the
     * print alone. Issued documents are read through invoicing's stored files, which call this once.
     */
    async renderPdf(
      companyId: string,
      id: string,
      slot: PrintSlot,
      /**
       * A4, or `receipt` for an 80 mm receipt printer (the same content); `locale`: an e-mail's
       * attachment in its language; `hybrid` as above (A4 only); `snapshot`: as issued.
       */
      as: {
        layout?: 'a4' | 'receipt';
        locale?: string;
        hybrid?: 'auto' | 'always' | 'never';
        snapshot?: IssueSnapshot | null;
      } = {},
    ): Promise<{ number: string; pdf: Buffer; hybrid: boolean }> {
      const layout = as.layout ?? 'a4';
      const hybrid = layout === 'receipt' ? 'never' : (as.hybrid ?? 'auto');
      const row = await load(companyId, id);
      const [lines, issuedAs, fiscal, original] = await Promise.all([
        store.repos.sales.listLines(companyId, id),
        as.snapshot ?? asToday(row),
        deps.fiscalStatus.statusOf(companyId, [id]),
        row.corrects_sale_id ? store.repos.sales.find(companyId, row.corrects_sale_id) : Promise.resolve(undefined),
      ]);
      const { company, location } = issuedAs;
      let einvoice: EInvoice | null = null;
      if (row.invoice_number && (hybrid === 'always' || (hybrid === 'auto' && company.country === 'DE'))) {
        const { model, buyerKind } = await eInvoiceModel(companyId, id, issuedAs);
        if (hybrid === 'always') assertReady(model, buyerKind);
        if (Object.keys(missingFields(model, buyerKind)).length === 0) einvoice = model;
      } else if (hybrid === 'always') throw new AppError('conflict', said('error.einvoice.notIssued'));
      const document = toSalePrint(row, lines, { ...company, ...(as.locale ? { locale: as.locale } : {}) }, location, {
        paidAtIssue: issuedAs.paidMinor,
        fiscal: fiscal.get(id),
        original: original ?? null,
        refunds: issuedAs.refunds ?? [],
      });
      // The logo the document was issued with (its snapshot's company), whatever the template has now.
      const logo = await logoOf(companyId, company.logo?.sha256);
      const printed = await slot.print({ document: { ...document, layout, logo }, datasheets: [] });
      const pdf = einvoice
        ? await toFacturX(printed.pdf, toCii(einvoice), {
            conformanceLevel: einvoice.profile === 'xrechnung' ? 'XRECHNUNG' : 'EN 16931',
          })
        : printed.pdf;
      return {
        // The file keeps the internal number: unique across years, and free of the legal number's slashes.
        number: row.number,
        pdf: Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength),
        hybrid: einvoice !== null,
      };
    },
  };
}
export type SalesService = ReturnType<typeof createSalesService>;
