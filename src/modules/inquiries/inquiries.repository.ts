import type { Engine, Executor } from '../../db/database.ts';
import { allColumns, insertRows } from '../../db/written-statements.ts';
import { newestFirst, type NewestFirstPage } from '../../db/keyset.ts';
import type { InquiriesTable } from '../../db/schema.ts';

export type InquiryRow = InquiriesTable;

const INQUIRY_COLUMNS = allColumns<InquiryRow>()([
  'id', 'company_id', 'location_id', 'api_key_id', 'topic', 'subject', 'message', 'email', 'phone', 'name', 'product_photo_url', 'created_at',
]);

export function createInquiriesRepository(db: Executor, engine: Engine) {
  return {
    /** Group-committed batches: written-out multi-row statements (see written-statements.ts). */
    async insertMany(rows: InquiryRow[]): Promise<void> {
      await insertRows(db, engine, 'inquiries', INQUIRY_COLUMNS, rows);
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
