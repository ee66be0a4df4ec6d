import type { Executor } from '../../db/database.ts';
import type { IssuedDocumentsTable } from '../../db/schema.ts';

export type IssuedDocumentRow = IssuedDocumentsTable;

/** An issued document's snapshot and stored renderings: written once, never updated (0025's guard). */
export function createIssuedDocumentsRepository(db: Executor) {
  return {
    async find(companyId: string, saleId: string, format: string): Promise<IssuedDocumentRow | undefined> {
      return db
        .selectFrom('issued_documents')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('sale_id', '=', saleId)
        .where('format', '=', format)
        .executeTakeFirst();
    },
    /** Stores a rendering unless one is there already: of two first readers at once, the first write stays. */
    async insertOnce(row: IssuedDocumentRow): Promise<void> {
      await db
        .insertInto('issued_documents')
        .values(row)
        .onConflict((oc) => oc.columns(['company_id', 'sale_id', 'format']).doNothing())
        .execute();
    },
    /** How many documents are stored and their bytes, per format: the bench's figure. */
    async sizes(companyId: string): Promise<Array<{ format: string; count: number; bytes: number }>> {
      const rows = await db
        .selectFrom('issued_documents')
        .select((eb) => [
          'format',
          eb.fn.countAll<number>().as('count'),
          eb.fn.sum<number>(eb.fn('length', ['bytes'])).as('bytes'),
        ])
        .where('company_id', '=', companyId)
        .groupBy('format')
        .execute();
      return rows.map((r) => ({ format: r.format, count: Number(r.count), bytes: Number(r.bytes) }));
    },
  };
}
export type IssuedDocumentsRepository = ReturnType<typeof createIssuedDocumentsRepository>;
