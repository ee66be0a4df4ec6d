import type { Engine, Executor } from '../../db/database.ts';
import { allColumns, insertTogether } from '../../db/written-statements.ts';
import { newestFirst, type NewestFirstPage } from '../../db/keyset.ts';
import type { InquiriesTable } from '../../db/schema.ts';
import { EMAIL_COLUMNS, NOTIFICATION_COLUMNS, type EmailMessageRow, type NotificationRow } from '../notifications/index.ts';

export type InquiryRow = InquiriesTable;

const INQUIRY_COLUMNS = allColumns<InquiryRow>()([
  'id', 'company_id', 'location_id', 'api_key_id', 'topic', 'subject', 'message', 'email', 'phone', 'name', 'product_photo_url', 'created_at',
]);

export function createInquiriesRepository(db: Executor, engine: Engine) {
  return {
    /**
     * A group-committed batch of inquiries with their notifications and e-mails, as one unit
     * (insertTogether): one statement on PostgreSQL; on SQLite, call it inside a transaction.
     */
    async insertWithNotifications(rows: readonly InquiryRow[], notifications: readonly NotificationRow[], emails: readonly EmailMessageRow[]): Promise<void> {
      await insertTogether(db, engine, [
        { table: 'inquiries', columns: INQUIRY_COLUMNS, rows },
        { table: 'notifications', columns: NOTIFICATION_COLUMNS, rows: notifications },
        { table: 'email_messages', columns: EMAIL_COLUMNS, rows: emails },
      ]);
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
