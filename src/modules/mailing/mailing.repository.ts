import type { Executor } from '../../db/database.ts';
import type { DocumentSendingsTable, MailTemplatesTable } from '../../db/schema.ts';

export type SendingRow = DocumentSendingsTable;
export type MailTemplateRow = MailTemplatesTable;

/** Sendings of documents and the companies' e-mail templates; every query names the company first. */
export function createMailingRepository(db: Executor) {
  return {
    async insertSending(row: SendingRow): Promise<void> {
      await db.insertInto('document_sendings').values(row).execute();
    },

    /** A document's sendings, oldest first, with who sent each (the user's current name). */
    async listSendings(companyId: string, documentType: string, documentId: string) {
      return db
        .selectFrom('document_sendings')
        .innerJoin('users', (j) =>
          j
            .onRef('users.id', '=', 'document_sendings.sent_by')
            .onRef('users.company_id', '=', 'document_sendings.company_id'),
        )
        .selectAll('document_sendings')
        .select('users.name as sent_by_name')
        .where('document_sendings.company_id', '=', companyId)
        .where('document_sendings.document_type', '=', documentType)
        .where('document_sendings.document_id', '=', documentId)
        .orderBy('document_sendings.created_at')
        .orderBy('document_sendings.id')
        .execute();
    },

    async listTemplates(companyId: string): Promise<MailTemplateRow[]> {
      return db.selectFrom('mail_templates').selectAll().where('company_id', '=', companyId).execute();
    },

    async findTemplate(companyId: string, locale: string): Promise<MailTemplateRow | undefined> {
      return db
        .selectFrom('mail_templates')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('locale', '=', locale)
        .executeTakeFirst();
    },

    /** Saves one language's template; within a unit of work (delete and insert: the same on both engines). */
    async saveTemplate(row: MailTemplateRow): Promise<void> {
      await db
        .deleteFrom('mail_templates')
        .where('company_id', '=', row.company_id)
        .where('locale', '=', row.locale)
        .execute();
      await db.insertInto('mail_templates').values(row).execute();
    },

    async findReplyTo(companyId: string): Promise<string | null> {
      const row = await db
        .selectFrom('mail_settings')
        .select('reply_to')
        .where('company_id', '=', companyId)
        .executeTakeFirst();
      return row?.reply_to ?? null;
    },

    async saveReplyTo(companyId: string, replyTo: string | null, at: string): Promise<void> {
      await db.deleteFrom('mail_settings').where('company_id', '=', companyId).execute();
      await db
        .insertInto('mail_settings')
        .values({ company_id: companyId, reply_to: replyTo, updated_at: at })
        .execute();
    },

    async deleteTemplate(companyId: string, locale: string): Promise<void> {
      await db.deleteFrom('mail_templates').where('company_id', '=', companyId).where('locale', '=', locale).execute();
    },
  };
}
export type MailingRepository = ReturnType<typeof createMailingRepository>;
