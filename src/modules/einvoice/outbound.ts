import type { IdGenerator } from '../../lib/ids.ts';
import { formatMoney } from '../../lib/money.ts';
import type { Store } from '../../db/store.ts';
import { rejectionTypeOf, type RejectionType, type ReportedPaymentMethod } from './exchange.ts';
import { enqueueExchangeCall } from './exchange-outbox.ts';
import type { ExchangeMessageRow, ExchangeRepository, SendRow } from './exchange.repository.ts';

/**
 * Fiskalizacija 2.0's outbound half. A VAT-registered Croatian seller issues an e-invoice for
 * every domestic sale to another Croatian taxpayer (Zakon o fiskalizaciji NN 89/2025 art. 38,
 * 80), exchanged through its information intermediary (art. 37, 59–63), which fiscalises it
 * (EvidentirajERacun, art. 47–49); no receipt goes to CIS for it. A business paying cash or card
 * gets a receipt with its OIB instead (art. 39), never an e-invoice. Payments received on a sent
 * e-invoice are reported (EvidentirajNaplatu, art. 50–53).
 */

export const EXCHANGE_STATUSES = ['not_required', 'queued', 'sent', 'delivered', 'rejected', 'failed'] as const;
export type ExchangeStatus = (typeof EXCHANGE_STATUSES)[number];

/** A sale's e-invoice as its JSON shows it. */
export interface ExchangeView {
  status: ExchangeStatus;
  /** The intermediary's id of the document, once it took it. */
  documentId: string | null;
  /** The issuer's fiscalisation of the e-invoice, as the intermediary reports it; null when not sent. */
  fiscalisation: 'unknown' | 'fiscalised' | 'failed' | null;
  /** Why the intermediary refused it, or the last reason it could not be asked. */
  error: string | null;
  rejection?: { type: RejectionType | null; reason: string; at: string | null };
  /** Each payment (and void, negative) reported through the exchange. */
  payments: Array<{
    amount: string;
    date: string;
    method: ReportedPaymentMethod;
    status: 'queued' | 'reported' | 'failed';
  }>;
}

export const NOT_SENT: ExchangeView = Object.freeze({
  status: 'not_required',
  documentId: null,
  fiscalisation: null,
  error: null,
  payments: [],
}) as ExchangeView;

/** A document just issued whose e-invoice waits in the outbox. */
export const JUST_QUEUED: ExchangeView = Object.freeze({
  status: 'queued',
  documentId: null,
  fiscalisation: 'unknown',
  error: null,
  payments: [],
}) as ExchangeView;

type CompanyFacts = { country: string; vatRegistered: boolean };
type DocumentFacts = {
  mode: string;
  customer_kind: string;
  customer_tax_id: string | null;
  customer_address: string | null;
  payment_method: string | null;
};

/** A Croatian OIB as a buyer's tax id carries it (`HR` and 11 digits, or the 11 digits); else null. */
export function croatianOib(taxId: string | null): string | null {
  const digits = (taxId ?? '').trim().replace(/^HR/i, '');
  return /^\d{11}$/.test(digits) ? digits : null;
}

/**
 * Whether an invoice must be an e-invoice (art. 38): the seller is a Croatian VAT payer, the
 * buyer a Croatian business with an OIB, and it is paid by transfer (a business paying cash or
 * card takes a receipt with its OIB, art. 39). Test documents never leave the house.
 */
export function needsEInvoice(company: CompanyFacts, doc: DocumentFacts): boolean {
  if (doc.mode !== 'live' || company.country !== 'HR' || !company.vatRegistered) return false;
  if (doc.customer_kind !== 'business' || !croatianOib(doc.customer_tax_id)) return false;
  const address = doc.customer_address ? (JSON.parse(doc.customer_address) as { country?: string }) : null;
  if (address?.country && address.country !== 'HR') return false;
  return doc.payment_method === 'bank_transfer';
}

export type OutboundRepos = {
  exchange: Pick<ExchangeRepository, 'find' | 'findSends' | 'insertMessage' | 'insertSend'>;
};

/**
 * In the issuing unit of work: whether this document goes to the buyer through the exchange.
 * A cancellation or credit note follows its invoice (sent → sent); an invoice goes when it must
 * be an e-invoice and the company has an exchange configured. Without one it is fiscalised as a
 * receipt as before (without the buyer's OIB, which a transfer receipt never carries) and the hub
 * says plainly that it is not a lawful B2B invoice.
 */
export async function routesThroughExchange(
  repos: Pick<OutboundRepos, 'exchange'>,
  company: CompanyFacts,
  doc: DocumentFacts & { company_id: string; corrects_sale_id: string | null },
): Promise<boolean> {
  if (doc.mode !== 'live') return false;
  if (doc.corrects_sale_id) return (await repos.exchange.findSends(doc.company_id, [doc.corrects_sale_id])).length > 0;
  if (!needsEInvoice(company, doc)) return false;
  return (await repos.exchange.find(doc.company_id)) !== undefined;
}

/** In the issuing unit of work: the send of the document's issued UBL queued, and its e-invoice record. */
export async function queueSend(
  repos: OutboundRepos,
  send: { companyId: string; saleId: string },
  opts: { now: string; newId: IdGenerator },
): Promise<void> {
  const messageId = await enqueueExchangeCall(
    repos,
    { companyId: send.companyId, subjectId: send.saleId, kind: 'send', body: { issued: 'ubl' } },
    opts,
  );
  await repos.exchange.insertSend({
    sale_id: send.saleId,
    company_id: send.companyId,
    message_id: messageId,
    status: 'queued',
    document_id: null,
    delivered_at: null,
    fiscal_status: 'unknown',
    fiscal_message: null,
    rejection_type: null,
    rejection_reason: null,
    rejected_at: null,
    last_error: null,
    checked_at: null,
    notified_at: null,
    created_at: opts.now,
    updated_at: opts.now,
  });
}

/** How a payment recorded in Portico is reported (EvidentirajNaplatu: T transfer, O set-off, Z other). */
export function reportedMethod(method: string): ReportedPaymentMethod {
  return method === 'bank_transfer' ? 'T' : 'Z';
}

/**
 * In the unit of work that records (or voids: a negative amount) a payment: when the document was
 * sent as an e-invoice, the payment is reported through the exchange from the outbox (art. 50–53:
 * by the 20th of the next month at the latest; Portico reports it at once). The worker waits for
 * the send to be through before it reports on the document.
 */
export async function reportPayment(
  repos: { exchange: Pick<ExchangeRepository, 'findSends' | 'insertMessage'> },
  payment: { companyId: string; saleId: string; amountMinor: number; paidOn: string; method: string },
  opts: { now: string; newId: IdGenerator },
): Promise<boolean> {
  const [send] = await repos.exchange.findSends(payment.companyId, [payment.saleId]);
  if (!send || send.status === 'failed') return false;
  await enqueueExchangeCall(
    repos,
    {
      companyId: payment.companyId,
      subjectId: payment.saleId,
      kind: 'mark_paid',
      body: {
        paidOn: payment.paidOn,
        amount: formatMoney(payment.amountMinor),
        method: reportedMethod(payment.method),
      },
    },
    opts,
  );
  return true;
}

/** The JSON's view of a document's e-invoice, from its record and its calls. */
export function toExchangeView(send: SendRow | undefined, messages: readonly ExchangeMessageRow[]): ExchangeView {
  if (!send) return NOT_SENT;
  const sendMessage = messages.find((m) => m.id === send.message_id);
  const payments = messages
    .filter((m) => m.kind === 'mark_paid')
    .map((m) => {
      const body = JSON.parse(m.body) as { paidOn: string; amount: string; method: ReportedPaymentMethod };
      const status = m.status === 'done' ? 'reported' : m.status === 'failed' ? 'failed' : 'queued';
      return { amount: body.amount, date: body.paidOn, method: body.method, status } as const;
    });
  // The send's outcome may be ahead of the record (the worker writes the call's outcome first).
  let status = send.status as ExchangeStatus;
  let documentId = send.document_id;
  if (status === 'queued' && sendMessage?.status === 'failed') status = 'failed';
  if (status === 'queued' && sendMessage?.status === 'done') {
    status = 'sent';
    documentId ??= sendMessage.answer
      ? ((JSON.parse(sendMessage.answer) as { documentId?: string }).documentId ?? null)
      : null;
  }
  const error =
    status === 'failed'
      ? (sendMessage?.last_error ?? send.last_error)
      : sendMessage?.status === 'pending'
        ? sendMessage.last_error
        : send.last_error;
  return {
    status,
    documentId,
    fiscalisation: send.fiscal_status as ExchangeView['fiscalisation'],
    error: error ?? null,
    ...(status === 'rejected'
      ? {
          rejection: {
            type: rejectionTypeOf(send.rejection_type),
            reason: send.rejection_reason ?? '',
            at: send.rejected_at,
          },
        }
      : {}),
    payments,
  };
}

/** Reads the e-invoice of documents already issued, for their JSON and the hub. */
export interface ExchangeStatusReader {
  statusOf(companyId: string, saleIds: readonly string[]): Promise<Map<string, ExchangeView>>;
}

export function createExchangeStatusReader(deps: {
  store: Store<{ exchange: Pick<ExchangeRepository, 'findSends' | 'listMessages'> }>;
}): ExchangeStatusReader {
  return {
    async statusOf(companyId, saleIds) {
      const sends = await deps.store.repos.exchange.findSends(companyId, saleIds);
      const out = new Map<string, ExchangeView>();
      if (sends.length === 0) return out;
      const messages = await deps.store.repos.exchange.listMessages(
        companyId,
        sends.map((s) => s.sale_id),
      );
      for (const send of sends)
        out.set(
          send.sale_id,
          toExchangeView(
            send,
            messages.filter((m) => m.subject_id === send.sale_id),
          ),
        );
      return out;
    },
  };
}

/** A sent document that needs a person: refused, rejected, or not through after an hour. */
export interface StuckEInvoice {
  saleId: string;
  status: ExchangeStatus;
  createdAt: string;
  reason: string | null;
}

/** Today's e-invoice card: none configured (the hub says B2B invoices are not delivered lawfully), or what is stuck. */
export function createOutboundOverview(deps: {
  store: Store<{ exchange: Pick<ExchangeRepository, 'todayState'> }>;
  clock: { now(): Date };
}) {
  return {
    async today(companyId: string, limit = 50): Promise<{ configured: boolean; stuck: StuckEInvoice[] }> {
      const hourAgo = new Date(deps.clock.now().getTime() - 3_600_000).toISOString();
      const rows = await deps.store.repos.exchange.todayState(companyId, hourAgo, limit);
      return {
        configured: rows.length > 0,
        stuck: rows
          .filter((r) => r.sale_id)
          .map((r) => ({
            saleId: r.sale_id,
            status: r.status as ExchangeStatus,
            createdAt: r.created_at,
            reason: r.rejection_reason ?? r.last_error,
          })),
      };
    },
  };
}
