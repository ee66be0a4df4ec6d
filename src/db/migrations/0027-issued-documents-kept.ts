import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.ts';

/**
 * An issued document is not deleted either (issue 32, "byte for byte the same forever"): 0025's
 * guard refuses an UPDATE of its legal columns and stored bytes, but a DELETE of a stored rendering
 * (a later version "clearing a cache") let the next read render it again with that version's code,
 * and a deleted invoice or line took the document away whole. Refused on both engines: deleting a
 * live issued sale, one of its lines, or its snapshot or stored files. Test sales (mode `test`) are
 * still deleted with their lines and files when a shop clears its test data.
 */
export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  const sale = `OLD.invoice_number IS NOT NULL AND OLD.mode <> 'test'`;
  const ofLiveSale = (column: string) =>
    `EXISTS (SELECT 1 FROM sales s WHERE s.id = OLD.${column} AND s.invoice_number IS NOT NULL AND s.mode <> 'test')`;
  const guards = [
    ['sales', 'sales_issued_kept', sale, 'an issued document cannot be deleted'],
    ['sale_lines', 'sale_lines_issued_kept', ofLiveSale('document_id'), 'its lines cannot be deleted'],
    ['issued_documents', 'issued_documents_kept', ofLiveSale('sale_id'), 'stored bytes cannot be deleted'],
  ] as const;
  if (engine === 'sqlite') {
    for (const [table, name, when, what] of guards)
      await sql
        .raw(`CREATE TRIGGER ${name} BEFORE DELETE ON ${table} FOR EACH ROW WHEN ${when}
              BEGIN SELECT RAISE(ABORT, 'issued document: ${what}'); END`)
        .execute(db);
    return;
  }
  // PostgreSQL allows no subquery in a trigger's WHEN: a line's and a file's sale is looked up in the function.
  await sql
    .raw(`CREATE FUNCTION refuse_issued_delete() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN RAISE EXCEPTION 'issued document: % cannot be deleted', TG_TABLE_NAME USING ERRCODE = 'integrity_constraint_violation'; END $$`)
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER sales_issued_kept BEFORE DELETE ON sales FOR EACH ROW WHEN (${sale})
          EXECUTE FUNCTION refuse_issued_delete()`)
    .execute(db);
  for (const [table, name, column] of [
    ['sale_lines', 'sale_lines_issued_kept', 'document_id'],
    ['issued_documents', 'issued_documents_kept', 'sale_id'],
  ] as const) {
    await sql
      .raw(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              IF ${ofLiveSale(column)} THEN
                RAISE EXCEPTION 'issued document: % cannot be deleted', TG_TABLE_NAME USING ERRCODE = 'integrity_constraint_violation';
              END IF;
              RETURN OLD;
            END $$`)
      .execute(db);
    await sql
      .raw(`CREATE TRIGGER ${name} BEFORE DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION ${name}()`)
      .execute(db);
  }
}
