import type { Executor } from '../../db/database.ts';
import type { DocumentLineRow } from './types.ts';

/** Lines of quotations, orders and sales share one shape; each kind has its own table. */
export function documentLines(db: Executor, table: 'quotation_lines' | 'order_lines' | 'sale_lines') {
  return {
    async insertLines(rows: DocumentLineRow[]): Promise<void> {
      // Chunked: PostgreSQL allows 65535 bind parameters per statement, SQLite 32766.
      for (let i = 0; i < rows.length; i += 200)
        await db
          .insertInto(table)
          .values(rows.slice(i, i + 200))
          .execute();
    },
    async listLines(companyId: string, documentId: string): Promise<DocumentLineRow[]> {
      return db
        .selectFrom(table)
        .selectAll()
        .where('company_id', '=', companyId)
        .where('document_id', '=', documentId)
        .orderBy('position')
        .execute();
    },
    /** The lines of a page of documents in one query. */
    async listLinesOf(companyId: string, documentIds: readonly string[]): Promise<DocumentLineRow[]> {
      if (documentIds.length === 0) return [];
      return db
        .selectFrom(table)
        .selectAll()
        .where('company_id', '=', companyId)
        .where('document_id', 'in', documentIds)
        .orderBy('document_id')
        .orderBy('position')
        .execute();
    },
  };
}
