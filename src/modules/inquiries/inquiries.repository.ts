import type { Executor } from '../../db/database.ts';
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
    /** Newest first; keyset pagination on (created_at, id) so pages stay stable while inquiries arrive. */
    async list(companyId: string, opts: { limit: number; before?: { createdAt: string; id: string } }): Promise<InquiryRow[]> {
      let query = db.selectFrom('inquiries').selectAll().where('company_id', '=', companyId);
      if (opts.before) {
        const { createdAt, id } = opts.before;
        query = query.where((eb) => eb.or([eb('created_at', '<', createdAt), eb.and([eb('created_at', '=', createdAt), eb('id', '<', id)])]));
      }
      return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(opts.limit).execute();
    },
  };
}
export type InquiriesRepository = ReturnType<typeof createInquiriesRepository>;
