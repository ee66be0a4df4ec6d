import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import { createPoller, type Poller } from '../../lib/poller.ts';
import type { Store } from '../../db/store.ts';
import { ExchangeRefused, ExchangeUnreachable, type SentDocument } from './exchange.ts';
import type { ExchangeCall } from './exchange-outbox.ts';
import type { ExchangeConnector } from './exchange-connector.ts';
import type { ExchangeMessageRow, ExchangeRepository } from './exchange.repository.ts';
import type { PurchaseInvoicesService } from './purchase-invoices.service.ts';
import type { PurchaseInvoicesRepository } from './purchase-invoices.repository.ts';
import type { ExchangeSends } from './exchange-sends.ts';

/** Calls the exchange did not answer, again: quickly at first, then every 15 minutes until it does. */
export const DEFAULT_EXCHANGE_RETRY_DELAYS_MS = [10_000, 30_000, 60_000, 2 * 60_000, 5 * 60_000, 15 * 60_000];
const BATCH = 10;

export interface ExchangeWorkerLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * The exchange's background work, where the webhook dispatcher runs: the outbox (each call a
 * change wrote, sent with backoff until the intermediary answers; a refusal is kept, visible,
 * for a person) and the inbox poll, at start and then every `pollMs` per configured company:
 * each document not yet filed is downloaded and filed as a received invoice.
 */
export function createExchangeWorker(deps: {
  store: Store<{
    exchange: Pick<
      ExchangeRepository,
      'find' | 'findDone' | 'claim' | 'finish' | 'listConfigured' | 'markInboxChecked'
    >;
    purchases: Pick<PurchaseInvoicesRepository, 'findByExchangeDocument'>;
  }>;
  connector: ExchangeConnector;
  purchases: Pick<PurchaseInvoicesService, 'file'>;
  /** The outbound e-invoices: the send's answer recorded, their statuses polled. */
  sends?: ExchangeSends;
  /** An issued document's UBL as issued (stored on its first read): what a `send` naming it sends. */
  issuedUbl?: (companyId: string, saleId: string) => Promise<string>;
  clock: Clock;
  logger: ExchangeWorkerLogger;
  pollMs: number;
  retryDelaysMs: readonly number[];
  /** How long a claimed call is this sender's: longer than one call may take (default 5 min). */
  leaseMs?: number;
  idleMs?: number;
}): Poller & { pollNow(): void } {
  const { store, clock, logger } = deps;
  const repo = store.repos.exchange;
  // Zero: the first tick after a (re)start polls the inboxes at once.
  let nextPoll = 0;

  async function deliver(row: ExchangeMessageRow & { resumed?: boolean }, lease: string): Promise<void> {
    const attempts = row.attempts + 1;
    const pending = async (reason: string) => {
      const delays = deps.retryDelaysMs;
      const delay = delays[Math.min(attempts, delays.length) - 1] ?? 60_000;
      await repo.finish(row.id, lease, {
        status: 'pending',
        attempts,
        next_attempt_at: new Date(clock.now().getTime() + delay).toISOString(),
        last_error: reason.slice(0, 500),
        answer: null,
        done_at: null,
      });
    };
    const settings = await repo.find(row.company_id);
    if (!settings) return pending('no e-invoice exchange is set up');
    const exchange = deps.connector.open(settings);
    try {
      let answer: unknown;
      const call = { kind: row.kind, body: JSON.parse(row.body) } as ExchangeCall;
      if (call.kind === 'reject') answer = await exchange.reject(call.body);
      else if (call.kind === 'send') {
        const xml = 'xml' in call.body ? call.body.xml : await issuedXml(row);
        // A send a crashed process left mid-call may have reached the intermediary: asked first,
        // so the buyer gets one document per invoice.
        const sent =
          (row.resumed ? await alreadySent(exchange, xml, row.created_at) : null) ?? (await exchange.send(xml));
        answer = sent;
        // The call's outcome first, then the document's record: a crash between the two leaves
        // the record to the view (it reads the call) and the next poll.
        await repo.finish(row.id, lease, done(sent, attempts, row));
        await deps.sends?.sent(row.company_id, row.subject_id, sent.documentId);
        logger.info({ messageId: row.id, kind: row.kind, attempts }, 'exchange: message delivered');
        return;
      } else if (call.kind === 'mark_paid') {
        // A payment reports on the document its send got back: not before the send is through.
        const sent = await repo.findDone(row.company_id, row.subject_id, 'send');
        const documentId = sent?.answer ? (JSON.parse(sent.answer) as { documentId?: string }).documentId : undefined;
        if (!documentId) return pending('the document is not sent through the exchange yet');
        answer = await exchange.markPaid({ documentId, ...call.body });
      } else throw new ExchangeRefused(`unknown exchange message kind ${row.kind}`);
      await repo.finish(row.id, lease, done(answer, attempts, row));
      logger.info({ messageId: row.id, kind: row.kind, attempts }, 'exchange: message delivered');
    } catch (error) {
      if (error instanceof ExchangeUnreachable) {
        logger.warn({ messageId: row.id, attempts, err: error.message }, 'exchange: no answer');
        return pending(error.message);
      }
      if (!(error instanceof ExchangeRefused)) throw error;
      await repo.finish(row.id, lease, {
        status: 'failed',
        attempts,
        next_attempt_at: row.next_attempt_at,
        last_error: error.message.slice(0, 500),
        answer: null,
        done_at: null,
      });
      logger.warn({ messageId: row.id, err: error.message }, 'exchange: the intermediary refused the message');
      if (row.kind === 'send') await deps.sends?.refused(row.company_id, row.subject_id, error.message.slice(0, 500));
    }
  }

  /** The issued document's UBL; one that can no longer be written (a 409) is refused for good. */
  async function issuedXml(row: ExchangeMessageRow): Promise<string> {
    if (!deps.issuedUbl) throw new ExchangeRefused('no issued documents to send from');
    try {
      return await deps.issuedUbl(row.company_id, row.subject_id);
    } catch (error) {
      if (error instanceof AppError && error.code !== 'internal') throw new ExchangeRefused(error.message);
      throw error;
    }
  }

  /** The document this UBL's number names among those sent since the call was written, if any. */
  async function alreadySent(
    exchange: ReturnType<ExchangeConnector['open']>,
    xml: string,
    since: string,
  ): Promise<SentDocument | null> {
    const number = /<cbc:ID>([^<]+)<\/cbc:ID>/.exec(xml)?.[1];
    if (!number) return null;
    const found = (await exchange.status({ since })).find((s) => s.number === number);
    if (found) logger.info({ documentId: found.documentId }, 'exchange: a send left by a crash had gone through');
    return found ? { documentId: found.documentId, status: found.status } : null;
  }

  function done(answer: unknown, attempts: number, row: ExchangeMessageRow) {
    return {
      status: 'done',
      attempts,
      next_attempt_at: row.next_attempt_at,
      last_error: null,
      answer: JSON.stringify(answer ?? null).slice(0, 4000),
      done_at: clock.now().toISOString(),
    };
  }

  async function pollInbox(companyId: string): Promise<void> {
    const settings = await repo.find(companyId);
    if (!settings) return;
    const exchange = deps.connector.open(settings);
    let filed = 0;
    try {
      for (const entry of await exchange.inbox()) {
        if (await store.repos.purchases.findByExchangeDocument(companyId, entry.documentId)) continue;
        const bytes = await exchange.receive(entry.documentId);
        const { created } = await deps.purchases.file(companyId, {
          bytes,
          source: 'exchange',
          exchangeDocumentId: entry.documentId,
          fallback: { number: entry.number, supplierName: entry.senderName, supplierOib: entry.senderId },
        });
        if (created) filed++;
      }
      await repo.markInboxChecked(companyId, clock.now().toISOString(), null);
      if (filed > 0) logger.info({ companyId, filed }, 'exchange: received invoices filed');
    } catch (error) {
      if (!(error instanceof ExchangeUnreachable) && !(error instanceof ExchangeRefused)) throw error;
      logger.warn({ companyId, err: error.message }, 'exchange: inbox poll failed');
      await repo.markInboxChecked(companyId, clock.now().toISOString(), error.message.slice(0, 500));
    }
  }

  async function tick(): Promise<boolean> {
    const now = clock.now();
    const lease = new Date(now.getTime() + (deps.leaseMs ?? 5 * 60_000)).toISOString();
    const batch = await repo.claim(now.toISOString(), lease, BATCH);
    for (const row of batch) await deliver(row, lease);
    if (Date.now() >= nextPoll) {
      nextPoll = Date.now() + deps.pollMs;
      for (const settings of await repo.listConfigured()) {
        try {
          await pollInbox(settings.company_id);
        } catch (error) {
          logger.error({ companyId: settings.company_id, err: error }, 'exchange: inbox poll crashed');
        }
      }
      try {
        await deps.sends?.poll(async (companyId) => {
          const settings = await repo.find(companyId);
          return settings ? deps.connector.open(settings) : null;
        });
      } catch (error) {
        logger.error({ err: error }, 'exchange: status poll crashed');
      }
    }
    return batch.length === BATCH;
  }

  const poller = createPoller({
    tick,
    idleMs: deps.idleMs ?? 1_000,
    onError: (error) => logger.error({ err: error }, 'exchange worker tick failed'),
  });
  return {
    ...poller,
    /** The next tick polls the inboxes too (a test, or a person pressing "check now"). */
    pollNow() {
      nextPoll = 0;
      poller.wake();
    },
  };
}
