import type { Executor } from '../../db/database.ts';
import type { EInvoiceExchangesTable, EInvoiceSendsTable, ExchangeMessagesTable } from '../../db/schema.ts';

export type ExchangeRow = EInvoiceExchangesTable;
export type ExchangeMessageRow = ExchangeMessagesTable;
export type SendRow = EInvoiceSendsTable;
type Outcome = Pick<
  ExchangeMessageRow,
  'status' | 'attempts' | 'next_attempt_at' | 'last_error' | 'answer' | 'done_at'
>;

/** The exchange's settings and its outbox; every read names the company, a claim the lease it holds. */
export function createExchangeRepository(db: Executor) {
  return {
    async find(companyId: string): Promise<ExchangeRow | undefined> {
      return db.selectFrom('einvoice_exchanges').selectAll().where('company_id', '=', companyId).executeTakeFirst();
    },
    async save(row: ExchangeRow): Promise<void> {
      const { company_id, ...rest } = row;
      await db
        .insertInto('einvoice_exchanges')
        .values(row)
        .onConflict((oc) => oc.column('company_id').doUpdateSet(rest))
        .execute();
    },
    async remove(companyId: string): Promise<boolean> {
      const result = await db.deleteFrom('einvoice_exchanges').where('company_id', '=', companyId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    /** Every configured company, for the inbox poll. */
    async listConfigured(): Promise<ExchangeRow[]> {
      return db.selectFrom('einvoice_exchanges').selectAll().orderBy('company_id').execute();
    },
    async markInboxChecked(companyId: string, at: string, error: string | null): Promise<void> {
      await db
        .updateTable('einvoice_exchanges')
        .set({ inbox_checked_at: at, inbox_error: error })
        .where('company_id', '=', companyId)
        .execute();
    },

    async insertMessage(row: ExchangeMessageRow): Promise<void> {
      await db.insertInto('exchange_messages').values(row).execute();
    },
    async listMessages(companyId: string, subjectIds: readonly string[]): Promise<ExchangeMessageRow[]> {
      if (subjectIds.length === 0) return [];
      return db
        .selectFrom('exchange_messages')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('subject_id', 'in', subjectIds)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },
    /** The latest delivered call of a kind about a subject (the `send` whose document a payment reports on). */
    async findDone(companyId: string, subjectId: string, kind: string): Promise<ExchangeMessageRow | undefined> {
      return db
        .selectFrom('exchange_messages')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('subject_id', '=', subjectId)
        .where('kind', '=', kind)
        .where('status', '=', 'done')
        .orderBy('done_at', 'desc')
        .limit(1)
        .executeTakeFirst();
    },
    /**
     * Takes due pending messages for one sender until `leaseUntil`: a conditional update per row,
     * so of two senders racing for one only one gets it.
     */
    async claim(
      now: string,
      leaseUntil: string,
      limit: number,
    ): Promise<Array<ExchangeMessageRow & { resumed: boolean }>> {
      const due = await db
        .selectFrom('exchange_messages')
        .select(['id', 'locked_until'])
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', now)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
        .orderBy('next_attempt_at')
        .limit(limit)
        .execute();
      const claimed: Array<ExchangeMessageRow & { resumed: boolean }> = [];
      for (const { id, locked_until } of due) {
        const row = await db
          .updateTable('exchange_messages')
          .set({ locked_until: leaseUntil })
          .where('id', '=', id)
          .where('status', '=', 'pending')
          .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
          .returningAll()
          .executeTakeFirst();
        // `resumed`: an earlier sender's lease lapsed without an outcome (it crashed mid-call).
        if (row) claimed.push({ ...row, resumed: locked_until !== null });
      }
      return claimed;
    },
    /** The e-invoices sent for these documents (sales), with where each is. */
    async findSends(companyId: string, saleIds: readonly string[]): Promise<SendRow[]> {
      if (saleIds.length === 0) return [];
      return db
        .selectFrom('einvoice_sends')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('sale_id', 'in', saleIds)
        .execute();
    },
    async insertSend(row: SendRow): Promise<void> {
      await db.insertInto('einvoice_sends').values(row).execute();
    },
    async updateSend(
      companyId: string,
      saleId: string,
      patch: Partial<Omit<SendRow, 'company_id' | 'sale_id' | 'message_id' | 'created_at'>>,
      onlyIfNotNotified = false,
    ): Promise<boolean> {
      let q = db
        .updateTable('einvoice_sends')
        .set(patch)
        .where('company_id', '=', companyId)
        .where('sale_id', '=', saleId);
      if (onlyIfNotNotified) q = q.where('notified_at', 'is', null);
      const result = await q.executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    /**
     * The documents still on their way, of every company, least recently checked first: queued or
     * sent ones not checked since `checkedBefore`; delivered ones issued since `watchFrom` (the
     * buyer may still reject them, and their fiscalisation may still be unknown) not checked since
     * `deliveredBefore`. The worker's status poll.
     */
    async listOpenSends(
      opts: { checkedBefore: string; deliveredBefore: string; watchFrom: string },
      limit: number,
    ): Promise<SendRow[]> {
      return db
        .selectFrom('einvoice_sends')
        .selectAll()
        .where('status', 'in', ['queued', 'sent', 'delivered'])
        .where((eb) =>
          eb.or([
            eb.and([
              eb('status', 'in', ['queued', 'sent']),
              eb.or([eb('checked_at', 'is', null), eb('checked_at', '<', opts.checkedBefore)]),
            ]),
            eb.and([
              eb('status', '=', 'delivered'),
              eb('created_at', '>', opts.watchFrom),
              eb.or([eb('checked_at', 'is', null), eb('checked_at', '<', opts.deliveredBefore)]),
            ]),
          ]),
        )
        .orderBy('checked_at')
        .limit(limit)
        .execute();
    },
    /**
     * Today's e-invoice state in one read: whether the company has an exchange (no row: none) and
     * the sent documents stuck, newest first: refused, rejected, or still not sent or delivered
     * since `olderThan` (a row with a null sale: configured, nothing stuck).
     */
    async todayState(
      companyId: string,
      olderThan: string,
      limit: number,
    ): Promise<Array<Pick<SendRow, 'sale_id' | 'status' | 'created_at' | 'last_error' | 'rejection_reason'>>> {
      const rows = await db
        .selectFrom('einvoice_exchanges as e')
        .leftJoin('einvoice_sends as s', (join) =>
          join
            .onRef('s.company_id', '=', 'e.company_id')
            .on((eb) =>
              eb.or([
                eb('s.status', 'in', ['failed', 'rejected']),
                eb.and([eb('s.status', 'in', ['queued', 'sent']), eb('s.created_at', '<', olderThan)]),
              ]),
            ),
        )
        .select(['s.sale_id', 's.status', 's.created_at', 's.last_error', 's.rejection_reason'])
        .where('e.company_id', '=', companyId)
        .orderBy('s.created_at', 'desc')
        .limit(limit)
        .execute();
      return rows as Array<Pick<SendRow, 'sale_id' | 'status' | 'created_at' | 'last_error' | 'rejection_reason'>>;
    },
    /** The exchange calls of a kind about these subjects (the payments reported on a sale). */
    async listMessagesOfKind(
      companyId: string,
      subjectIds: readonly string[],
      kind: string,
    ): Promise<ExchangeMessageRow[]> {
      if (subjectIds.length === 0) return [];
      return db
        .selectFrom('exchange_messages')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('subject_id', 'in', subjectIds)
        .where('kind', '=', kind)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },
    /** One message by id, of its company. */
    async findMessage(companyId: string, id: string): Promise<ExchangeMessageRow | undefined> {
      return db
        .selectFrom('exchange_messages')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .executeTakeFirst();
    },
    /** Only while the sender's lease is still the row's. */
    async finish(id: string, lease: string, outcome: Outcome): Promise<void> {
      await db
        .updateTable('exchange_messages')
        .set({ ...outcome, locked_until: null })
        .where('id', '=', id)
        .where('locked_until', '=', lease)
        .execute();
    },
  };
}
export type ExchangeRepository = ReturnType<typeof createExchangeRepository>;
