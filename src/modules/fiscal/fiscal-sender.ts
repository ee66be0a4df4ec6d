import { randomUUID } from 'node:crypto';
import type { Clock } from '../../lib/clock.ts';
import { cisTimes } from './cis-format.ts';
import { CisUnreachable, type CisClient } from './cis-client.ts';
import { parseChangeAnswer, parseRacunAnswer } from './cis-response.ts';
import type { AnswerVerifier } from './cis-answer-signature.ts';
import { dayIn, PAYMENT_CHANGE, type StoredChange } from './payment-change.ts';
import type { FiscalCredentials } from './fiscal-credentials.ts';
import type { FiscalRepository, FiscalRequestRow } from './fiscal.repository.ts';
import { CHANGE_REQUEST_ID, changeEnvelope, racunEnvelope, type RacunFacts } from './racun-request.ts';
import { signRequest } from './xml-signature.ts';

/** What the outbox row's `facts` column holds. */
export interface StoredRequest {
  facts: RacunFacts;
  timeZone: string;
}

/** Retries of a receipt CIS did not answer: quickly at first, then every 15 minutes until a JIR. */
export const DEFAULT_FISCAL_RETRY_DELAYS_MS = [10_000, 30_000, 60_000, 2 * 60_000, 5 * 60_000, 15 * 60_000];

/** CIS's "system error, try later" (specification 2.7): the one refusal worth sending again. */
const TRANSIENT_CODES = new Set(['s006']);

export interface SendOutcome {
  status: 'pending' | 'fiscalised' | 'rejected';
  /** Why it is not fiscalised: no answer, or CIS's refusal. */
  reason: string | null;
}

export interface FiscalSenderLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * Sends one claimed outbox row and records what came of it: a JIR (fiscalised), a refusal
 * (rejected, with CIS's code and text, not sent again), or no answer (pending; the next send
 * carries NakDost=true). Shared by the bounded send after issue and by the worker.
 */
export function createFiscalSender(deps: {
  repository: Pick<FiscalRepository, 'findCertificate' | 'finish' | 'listRequests'>;
  credentials: FiscalCredentials;
  client: CisClient;
  clock: Clock;
  logger: FiscalSenderLogger;
  /** The bounded wait after issue: a receipt first sent later than this went out without its JIR. */
  waitMs: number;
  retryDelaysMs: readonly number[];
  /** Checks an answer's signature against CIS's certificate; what it answers is all that is read. */
  verifyAnswer: AnswerVerifier;
  /** Told of every outcome (the admins' notices); a failure here does not undo the outcome. */
  afterSend?: (row: FiscalRequestRow, outcome: SendOutcome) => Promise<void>;
}) {
  const { repository, clock, logger } = deps;

  async function told(row: FiscalRequestRow, outcome: SendOutcome): Promise<SendOutcome> {
    try {
      await deps.afterSend?.(row, outcome);
    } catch (error) {
      logger.warn({ documentId: row.document_id, err: error }, 'fiscal: telling the admins failed');
    }
    return outcome;
  }

  async function sendOnce(row: FiscalRequestRow, lease: string, timeoutMs: number): Promise<SendOutcome> {
    const now = clock.now();
    const attempts = row.attempts + 1;
    const retryAt = () => {
      const delays = deps.retryDelaysMs;
      const delay = delays[Math.min(attempts, delays.length) - 1] ?? 60_000;
      return new Date(clock.now().getTime() + delay).toISOString();
    };
    const stillPending = async (reason: string): Promise<SendOutcome> => {
      await repository.finish(row.document_id, lease, {
        status: 'pending',
        attempts,
        next_attempt_at: retryAt(),
        jir: null,
        error_code: null,
        error_message: null,
        last_error: reason.slice(0, 500),
        fiscalised_at: null,
      });
      return { status: 'pending', reason };
    };

    const refused = async (errors: Array<{ code: string; message: string }>, what: string): Promise<SendOutcome> => {
      const text = errors.map((e) => `${e.code}: ${e.message}`).join('; ');
      await repository.finish(row.document_id, lease, {
        status: 'rejected',
        attempts,
        next_attempt_at: row.next_attempt_at,
        jir: null,
        error_code: errors[0]!.code.slice(0, 20),
        error_message: errors
          .map((e) => e.message)
          .join('; ')
          .slice(0, 1000),
        last_error: null,
        fiscalised_at: null,
      });
      logger.warn({ documentId: row.document_id, errors: text }, `fiscal: CIS refused ${what}`);
      return { status: 'rejected', reason: text };
    };
    /** Posts a signed message; the answer element its signature covers, or why there is none to trust. */
    const exchange = async (
      envelope: string,
      action: 'racuni' | 'promijeniPodatkeRacuna',
      answerName: string,
    ): Promise<{ xml: string } | { pending: string }> => {
      let body: string;
      try {
        body = await deps.client.post(envelope, action, timeoutMs);
      } catch (error) {
        if (!(error instanceof CisUnreachable)) throw error;
        logger.warn({ documentId: row.document_id, attempts, err: error.message }, 'fiscal: no answer from CIS');
        return { pending: error.message };
      }
      const verified = deps.verifyAnswer(body, answerName);
      if (!verified.ok) {
        // A forged or unsigned answer is no answer: nothing in it is believed, the message goes again.
        logger.warn({ documentId: row.document_id, attempts, reason: verified.reason }, 'fiscal: CIS answer refused');
        return { pending: `CIS answer refused: ${verified.reason}` };
      }
      return { xml: verified.xml };
    };

    const certificate = await repository.findCertificate(row.company_id);
    if (!certificate) return stillPending('no fiscal certificate stored');
    if (row.kind === PAYMENT_CHANGE) {
      const stored = JSON.parse(row.facts) as StoredChange;
      if (dayIn(now, stored.timeZone) !== dayIn(new Date(row.issued_at), stored.timeZone))
        return refused(
          [
            {
              code: 'midnight',
              message:
                'The day of issue is over: CIS no longer takes a change of payment method. Cancel the receipt and issue it anew.',
            },
          ],
          'the late change',
        );
      const [receipt] = await repository.listRequests(row.company_id, [stored.of]);
      if (receipt?.status !== 'fiscalised') return stillPending('the receipt has no JIR yet');
      // NakDost as the receipt was delivered: CIS compares the data with the receipt's (s012).
      const receiptLate =
        receipt.attempts > 1 ||
        Date.parse(receipt.fiscalised_at ?? receipt.issued_at) - Date.parse(receipt.issued_at) > deps.waitMs;
      const envelope = signRequest(
        changeEnvelope(stored.facts, stored.change, {
          messageId: randomUUID(),
          sentAt: cisTimes(now, stored.timeZone).xml,
          lateDelivery: receiptLate,
        }),
        deps.credentials.open(certificate),
        CHANGE_REQUEST_ID,
      );
      const answered = await exchange(envelope, 'promijeniPodatkeRacuna', 'PromijeniPodatkeRacunaOdgovor');
      if ('pending' in answered) return stillPending(answered.pending);
      const answer = parseChangeAnswer(answered.xml);
      if (answer.kind === 'changed') {
        await repository.finish(row.document_id, lease, {
          status: 'fiscalised',
          attempts,
          next_attempt_at: row.next_attempt_at,
          jir: null,
          error_code: null,
          error_message: null,
          last_error: null,
          fiscalised_at: clock.now().toISOString(),
        });
        logger.info({ documentId: row.document_id, attempts }, 'fiscal: payment change reported');
        return { status: 'fiscalised', reason: null };
      }
      if (answer.kind === 'unreadable') return stillPending(`unreadable answer: ${answer.detail}`);
      if (answer.errors.every((e) => TRANSIENT_CODES.has(e.code)))
        return stillPending(answer.errors.map((e) => `${e.code}: ${e.message}`).join('; '));
      return refused(answer.errors, 'the payment change');
    }
    const { facts, timeZone } = JSON.parse(row.facts) as StoredRequest;
    const late = row.attempts > 0 || now.getTime() - Date.parse(row.issued_at) > deps.waitMs;
    const envelope = signRequest(
      racunEnvelope(facts, { messageId: randomUUID(), sentAt: cisTimes(now, timeZone).xml, lateDelivery: late }),
      deps.credentials.open(certificate),
    );

    const answered = await exchange(envelope, 'racuni', 'RacunOdgovor');
    if ('pending' in answered) return stillPending(answered.pending);
    const answer = parseRacunAnswer(answered.xml);
    if (answer.kind === 'jir') {
      await repository.finish(row.document_id, lease, {
        status: 'fiscalised',
        attempts,
        next_attempt_at: row.next_attempt_at,
        jir: answer.jir,
        error_code: null,
        error_message: null,
        last_error: null,
        fiscalised_at: clock.now().toISOString(),
      });
      logger.info({ documentId: row.document_id, attempts, late }, 'fiscal: JIR received');
      return { status: 'fiscalised', reason: null };
    }
    if (answer.kind === 'unreadable') return stillPending(`unreadable answer: ${answer.detail}`);
    const text = answer.errors.map((e) => `${e.code}: ${e.message}`).join('; ');
    if (answer.errors.every((e) => TRANSIENT_CODES.has(e.code))) return stillPending(text);
    // A refusal is the message's fault (schema, signature, certificate, OIB): sending the same
    // message again would be refused again, so it waits for a person.
    return refused(answer.errors, 'the receipt');
  }

  /** Sends one claimed row; answers the status it was left in. */
  return async function send(row: FiscalRequestRow, lease: string, timeoutMs: number): Promise<SendOutcome> {
    return told(row, await sendOnce(row, lease, timeoutMs));
  };
}
export type FiscalSender = ReturnType<typeof createFiscalSender>;
