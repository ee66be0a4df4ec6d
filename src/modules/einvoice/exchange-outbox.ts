import type { IdGenerator } from '../../lib/ids.ts';
import type { ReportedPaymentMethod, RejectionType } from './exchange.ts';
import type { ExchangeRepository } from './exchange.repository.ts';

/**
 * A call to the e-invoice exchange, as the change that causes it writes it: in its own
 * transaction, so the change and the call commit together or not at all (the worker sends it).
 * `send` hands over an issued document's UBL; `mark_paid` reports a payment on it (the exchange's
 * document id is the one its `send` got back, found by the same subject); `reject` reports the
 * rejection of a received one.
 */
export type ExchangeCall =
  /** `xml`: these bytes; `issued: 'ubl'`: the issued document's stored UBL (the subject is the sale). */
  | { kind: 'send'; body: { xml: string } | { issued: 'ubl' } }
  | { kind: 'mark_paid'; body: { paidOn: string; amount: string; method: ReportedPaymentMethod } }
  | { kind: 'reject'; body: { documentId: string; rejectedOn: string; type: RejectionType; reason: string } };

export async function enqueueExchangeCall(
  repos: { exchange: Pick<ExchangeRepository, 'insertMessage'> },
  call: ExchangeCall & { companyId: string; subjectId: string },
  opts: { now: string; newId: IdGenerator },
): Promise<string> {
  const id = opts.newId('exchangeMessage');
  await repos.exchange.insertMessage({
    id,
    company_id: call.companyId,
    kind: call.kind,
    subject_id: call.subjectId,
    body: JSON.stringify(call.body),
    status: 'pending',
    attempts: 0,
    next_attempt_at: opts.now,
    locked_until: null,
    last_error: null,
    answer: null,
    created_at: opts.now,
    done_at: null,
  });
  return id;
}
