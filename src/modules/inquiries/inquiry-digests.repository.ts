import type { Executor } from '../../db/database.ts';
import type { InquiryDigestsTable } from '../../db/schema.ts';
import type { InquiryRow } from './types.ts';

export type InquiryDigestRow = InquiryDigestsTable;

/**
 * Per company: whether a digest of new inquiries is due, and what the last one covered. Marking
 * one due costs a batch of inquiries one statement per company that writes nothing while a
 * digest is already due.
 */
export function createInquiryDigestsRepository(db: Executor) {
  return {
    /** Due at `dueAt` unless already due; a company's first digest takes what came after `coveredUntil`. */
    async markDue(entries: ReadonlyArray<{ companyId: string; dueAt: string; coveredUntil: string }>): Promise<void> {
      for (const e of entries)
        await db
          .insertInto('inquiry_digests')
          .values({ company_id: e.companyId, due_at: e.dueAt, covered_until: e.coveredUntil, last_sent_at: null })
          .onConflict((oc) =>
            oc
              .column('company_id')
              .doUpdateSet((eb) => ({ due_at: eb.ref('excluded.due_at') }))
              .where('inquiry_digests.due_at', 'is', null),
          )
          .execute();
    },

    /** Digests due by `now` whose company had none since `sentBefore` (one per window). */
    async due(now: string, sentBefore: string, limit: number): Promise<InquiryDigestRow[]> {
      return db
        .selectFrom('inquiry_digests')
        .selectAll()
        .where('due_at', '<=', now)
        .where((eb) => eb.or([eb('last_sent_at', 'is', null), eb('last_sent_at', '<=', sentBefore)]))
        .orderBy('due_at')
        .limit(limit)
        .execute();
    },

    /**
     * Takes a due digest: only while it is still the one read (`due_at` unchanged), so of two
     * senders only one writes its e-mails. `nextDue` stays set when inquiries beyond the covered
     * time are waiting.
     */
    async take(
      digest: InquiryDigestRow,
      patch: { coveredUntil: string; sentAt: string | null; nextDue: string | null },
    ): Promise<boolean> {
      const result = await db
        .updateTable('inquiry_digests')
        .set({ due_at: patch.nextDue, covered_until: patch.coveredUntil, last_sent_at: patch.sentAt })
        .where('company_id', '=', digest.company_id)
        .where('due_at', '=', digest.due_at)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Puts back when the last digest went out (one taken that found nothing to send). */
    async setLastSent(companyId: string, lastSentAt: string | null): Promise<void> {
      await db
        .updateTable('inquiry_digests')
        .set({ last_sent_at: lastSentAt })
        .where('company_id', '=', companyId)
        .execute();
    },

    /**
     * Takes the live inquiries told to staff, created after `after`, that no digest has taken yet:
     * marks them digested at `at`, and answers the first `limit` of them (oldest first) and how
     * many in all. The one UPDATE decides which: an inquiry committed a moment later is the next
     * digest's, never neither's. `after` only bounds the index range (no commit comes that late).
     */
    async takeUndigested(
      companyId: string,
      after: string,
      at: string,
      limit: number,
    ): Promise<{ rows: InquiryRow[]; total: number }> {
      const marked = await db
        .updateTable('inquiries')
        .set({ digested_at: at })
        .where('company_id', '=', companyId)
        .where('created_at', '>', after)
        .where('digested_at', 'is', null)
        .where('mode', '=', 'live')
        .where('spam_reason', 'is', null)
        .executeTakeFirst();
      const total = Number(marked.numUpdatedRows);
      if (total === 0) return { rows: [], total };
      const rows = await db
        .selectFrom('inquiries')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('created_at', '>', after)
        .where('digested_at', '=', at)
        .orderBy('created_at')
        .orderBy('id')
        .limit(limit)
        .execute();
      return { rows, total };
    },
  };
}
export type InquiryDigestsRepository = ReturnType<typeof createInquiryDigestsRepository>;
