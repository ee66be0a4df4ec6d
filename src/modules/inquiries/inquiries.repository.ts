import type { Executor } from '../../db/database.ts';
import { newestFirst, type NewestFirstPage } from '../../db/keyset.ts';
import type { InquiriesTable } from '../../db/schema.ts';

export type InquiryRow = InquiriesTable;

export function createInquiriesRepository(db: Executor) {
  return {
    async insertMany(rows: InquiryRow[]): Promise<void> {
      if (rows.length > 0) await db.insertInto('inquiries').values(rows).execute();
    },
    async find(companyId: string, id: string): Promise<InquiryRow | undefined> {
      return db.selectFrom('inquiries').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
    },
    async list(companyId: string, page: NewestFirstPage): Promise<InquiryRow[]> {
      return newestFirst(db.selectFrom('inquiries').selectAll().where('company_id', '=', companyId), page).execute();
    },
  };
}
export type InquiriesRepository = ReturnType<typeof createInquiriesRepository>;
