import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.ts';

/**
 * An issued invoice keeps what its e-invoice says (issue 21 follow-up): a sale line now holds
 * the product's KPD code and the unit's UN/ECE Rec 20 code as they were when the sale was
 * issued, like its name and price, so a later catalog edit cannot rewrite an issued e-invoice.
 * Lines issued before this read the catalog once, here. A unit without its own code keeps null
 * and the e-invoice derives the code from the line's own unit name, as it did before.
 *
 * A document's sending by e-mail records whether the e-invoice went with it (`attached`), could
 * not (`missing`, with the fields its profile still lacked, as JSON), or was not asked for
 * (null: a consumer, or a quotation).
 */
export async function up(db: Kysely<any>, _engine: Engine): Promise<void> {
  await db.schema.alterTable('sale_lines').addColumn('classification_code', 'text').execute();
  await db.schema.alterTable('sale_lines').addColumn('unit_code', 'text').execute();
  await backfillSaleLineCodes(db);

  await db.schema.alterTable('document_sendings').addColumn('e_invoice', 'text').execute();
  await db.schema.alterTable('document_sendings').addColumn('e_invoice_missing', 'text').execute();
}

/** The lines issued before 0019 take the catalog's codes once (exported for its test). */
export async function backfillSaleLineCodes(db: Kysely<any>): Promise<void> {
  // Correlated subqueries: the same statement on SQLite and PostgreSQL, tenant matched too.
  await sql`update sale_lines set
      classification_code = (select p.classification_code from products p
        where p.company_id = sale_lines.company_id and p.id = sale_lines.product_id),
      unit_code = (select u.unit_code from units u
        where u.company_id = sale_lines.company_id and u.id = sale_lines.unit_id)`.execute(db);
}
