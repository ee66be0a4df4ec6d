import { createHash } from 'node:crypto';
import { AppError, addFieldError, fieldErrors } from '../../lib/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import { formatMoney, parseScaled, MONEY_SCALE } from '../../lib/money.ts';
import type { Store } from '../../db/store.ts';
import { said } from '../i18n/index.ts';
import { enqueueEvent, type EventOutbox } from '../webhooks/index.ts';
import { EInvoiceReadError, embeddedAttachment, readEInvoice, type ReadInvoice } from './einvoice-reader.ts';
import { REJECTION_TYPES, type RejectionType } from './exchange.ts';
import type { ExchangeMessageRow, ExchangeRepository } from './exchange.repository.ts';
import { enqueueExchangeCall } from './exchange-outbox.ts';
import { kpdEntry } from './kpd.ts';
import type {
  PurchaseFilter,
  PurchaseInvoiceRow,
  PurchaseInvoicesRepository,
  PurchasePaymentRow,
  PurchaseSummaryRow,
} from './purchase-invoices.repository.ts';

export type PurchaseStatus = 'received' | 'accepted' | 'rejected';
export const PURCHASE_STATUSES: readonly PurchaseStatus[] = ['received', 'accepted', 'rejected'];
export const PURCHASE_PAYMENT_METHODS = ['bank_transfer', 'cash', 'card', 'set_off', 'other'] as const;
export type PurchasePaymentMethod = (typeof PURCHASE_PAYMENT_METHODS)[number];

/** A received invoice as the API and the hub show it; money as decimal strings. */
export interface PurchaseInvoiceView {
  id: string;
  source: 'exchange' | 'upload';
  exchangeDocumentId: string | null;
  syntax: 'ubl' | 'cii';
  typeCode: string;
  number: string;
  issueDate: string;
  dueDate: string | null;
  currency: string;
  supplier: { name: string; oib: string | null; vatId: string | null };
  totals: { net: string; tax: string; total: string; payable: string; paid: string; due: string };
  iban: string | null;
  paymentReference: string | null;
  status: PurchaseStatus;
  rejection: { type: RejectionType; reason: string; at: string; report: ReportView | null } | null;
  decidedAt: string | null;
  receivedAt: string;
  xmlSha256: string;
}

/** What became of a call to the exchange: waiting (and why it has not gone yet), done, or refused. */
export interface ReportView {
  status: 'pending' | 'done' | 'failed';
  attempts: number;
  lastError: string | null;
  doneAt: string | null;
}

export interface PurchaseInvoiceDetail extends PurchaseInvoiceView {
  document:
    | (Pick<ReadInvoice, 'buyer' | 'taxes' | 'notes' | 'attachments'> & {
        lines: Array<ReadInvoice['lines'][number] & { kpdName: string | null }>;
        supplierAddress: string | null;
      })
    | null;
  /** Why the document could not be read (it is kept all the same). */
  readProblem: string | null;
  payments: Array<{ id: string; amount: string; date: string; method: string; recordedAt: string }>;
}

/** Parsed facts stored beside the original bytes. */
interface Stored {
  document: ReadInvoice | null;
  problem: string | null;
}

type PurchaseRepos = {
  purchases: PurchaseInvoicesRepository;
  exchange: Pick<ExchangeRepository, 'insertMessage' | 'listMessages'>;
  webhooks: EventOutbox;
};

/** An amount of the document in minor units; a third decimal (allowed by EN 16931 on lines, not on totals) rounds half away from zero. */
function minor(text: string): number {
  const [whole, fraction = ''] = text.replace(/^-/, '').split('.') as [string, string?];
  let value = parseScaled(`${whole}.${fraction.slice(0, MONEY_SCALE).padEnd(MONEY_SCALE, '0')}`, MONEY_SCALE);
  if (Number(fraction[MONEY_SCALE] ?? '0') >= 5) value += 1n;
  return Number(text.startsWith('-') ? -value : value);
}

const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/**
 * Received e-invoices (Zakon o fiskalizaciji NN 89/2025 art. 41: every business receives them):
 * filed from the exchange's inbox or an upload, the original bytes kept, then accepted or
 * rejected (the rejection reported through the exchange, art. 50–53, from its outbox) and paid.
 */
export function createPurchaseInvoicesService(deps: {
  store: Store<PurchaseRepos>;
  clock: Clock;
  newId: IdGenerator;
  onEventQueued?: () => void;
  onExchangeQueued?: () => void;
}) {
  const { store, clock, newId } = deps;

  function view(row: PurchaseSummaryRow, reports: ExchangeMessageRow[]): PurchaseInvoiceView {
    const report = reports.filter((m) => m.subject_id === row.id && m.kind === 'reject').at(-1);
    return {
      id: row.id,
      source: row.source as PurchaseInvoiceView['source'],
      exchangeDocumentId: row.exchange_document_id,
      syntax: row.syntax as PurchaseInvoiceView['syntax'],
      typeCode: row.type_code,
      number: row.number,
      issueDate: row.issue_date,
      dueDate: row.due_date,
      currency: row.currency,
      supplier: { name: row.supplier_name, oib: row.supplier_oib, vatId: row.supplier_vat_id },
      totals: {
        net: formatMoney(row.net_minor),
        tax: formatMoney(row.tax_minor),
        total: formatMoney(row.total_minor),
        payable: formatMoney(row.payable_minor),
        paid: formatMoney(row.paid_minor),
        due: formatMoney(row.status === 'rejected' ? 0 : row.payable_minor - row.paid_minor),
      },
      iban: row.iban,
      paymentReference: row.payment_reference,
      status: row.status as PurchaseStatus,
      rejection:
        row.status === 'rejected'
          ? {
              type: row.rejection_type as RejectionType,
              reason: row.rejection_reason ?? '',
              at: row.decided_at!,
              report: report
                ? {
                    status: report.status as ReportView['status'],
                    attempts: report.attempts,
                    lastError: report.last_error,
                    doneAt: report.done_at,
                  }
                : null,
            }
          : null,
      decidedAt: row.decided_at,
      receivedAt: row.received_at,
      xmlSha256: row.xml_sha256,
    };
  }

  async function load(companyId: string, id: string) {
    const row = await store.repos.purchases.find(companyId, id);
    if (!row) throw AppError.notFound('Purchase invoice');
    return row;
  }

  return {
    /**
     * Files one received document, in one transaction with its `purchase_invoice.received`
     * event. From the exchange, a document it cannot read is filed all the same (kept, with the
     * reason, for a person); an upload it cannot read is refused (400 naming `xml`).
     */
    async file(
      companyId: string,
      input: {
        bytes: Buffer;
        source: 'exchange' | 'upload';
        exchangeDocumentId?: string;
        /** From the inbox entry: what stands in for a document that cannot be read. */
        fallback?: { number: string | null; supplierName: string | null; supplierOib: string | null };
      },
    ): Promise<{ view: PurchaseInvoiceView; created: boolean }> {
      const sha256 = createHash('sha256').update(input.bytes).digest('hex');
      let document: ReadInvoice | null = null;
      let problem: string | null = null;
      try {
        document = readEInvoice(input.bytes);
      } catch (error) {
        if (!(error instanceof EInvoiceReadError)) throw error;
        if (input.source === 'upload')
          throw AppError.invalid({ xml: [said('error.purchase.xml', { reason: error.message })] });
        problem = error.message;
      }
      const now = clock.now().toISOString();
      const outcome = await store.transaction(async (repos) => {
        const known = input.exchangeDocumentId
          ? await repos.purchases.findByExchangeDocument(companyId, input.exchangeDocumentId)
          : await repos.purchases.findByDigest(companyId, sha256);
        if (known) {
          if (input.source === 'upload')
            throw new AppError(
              'conflict',
              said('error.purchase.duplicate', { number: known.number, supplier: known.supplier_name }),
            );
          return { row: known, created: false };
        }
        const row: PurchaseInvoiceRow = {
          id: newId('purchaseInvoice'),
          company_id: companyId,
          source: input.source,
          exchange_document_id: input.exchangeDocumentId ?? null,
          syntax:
            document?.syntax ??
            (/CrossIndustryInvoice/.test(input.bytes.subarray(0, 2000).toString('latin1')) ? 'cii' : 'ubl'),
          original_xml: input.bytes,
          xml_sha256: sha256,
          type_code: document?.typeCode ?? '380',
          number: document?.number ?? input.fallback?.number ?? input.exchangeDocumentId ?? '?',
          issue_date: document?.issueDate ?? now.slice(0, 10),
          due_date: document?.dueDate ?? null,
          currency: document?.currency ?? 'EUR',
          supplier_name: document?.supplier.name ?? input.fallback?.supplierName ?? '?',
          supplier_oib: document?.supplier.oib ?? input.fallback?.supplierOib ?? null,
          supplier_vat_id: document?.supplier.vatId ?? null,
          net_minor: document ? minor(document.totals.net) : 0,
          tax_minor: document ? minor(document.totals.tax) : 0,
          total_minor: document ? minor(document.totals.total) : 0,
          payable_minor: document ? minor(document.totals.payable) : 0,
          iban: document?.iban ?? null,
          payment_reference: document?.paymentReference ?? null,
          parsed: JSON.stringify({ document, problem } satisfies Stored),
          status: 'received',
          rejection_type: null,
          rejection_reason: null,
          decided_at: null,
          decided_by: null,
          paid_minor: 0,
          received_at: now,
        };
        await repos.purchases.insert(row);
        await enqueueEvent(
          repos,
          {
            companyId,
            locationId: null,
            type: 'purchase_invoice.received',
            data: {
              purchaseInvoiceId: row.id,
              number: row.number,
              supplierName: row.supplier_name,
              supplierOib: row.supplier_oib,
              issueDate: row.issue_date,
              dueDate: row.due_date,
              totalWithTax: formatMoney(row.total_minor),
              currency: row.currency,
              source: row.source as 'exchange' | 'upload',
            },
          },
          { now, newId },
        );
        return { row, created: true };
      });
      if (outcome.created) deps.onEventQueued?.();
      return { view: view(outcome.row, []), created: outcome.created };
    },

    async list(companyId: string, filter: PurchaseFilter, limit = 100): Promise<PurchaseInvoiceView[]> {
      const errors = fieldErrors();
      if (filter.status && !PURCHASE_STATUSES.includes(filter.status as PurchaseStatus))
        addFieldError(errors, 'status', said('error.mustBeOneOf', { values: PURCHASE_STATUSES.join(', ') }));
      if (filter.from && !DATE.test(filter.from)) addFieldError(errors, 'from', said('error.purchase.date'));
      if (filter.to && !DATE.test(filter.to)) addFieldError(errors, 'to', said('error.purchase.date'));
      if (Object.keys(errors).length > 0) throw AppError.invalid(errors);
      const rows = await store.repos.purchases.list(companyId, filter, limit);
      const reports = await store.repos.exchange.listMessages(
        companyId,
        rows.filter((r) => r.status === 'rejected').map((r) => r.id),
      );
      return rows.map((r) => view(r, reports));
    },

    async get(companyId: string, id: string): Promise<PurchaseInvoiceDetail> {
      const row = await load(companyId, id);
      const [reports, payments] = await Promise.all([
        store.repos.exchange.listMessages(companyId, [id]),
        store.repos.purchases.listPayments(companyId, id),
      ]);
      const stored = JSON.parse(row.parsed) as Stored;
      const d = stored.document;
      return {
        ...view(row, reports),
        document: d
          ? {
              buyer: d.buyer,
              taxes: d.taxes,
              notes: d.notes,
              attachments: d.attachments,
              supplierAddress: d.supplier.address,
              lines: d.lines.map((l) => ({ ...l, kpdName: l.kpd ? (kpdEntry(l.kpd)?.name ?? null) : null })),
            }
          : null,
        readProblem: stored.problem,
        payments: payments.map((p: PurchasePaymentRow) => ({
          id: p.id,
          amount: formatMoney(p.amount_minor),
          date: p.paid_on,
          method: p.method,
          recordedAt: p.created_at,
        })),
      };
    },

    /** The document exactly as it was received. */
    async originalXml(companyId: string, id: string): Promise<{ number: string; bytes: Buffer }> {
      const row = await load(companyId, id);
      const bytes = await store.repos.purchases.originalXml(companyId, id);
      return { number: row.number, bytes: bytes! };
    },

    /** An attachment the supplier embedded (BG-24), decoded from the original XML. */
    async attachment(companyId: string, id: string, index: number) {
      const { bytes } = await this.originalXml(companyId, id);
      const found = Number.isInteger(index) && index >= 0 ? embeddedAttachment(bytes, index) : null;
      if (!found) throw AppError.notFound('Resource');
      return found;
    },

    /** Booked: the invoice is the company's to pay. */
    async accept(companyId: string, id: string, userId: string | null): Promise<PurchaseInvoiceView> {
      const row = await load(companyId, id);
      const now = clock.now().toISOString();
      const decided = await store.repos.purchases.decide(companyId, id, {
        status: 'accepted',
        rejection_type: null,
        rejection_reason: null,
        decided_at: now,
        decided_by: userId,
      });
      if (!decided) throw new AppError('conflict', said('error.purchase.decided', { status: row.status }));
      return view((await store.repos.purchases.find(companyId, id))!, []);
    },

    /**
     * Rejected with a reason (EvidentirajOdbijanje: N, U or O and a text). An invoice that came
     * through the exchange has its rejection reported from the exchange's outbox, written in the
     * same transaction; an uploaded one is only marked (it did not come by the exchange).
     */
    async reject(
      companyId: string,
      id: string,
      userId: string | null,
      input: { type: string; reason: string },
    ): Promise<PurchaseInvoiceView> {
      const errors = fieldErrors();
      if (!REJECTION_TYPES.includes(input.type as RejectionType))
        addFieldError(errors, 'type', said('error.mustBeOneOf', { values: REJECTION_TYPES.join(', ') }));
      const reason = (input.reason ?? '').trim();
      if (reason === '' || reason.length > 1024) addFieldError(errors, 'reason', said('error.length', { max: 1024 }));
      if (Object.keys(errors).length > 0) throw AppError.invalid(errors);
      const row = await load(companyId, id);
      const now = clock.now();
      const queued = await store.transaction(async (repos) => {
        const decided = await repos.purchases.decide(companyId, id, {
          status: 'rejected',
          rejection_type: input.type,
          rejection_reason: reason,
          decided_at: now.toISOString(),
          decided_by: userId,
        });
        if (!decided) throw new AppError('conflict', said('error.purchase.decided', { status: row.status }));
        if (!row.exchange_document_id) return false;
        await enqueueExchangeCall(
          repos,
          {
            companyId,
            subjectId: id,
            kind: 'reject',
            body: {
              documentId: row.exchange_document_id,
              rejectedOn: now.toISOString().slice(0, 10),
              type: input.type as RejectionType,
              reason,
            },
          },
          { now: now.toISOString(), newId },
        );
        return true;
      });
      if (queued) deps.onExchangeQueued?.();
      return (await this.get(companyId, id)) as PurchaseInvoiceView;
    },

    /** A payment made to the supplier; never more than is still due, never on a rejected invoice. */
    async recordPayment(
      companyId: string,
      id: string,
      userId: string | null,
      input: { amount: string; date: string; method: string },
    ): Promise<PurchaseInvoiceDetail> {
      const errors = fieldErrors();
      let amountMinor = 0;
      try {
        amountMinor = Number(parseScaled(String(input.amount ?? ''), MONEY_SCALE));
      } catch {
        amountMinor = 0;
      }
      if (!(amountMinor > 0)) addFieldError(errors, 'amount', said('error.purchase.amount'));
      if (!DATE.test(input.date ?? '')) addFieldError(errors, 'date', said('error.purchase.date'));
      if (!PURCHASE_PAYMENT_METHODS.includes(input.method as PurchasePaymentMethod))
        addFieldError(errors, 'method', said('error.mustBeOneOf', { values: PURCHASE_PAYMENT_METHODS.join(', ') }));
      if (Object.keys(errors).length > 0) throw AppError.invalid(errors);
      const row = await load(companyId, id);
      if (row.status === 'rejected') throw new AppError('conflict', said('error.purchase.rejected'));
      await store.transaction(async (repos) => {
        if (!(await repos.purchases.addPaid(companyId, id, amountMinor)))
          throw AppError.invalid({
            amount: [said('error.purchase.overpaid', { due: formatMoney(row.payable_minor - row.paid_minor) })],
          });
        await repos.purchases.insertPayment({
          id: newId('purchasePayment'),
          company_id: companyId,
          purchase_invoice_id: id,
          amount_minor: amountMinor,
          paid_on: input.date,
          method: input.method,
          recorded_by: userId,
          created_at: clock.now().toISOString(),
        });
      });
      return this.get(companyId, id);
    },

    /** The period's received invoices as they came, one at a time (the month archive). */
    async *originals(companyId: string, from: string, to: string): AsyncIterable<{ name: string; bytes: Buffer }> {
      for (const row of await store.repos.purchases.book(companyId, from, to)) {
        const bytes = await store.repos.purchases.originalXml(companyId, row.id);
        if (bytes)
          yield {
            name: `${row.supplier_oib ?? row.supplier_vat_id ?? row.supplier_name}-${row.number}-${row.id}`,
            bytes,
          };
      }
    },

    /** The book of received invoices (U-RA) for a period: one row per invoice, by issue date. */
    async book(companyId: string, from: string, to: string) {
      const rows = await store.repos.purchases.book(companyId, from, to);
      return rows.map((r) => {
        const d = (JSON.parse(r.parsed) as Stored).document;
        return { ...view(r, []), taxes: d?.taxes ?? [], supplierAddress: d?.supplier.address ?? null };
      });
    },
  };
}
export type PurchaseInvoicesService = ReturnType<typeof createPurchaseInvoicesService>;
