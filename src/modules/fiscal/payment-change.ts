import { randomUUID } from 'node:crypto';
import type { Clock } from '../../lib/clock.ts';
import { cisPaymentCode } from './cis-format.ts';
import type { FiscalRepository, FiscalRequestRow } from './fiscal.repository.ts';
import type { StoredRequest } from './fiscal-sender.ts';
import type { PaymentChange, PaymentChangeOutcome } from './fiscaliser.ts';
import type { RacunChange } from './racun-request.ts';

/** The outbox row of a change message keeps the receipt as first sent and what changed. */
export interface StoredChange extends StoredRequest {
  change: RacunChange;
  /** The receipt's own outbox row (its document id). */
  of: string;
}

export const PAYMENT_CHANGE = 'payment_change';

/**
 * A payment method changed on a fiscalised receipt (specification v2.6 §2.1.5): the same day,
 * until midnight, CIS takes `promijeniPodatkeRacuna` with the receipt's data as first sent and
 * the method now; the last message of the day counts. Queued in the fiscal outbox as its own
 * row (`{documentId}:change:{instant}`), written in the transaction that recorded the payment,
 * sent by the worker once the receipt has its JIR. After midnight nothing is queued: the hub
 * offers cancelling the receipt and issuing it anew, as §2.1.5 prescribes then.
 */
export async function queuePaymentChange(
  repos: { fiscal: Pick<FiscalRepository, 'listRequests' | 'latestChange' | 'insertRequest'> },
  change: PaymentChange,
  clock: Clock,
): Promise<PaymentChangeOutcome> {
  const [receipt] = await repos.fiscal.listRequests(change.companyId, [change.documentId]);
  if (!receipt || receipt.kind !== 'invoice' || receipt.status === 'rejected') return 'not_required';
  const stored = JSON.parse(receipt.facts) as StoredRequest;
  if (dayIn(change.at, stored.timeZone) !== dayIn(new Date(receipt.issued_at), stored.timeZone)) return 'too_late';
  const payment = cisPaymentCode(change.paymentMethod);
  const latest = await repos.fiscal.latestChange(change.companyId, change.documentId);
  const known = latest ? (JSON.parse(latest.facts) as StoredChange).change.payment : stored.facts.payment;
  if (known === payment) return 'unchanged';
  const now = clock.now().toISOString();
  const row: FiscalRequestRow = {
    // Sorted by instant, so the latest change is the greatest key; the suffix keeps two in one millisecond apart.
    document_id: `${change.documentId}:change:${now}:${randomUUID().slice(0, 8)}`,
    company_id: change.companyId,
    kind: PAYMENT_CHANGE,
    facts: JSON.stringify({
      facts: stored.facts,
      timeZone: stored.timeZone,
      change: { payment, buyerOib: stored.facts.buyerOib },
      of: change.documentId,
    } satisfies StoredChange),
    zki: receipt.zki,
    qr_time: receipt.qr_time,
    total_minor: receipt.total_minor,
    status: 'pending',
    attempts: 0,
    next_attempt_at: now,
    locked_until: null,
    jir: null,
    error_code: null,
    error_message: null,
    last_error: null,
    issued_at: receipt.issued_at,
    fiscalised_at: null,
    overdue_notified_at: null,
    created_at: now,
  };
  await repos.fiscal.insertRequest(row);
  return 'queued';
}

export function dayIn(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    instant,
  );
}
