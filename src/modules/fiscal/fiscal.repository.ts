import type { Executor } from '../../db/database.ts';
import type { FiscalCertificatesTable, FiscalRequestsTable } from '../../db/schema.ts';

export type FiscalCertificateRow = FiscalCertificatesTable;
export type FiscalRequestRow = FiscalRequestsTable;
type Outcome = Pick<
  FiscalRequestRow,
  'status' | 'attempts' | 'next_attempt_at' | 'jir' | 'error_code' | 'error_message' | 'last_error' | 'fiscalised_at'
>;

/** The fiscal tables; every read names the company, a claim names the lease it holds. */
export function createFiscalRepository(db: Executor) {
  return {
    async findCertificate(companyId: string): Promise<FiscalCertificateRow | undefined> {
      return db.selectFrom('fiscal_certificates').selectAll().where('company_id', '=', companyId).executeTakeFirst();
    },
    async saveCertificate(row: FiscalCertificateRow): Promise<void> {
      const { company_id, ...rest } = row;
      await db
        .insertInto('fiscal_certificates')
        .values(row)
        .onConflict((oc) => oc.column('company_id').doUpdateSet(rest))
        .execute();
    },

    async insertRequest(row: FiscalRequestRow): Promise<void> {
      await db.insertInto('fiscal_requests').values(row).execute();
    },
    async listRequests(companyId: string, documentIds: readonly string[]): Promise<FiscalRequestRow[]> {
      if (documentIds.length === 0) return [];
      return db
        .selectFrom('fiscal_requests')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('document_id', 'in', documentIds)
        .execute();
    },
    /**
     * The latest change message queued for a document (`{documentId}:change:…` rows, fiscal
     * changes.ts), by the key's range so the primary key serves it.
     */
    async latestChange(companyId: string, documentId: string): Promise<FiscalRequestRow | undefined> {
      return db
        .selectFrom('fiscal_requests')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('document_id', '>', `${documentId}:change:`)
        .where('document_id', '<', `${documentId}:change;`)
        .orderBy('document_id', 'desc')
        .limit(1)
        .executeTakeFirst();
    },
    /** Documents still without a JIR (pending or rejected), oldest first: the hub's Today list. */
    async listUnfiscalised(companyId: string, limit: number): Promise<FiscalRequestRow[]> {
      return db
        .selectFrom('fiscal_requests')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('status', '!=', 'fiscalised')
        .where('kind', '!=', 'payment_change')
        .orderBy('issued_at')
        .limit(limit)
        .execute();
    },

    /**
     * Takes due pending rows (or the named ones, due or not) for one sender until `leaseUntil`.
     * A conditional update per row: of two senders racing for one, only one gets it.
     */
    async claim(
      now: string,
      leaseUntil: string,
      limit: number,
      only?: { companyId: string; documentIds: readonly string[] },
    ): Promise<FiscalRequestRow[]> {
      let due = db
        .selectFrom('fiscal_requests')
        .select('document_id')
        .where('status', '=', 'pending')
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]));
      due = only
        ? due.where('company_id', '=', only.companyId).where('document_id', 'in', only.documentIds)
        : due.where('next_attempt_at', '<=', now).orderBy('next_attempt_at');
      const ids = await due.limit(limit).execute();
      const claimed: FiscalRequestRow[] = [];
      for (const { document_id } of ids) {
        const row = await db
          .updateTable('fiscal_requests')
          .set({ locked_until: leaseUntil })
          .where('document_id', '=', document_id)
          .where('status', '=', 'pending')
          .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
          .returningAll()
          .executeTakeFirst();
        if (row) claimed.push(row);
      }
      return claimed;
    },
    /** Only while the sender's lease is still the row's. */
    async finish(documentId: string, lease: string, outcome: Outcome): Promise<void> {
      await db
        .updateTable('fiscal_requests')
        .set({ ...outcome, locked_until: null })
        .where('document_id', '=', documentId)
        .where('locked_until', '=', lease)
        .execute();
    },

    async markOverdueNotified(documentId: string, at: string): Promise<boolean> {
      const result = await db
        .updateTable('fiscal_requests')
        .set({ overdue_notified_at: at })
        .where('document_id', '=', documentId)
        .where('overdue_notified_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}
export type FiscalRepository = ReturnType<typeof createFiscalRepository>;
