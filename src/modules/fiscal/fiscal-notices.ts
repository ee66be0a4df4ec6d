import type { Clock } from '../../lib/clock.ts';
import type { Store } from '../../db/store.ts';
import type { AdminNoticeRepos } from '../notifications/index.ts';
import type { SendOutcome, StoredRequest } from './fiscal-sender.ts';
import { lateDeliveryDeadline } from './late-delivery.ts';
import { PAYMENT_CHANGE, type StoredChange } from './payment-change.ts';
import type { FiscalRepository, FiscalRequestRow } from './fiscal.repository.ts';

type Note = {
  kind: string;
  title: string;
  body: string;
  params: Record<string, string>;
  subject?: { type: string; id: string };
};

/**
 * What a company's admins are told of fiscalisation: a receipt CIS refused (at once), and a
 * receipt still without its JIR past the late-delivery deadline (once): two Croatian working
 * days after the day of issue (late-delivery.ts). Every pending receipt is re-sent at least
 * every 15 minutes, so the deadline is noticed on a re-send.
 */
export function createFiscalNotices(deps: {
  store: Store<{ fiscal: Pick<FiscalRepository, 'markOverdueNotified'> } & AdminNoticeRepos>;
  clock: Clock;
  notifyAdmins: (repos: AdminNoticeRepos, companyId: string, note: Note) => Promise<void>;
}) {
  const { store, clock } = deps;
  return async function afterSend(row: FiscalRequestRow, outcome: SendOutcome): Promise<void> {
    const now = clock.now();
    if (row.kind === PAYMENT_CHANGE) {
      if (outcome.status !== 'rejected') return;
      const { of } = JSON.parse(row.facts) as Pick<StoredChange, 'of'>;
      await store.transaction((repos) =>
        deps.notifyAdmins(repos, row.company_id, {
          kind: 'fiscal.changeRejected',
          title: 'CIS was not told of a changed payment method',
          body: `The change of payment method of a receipt issued at ${row.issued_at} did not reach CIS: ${outcome.reason}. Cancel the receipt and issue it anew with the method it was paid by.`,
          params: { issuedAt: row.issued_at, reason: outcome.reason ?? '' },
          subject: { type: 'sale', id: of },
        }),
      );
      return;
    }
    const subject = { type: 'sale', id: row.document_id };
    if (outcome.status === 'rejected') {
      await store.transaction((repos) =>
        deps.notifyAdmins(repos, row.company_id, {
          kind: 'fiscal.rejected',
          title: 'CIS refused an invoice',
          body: `CIS refused to fiscalise an invoice issued at ${row.issued_at}: ${outcome.reason}. It is not sent again: correct the cause, then cancel the invoice and issue it anew.`,
          params: { issuedAt: row.issued_at, reason: outcome.reason ?? '' },
          subject,
        }),
      );
      return;
    }
    const { timeZone } = JSON.parse(row.facts) as Pick<StoredRequest, 'timeZone'>;
    const deadline = lateDeliveryDeadline(row.issued_at, timeZone);
    const overdue = Date.parse(deadline) <= now.getTime();
    if (outcome.status !== 'pending' || !overdue || row.overdue_notified_at) return;
    await store.transaction(async (repos) => {
      if (!(await repos.fiscal.markOverdueNotified(row.document_id, now.toISOString()))) return;
      await deps.notifyAdmins(repos, row.company_id, {
        kind: 'fiscal.overdue',
        title: 'An invoice is still not fiscalised',
        body: `CIS has not confirmed (no JIR) an invoice issued at ${row.issued_at}, past the deadline for late delivery (${deadline}: two working days). Portico keeps sending it. Last error: ${outcome.reason}.`,
        params: { issuedAt: row.issued_at, deadline, reason: outcome.reason ?? '' },
        subject,
      });
    });
  };
}
export type FiscalNotices = ReturnType<typeof createFiscalNotices>;
