import type { Executor } from '../../db/database.ts';
import type { QuotationsTable } from '../../db/schema.ts';
import { documentLines } from '../sales/documents.repository.ts';

export type QuotationRow = QuotationsTable;

export function createQuotationsRepository(db: Executor) {
  return {
    ...documentLines(db, 'quotation_lines'),
    async insert(row: QuotationRow): Promise<void> {
      await db.insertInto('quotations').values(row).execute();
    },
    async find(companyId: string, id: string): Promise<QuotationRow | undefined> {
      return db.selectFrom('quotations').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
    },
    async list(companyId: string, opts: { limit: number; before?: { createdAt: string; id: string } }): Promise<QuotationRow[]> {
      let query = db.selectFrom('quotations').selectAll().where('company_id', '=', companyId);
      if (opts.before) {
        const { createdAt, id } = opts.before;
        query = query.where((eb) => eb.or([eb('created_at', '<', createdAt), eb.and([eb('created_at', '=', createdAt), eb('id', '<', id)])]));
      }
      return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(opts.limit).execute();
    },
  };
}
export type QuotationsRepository = ReturnType<typeof createQuotationsRepository>;
