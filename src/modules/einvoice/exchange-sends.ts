import type { Clock } from '../../lib/clock.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import type { Store } from '../../db/store.ts';
import type { AdminNoticeRepos } from '../notifications/index.ts';
import { enqueueEvent, type EventOutbox } from '../webhooks/index.ts';
import { ExchangeRefused, ExchangeUnreachable, type DocumentStatus, type EInvoiceExchange } from './exchange.ts';
import type { ExchangeRepository, SendRow } from './exchange.repository.ts';

type Note = {
  kind: string;
  title: string;
  body: string;
  params: Record<string, string>;
  subject?: { type: string; id: string };
};

/** What the sale behind an e-invoice tells its events: where it was sold, and its number. */
export interface SaleFacts {
  locationId: string;
  invoiceNumber: string;
  customerName: string;
}

export type SendRepos = {
  exchange: Pick<ExchangeRepository, 'updateSend' | 'findSends'>;
  webhooks: EventOutbox;
} & AdminNoticeRepos;

/** A delivered e-invoice may still be rejected (by the 20th of the next month, art. 51): watched this long. */
const WATCH_DELIVERED_MS = 50 * 24 * 3_600_000;
/** Open sends read per poll: one outbox query per company covers them all. */
const BATCH = 1000;
/** How far before the oldest last look the outbox query starts: the intermediary's clock may differ. */
const SINCE_MARGIN_MS = 10 * 60_000;

/**
 * The outbound e-invoices as the exchange worker moves them: the send's answer (the document
 * id), then the intermediary's statuses polled (queryDocumentProcessStatusOutbox for delivery
 * and the buyer's rejection, statusOutbox for the issuer's fiscalisation) until each is
 * delivered and fiscalised, or rejected, or failed. `einvoice.delivered` and `einvoice.rejected`
 * commit with the change; admins hear of a refusal, a failed fiscalisation or a rejection once.
 */
export function createExchangeSends(deps: {
  store: Store<SendRepos & { exchange: Pick<ExchangeRepository, 'listOpenSends' | 'findMessage'> }>;
  clock: Clock;
  newId: IdGenerator;
  saleFacts: (companyId: string, saleId: string) => Promise<SaleFacts | null>;
  notifyAdmins: (repos: AdminNoticeRepos, companyId: string, note: Note) => Promise<void>;
  onEventQueued: () => void;
  /** The poll's period: a document on its way is asked about once per poll, a delivered one every 60 polls. */
  pollMs: number;
}) {
  const { store, clock } = deps;

  async function notifyOnce(repos: SendRepos, send: SendRow, note: Note): Promise<void> {
    const now = clock.now().toISOString();
    if (!(await repos.exchange.updateSend(send.company_id, send.sale_id, { notified_at: now }, true))) return;
    await deps.notifyAdmins(repos, send.company_id, { ...note, subject: { type: 'sale', id: send.sale_id } });
  }

  /** The send call went through: the intermediary's id of the document. */
  async function sent(companyId: string, saleId: string, documentId: string): Promise<void> {
    const now = clock.now().toISOString();
    await store.repos.exchange.updateSend(companyId, saleId, {
      status: 'sent',
      document_id: documentId,
      last_error: null,
      updated_at: now,
    });
  }

  /** The intermediary refused the document: it is not sent again; the admins are told. */
  async function refused(companyId: string, saleId: string, reason: string): Promise<void> {
    const facts = await deps.saleFacts(companyId, saleId);
    const now = clock.now().toISOString();
    await store.transaction(async (repos) => {
      await repos.exchange.updateSend(companyId, saleId, { status: 'failed', last_error: reason, updated_at: now });
      const [send] = await repos.exchange.findSends(companyId, [saleId]);
      if (send)
        await notifyOnce(repos, send, {
          kind: 'einvoice.failed',
          title: 'An e-invoice was not sent',
          body: `The e-invoice exchange refused invoice ${facts?.invoiceNumber ?? saleId}: ${reason}. It is not sent again: correct the cause, then cancel the invoice and issue it anew.`,
          params: { number: facts?.invoiceNumber ?? saleId, reason },
        });
    });
  }

  return {
    sent,
    refused,

    /** One poll of the documents on their way; answers how many were checked. */
    async poll(open: (companyId: string) => Promise<EInvoiceExchange | null>): Promise<number> {
      const now = clock.now();
      const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
      const due = await store.repos.exchange.listOpenSends(
        {
          checkedBefore: ago(deps.pollMs / 2),
          deliveredBefore: ago(deps.pollMs * 60),
          watchFrom: ago(WATCH_DELIVERED_MS),
        },
        BATCH,
      );
      // One outbox query per company and poll, whatever the number of documents on their way:
      // queryDocumentProcessStatusOutbox answers every document changed since a time (DateFrom,
      // ByUpdateDate), so a shop with 1,000 open e-invoices makes one call a minute, not 1,000.
      // Only the fiscalisation, which statusOutbox answers per ElectronicId, is still asked per
      // document, and only until it is known (usually the first poll after the send).
      const byCompany = new Map<string, SendRow[]>();
      for (const send of due) byCompany.set(send.company_id, [...(byCompany.get(send.company_id) ?? []), send]);
      for (const [companyId, sends] of byCompany) {
        const exchange = await open(companyId);
        const onTheWay: SendRow[] = [];
        for (const send of sends) {
          const checkedAt = clock.now().toISOString();
          if (send.document_id) {
            onTheWay.push(send);
            continue;
          }
          // Queued: the worker writes the record after the call; a crash between the two left
          // the record behind, so the call's outcome is read here.
          const call = await store.repos.exchange.findMessage(send.company_id, send.message_id);
          const answered =
            call?.status === 'done' && call.answer ? (JSON.parse(call.answer) as { documentId?: string }) : null;
          if (answered?.documentId) await sent(send.company_id, send.sale_id, answered.documentId);
          else if (call?.status === 'failed') await refused(send.company_id, send.sale_id, call.last_error ?? '');
          await store.repos.exchange.updateSend(send.company_id, send.sale_id, { checked_at: checkedAt });
        }
        if (!onTheWay.length) continue;
        const checkedAt = clock.now().toISOString();
        const failed = async (error: unknown, of: SendRow[]) => {
          if (!(error instanceof ExchangeUnreachable) && !(error instanceof ExchangeRefused)) throw error;
          for (const send of of)
            await store.repos.exchange.updateSend(send.company_id, send.sale_id, {
              checked_at: checkedAt,
              last_error: error.message.slice(0, 500),
            });
        };
        if (!exchange) {
          for (const send of onTheWay)
            await store.repos.exchange.updateSend(send.company_id, send.sale_id, { checked_at: checkedAt });
          continue;
        }
        // Everything changed since the oldest of these documents was last looked at (or sent),
        // less a margin for the two clocks; a document not in the answer has not changed.
        const oldest = Math.min(...onTheWay.map((s) => Date.parse(s.checked_at ?? s.created_at)));
        let statuses: Map<string, DocumentStatus>;
        try {
          const answer = await exchange.status({ since: new Date(oldest - SINCE_MARGIN_MS).toISOString() });
          statuses = new Map(answer.map((s) => [s.documentId, s]));
        } catch (error) {
          await failed(error, onTheWay);
          continue;
        }
        for (const send of onTheWay) {
          try {
            const fiscal =
              send.fiscal_status === 'unknown' ? await exchange.fiscalisation('outbox', send.document_id!) : null;
            await apply(send, statuses.get(send.document_id!) ?? null, fiscal, checkedAt);
          } catch (error) {
            await failed(error, [send]);
          }
        }
      }
      return due.length;
    },
  };

  async function apply(
    send: SendRow,
    status: DocumentStatus | null,
    fiscal: { status: 'fiscalised' | 'failed' | 'unknown'; code: string | null; message: string | null } | null,
    checkedAt: string,
  ): Promise<void> {
    const facts = await deps.saleFacts(send.company_id, send.sale_id);
    let queued = false;
    await store.transaction(async (repos) => {
      const patch: Parameters<SendRepos['exchange']['updateSend']>[2] = { checked_at: checkedAt, last_error: null };
      const event = (type: 'einvoice.delivered' | 'einvoice.rejected', data: Record<string, unknown>) =>
        facts
          ? enqueueEvent(
              repos,
              {
                companyId: send.company_id,
                locationId: facts.locationId,
                type,
                data: {
                  saleId: send.sale_id,
                  invoiceNumber: facts.invoiceNumber,
                  documentId: send.document_id!,
                  customerName: facts.customerName,
                  ...data,
                },
              } as Parameters<typeof enqueueEvent>[1],
              { now: checkedAt, newId: deps.newId },
            ).then(() => {
              queued = true;
            })
          : Promise.resolve();
      if (fiscal && fiscal.status !== 'unknown') {
        patch.fiscal_status = fiscal.status;
        patch.fiscal_message = [fiscal.code, fiscal.message].filter(Boolean).join(': ') || null;
      }
      if (status?.businessStatus === 'rejected' && send.status !== 'rejected') {
        patch.status = 'rejected';
        patch.rejection_reason = status.rejectReason ?? '';
        patch.rejection_type = status.rejectType;
        patch.rejected_at = status.updatedAt ? new Date(status.updatedAt).toISOString() : checkedAt;
        await event('einvoice.rejected', { reason: patch.rejection_reason, type: status.rejectType });
      } else if (status?.status === 'delivered' && (send.status === 'sent' || send.status === 'queued')) {
        patch.status = 'delivered';
        patch.delivered_at = checkedAt;
        await event('einvoice.delivered', {});
      } else if (status?.status === 'failed' && send.status !== 'failed') {
        patch.status = 'failed';
        patch.last_error = 'The intermediary could not deliver it.';
      }
      patch.updated_at = checkedAt;
      await repos.exchange.updateSend(send.company_id, send.sale_id, patch);
      const number = facts?.invoiceNumber ?? send.sale_id;
      if (patch.status === 'rejected')
        await notifyOnce(repos, send, {
          kind: 'einvoice.rejected',
          title: 'The buyer rejected an e-invoice',
          body: `The buyer rejected e-invoice ${number}: ${patch.rejection_reason}. Correct it with a credit note or a cancellation.`,
          params: { number, reason: patch.rejection_reason ?? '' },
        });
      else if (patch.status === 'failed')
        await notifyOnce(repos, send, {
          kind: 'einvoice.failed',
          title: 'An e-invoice was not sent',
          body: `The e-invoice exchange could not deliver invoice ${number}: ${patch.last_error}`,
          params: { number, reason: patch.last_error ?? '' },
        });
      else if (patch.fiscal_status === 'failed')
        await notifyOnce(repos, send, {
          kind: 'einvoice.notFiscalised',
          title: 'An e-invoice was not fiscalised',
          body: `The Tax Administration did not fiscalise e-invoice ${number}: ${patch.fiscal_message ?? ''}`,
          params: { number, reason: patch.fiscal_message ?? '' },
        });
    });
    if (queued) deps.onEventQueued();
  }
}
export type ExchangeSends = ReturnType<typeof createExchangeSends>;
