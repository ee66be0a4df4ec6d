import type { Executor } from '../../db/database.ts';
import { newestFirst, type NewestFirstPage } from '../../db/keyset.ts';
import type { InquiriesTable } from '../../db/schema.ts';

export type InquiryRow = InquiriesTable;

export function createInquiriesRepository(db: Executor) {
  return {
    async insert(row: InquiryRow): Promise<void> {
      await db.insertInto('inquiries').values(row).execute();
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
