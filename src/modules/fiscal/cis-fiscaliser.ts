import type { Clock } from '../../lib/clock.ts';
import { cisAmount, cisPaymentCode, cisRate, cisTimes, oibOf, verifyUrl } from './cis-format.ts';
import type { FiscalCredentials } from './fiscal-credentials.ts';
import type { FiscalRepository, FiscalRequestRow } from './fiscal.repository.ts';
import type { FiscalSender, StoredRequest } from './fiscal-sender.ts';
import {
  NOT_REQUIRED,
  type FiscalDocument,
  type Fiscaliser,
  type FiscalStatus,
  type FiscalStatusReader,
} from './fiscaliser.ts';
import type { RacunFacts } from './racun-request.ts';
import { computeZki } from './zki.ts';
import { queuePaymentChange } from './payment-change.ts';

/** What `prepare` and `changePayment` need of the caller's transaction's repositories. */
export type FiscalRepos = {
  fiscal: Pick<FiscalRepository, 'findCertificate' | 'insertRequest' | 'listRequests' | 'latestChange'>;
};

/** Croatia's fiscaliser: `deliver` is required here, and it reads statuses back too. */
export interface CroatianFiscaliser extends Fiscaliser<FiscalRepos>, FiscalStatusReader {
  deliver(companyId: string, documentIds: readonly string[]): Promise<Map<string, FiscalStatus>>;
}

// The bounded send holds its rows a little longer than it waits: a process killed meanwhile
// leaves them to the worker soon after.
const LEASE_MARGIN_MS = 5_000;

/**
 * Croatia's CIS behind the fiscal interface (specification v2.5): a company fiscalises once its
 * FINA certificate is stored. `prepare` computes the ZKI and writes the outbox row in the
 * issuing transaction; nothing waits for the network inside it.
 */
export function createCroatianFiscaliser(deps: {
  repository: Pick<FiscalRepository, 'listRequests' | 'claim'>;
  credentials: FiscalCredentials;
  send: FiscalSender;
  clock: Clock;
  waitMs: number;
  onQueued?: () => void;
}): CroatianFiscaliser {
  const { clock } = deps;
  // Rows this process just wrote, already leased to it: the send after commit needs no claim (one
  // write fewer on the issuing path). A transaction that rolled back leaves an entry nobody
  // delivers; the bound drops such entries.
  const held = new Map<string, { row: FiscalRequestRow; lease: string }>();

  async function statusOf(companyId: string, documentIds: readonly string[]) {
    const rows = await deps.repository.listRequests(companyId, documentIds);
    return new Map(rows.map((row) => [row.document_id, toStatus(row)]));
  }

  return {
    async prepare(repos, doc) {
      const certificate = await repos.fiscal.findCertificate(doc.companyId);
      if (!certificate) return NOT_REQUIRED;
      const oib = oibOf(doc.sellerTaxId) ?? certificate.oib;
      const times = cisTimes(doc.issuedAt, doc.timeZone);
      const total = cisAmount(doc.totalMinor);
      const zki = computeZki(
        deps.credentials.open(certificate).privateKey,
        {
          oib,
          issuedAt: times.zki,
          sequence: String(doc.sequence),
          premises: doc.premises,
          device: doc.device,
          total,
        },
        doc.zkiHash ?? 'sha1',
      );
      const facts: RacunFacts = {
        oib,
        vatRegistered: doc.vatRegistered,
        issuedAt: times.xml,
        sequenceMode: doc.sequenceMode ?? 'P',
        sequence: String(doc.sequence),
        premises: doc.premises,
        device: doc.device,
        taxes: doc.taxes.map((t) => ({
          rate: cisRate(t.ratePercent),
          base: cisAmount(t.baseMinor),
          amount: cisAmount(t.taxMinor),
        })),
        exempt: doc.exemptMinor !== 0 ? cisAmount(doc.exemptMinor) : null,
        total,
        payment: cisPaymentCode(doc.paymentMethod),
        // Without a personal OIB the issuer's own stands in, as on a self-service device (2.1.1).
        operatorOib: oibOf(doc.operatorTaxId) ?? oib,
        zki,
        buyerOib: oibOf(doc.buyerTaxId),
      };
      const now = clock.now();
      const lease = new Date(now.getTime() + deps.waitMs + LEASE_MARGIN_MS).toISOString();
      const row: FiscalRequestRow = {
        document_id: doc.documentId,
        company_id: doc.companyId,
        kind: doc.kind,
        facts: JSON.stringify({ facts, timeZone: doc.timeZone } satisfies StoredRequest),
        zki,
        qr_time: times.qr,
        total_minor: doc.totalMinor,
        status: 'pending',
        attempts: 0,
        // The bounded send after commit goes first; the worker takes it if that never happens.
        next_attempt_at: new Date(now.getTime() + deps.waitMs).toISOString(),
        // Held by this process for its send after commit; the worker takes it once the lease lapses.
        locked_until: lease,
        jir: null,
        error_code: null,
        error_message: null,
        last_error: null,
        issued_at: new Date(doc.issuedAt).toISOString(),
        fiscalised_at: null,
        overdue_notified_at: null,
        created_at: now.toISOString(),
      };
      await repos.fiscal.insertRequest(row);
      if (held.size >= 10_000) held.clear();
      held.set(row.document_id, { row, lease });
      deps.onQueued?.();
      return toStatus(row);
    },

    async deliver(companyId, documentIds) {
      const mine = documentIds.flatMap((id) => {
        const entry = held.get(id);
        held.delete(id);
        return entry && entry.row.company_id === companyId ? [entry] : [];
      });
      // Rows another process wrote (or this one before a restart) are claimed like the worker does.
      const others = documentIds.filter((id) => !mine.some((m) => m.row.document_id === id));
      if (others.length > 0) {
        const now = clock.now();
        const lease = new Date(now.getTime() + deps.waitMs + LEASE_MARGIN_MS).toISOString();
        const rows = await deps.repository.claim(now.toISOString(), lease, others.length, {
          companyId,
          documentIds: others,
        });
        mine.push(...rows.map((row) => ({ row, lease })));
      }
      await Promise.all(mine.map(({ row, lease }) => deps.send(row, lease, deps.waitMs)));
      return statusOf(companyId, documentIds);
    },

    statusOf,

    changePayment: (repos, change) => queuePaymentChange(repos, change, clock),
  };
}

export function toStatus(row: FiscalRequestRow): FiscalStatus {
  return {
    status: row.status as FiscalStatus['status'],
    protectionCode: row.zki,
    receipt: row.jir,
    verifyUrl: verifyUrl({ jir: row.jir, zki: row.zki, qrTime: row.qr_time, totalMinor: Number(row.total_minor) }),
    error: row.status === 'rejected' ? { code: row.error_code ?? 'unknown', message: row.error_message ?? '' } : null,
  };
}

export type { FiscalDocument };
