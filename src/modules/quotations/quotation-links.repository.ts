import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { QuotationAnswerRow, QuotationLinkRow } from './types.ts';

/** The customers' links to sent quotations and their answers. */
export function createQuotationLinksRepository(db: Executor) {
  return {
    async insertLink(row: QuotationLinkRow): Promise<void> {
      await db.insertInto('quotation_links').values(row).execute();
    },

    /**
     * The one read not scoped by a company first: the customer's page knows only its token, and
     * the token's hash is what names the company (as an API key's does).
     */
    async findLink(tokenHash: string): Promise<QuotationLinkRow | undefined> {
      return db.selectFrom('quotation_links').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    },

    async findAnswer(companyId: string, quotationId: string): Promise<QuotationAnswerRow | undefined> {
      return db
        .selectFrom('quotation_answers')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('quotation_id', '=', quotationId)
        .executeTakeFirst();
    },

    /**
     * The customer's answer moves an approved quotation to `accepted` or `declined`, only if it
     * still is approved: a conversion or cancellation that won the race leaves it as it is.
     */
    /**
     * Marks an approved quotation answered, if it is still the revision the customer saw: false
     * when it is no longer open, 'revised' when a newer revision was made meanwhile.
     */
    async answer(revision: number, answer: QuotationAnswerRow): Promise<boolean | 'revised'> {
      const result = await db
        .updateTable('quotations')
        .set({ status: answer.answer })
        .where('company_id', '=', answer.company_id)
        .where('id', '=', answer.quotation_id)
        .where('status', '=', 'approved')
        .where(sql<number>`coalesce(revision, 1)`, '=', revision)
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) {
        const now = await db
          .selectFrom('quotations')
          .select(sql<number>`coalesce(revision, 1)`.as('revision'))
          .where('company_id', '=', answer.company_id)
          .where('id', '=', answer.quotation_id)
          .where('status', '=', 'approved')
          .executeTakeFirst();
        return now && Number(now.revision) !== revision ? 'revised' : false;
      }
      await db.insertInto('quotation_answers').values(answer).execute();
      return true;
    },
  };
}
export type QuotationLinksRepository = ReturnType<typeof createQuotationLinksRepository>;
