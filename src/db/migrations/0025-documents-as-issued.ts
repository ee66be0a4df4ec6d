import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.ts';
import { columnTypes } from './column-types.ts';

/**
 * Documents as issued (Zakon o fiskalizaciji NN 89/2025 art. 14(2) and 71: software must not let
 * an issued invoice change).
 *
 * - `sales.order_reference`: the buyer's order number (EN 16931 BT-13), given at issue.
 * - `document_sendings.sha256`, `e_invoice_sha256`: the hash of the files a sending carried.
 * - `issued_documents`: per issued document, the snapshot of what its prints read besides its
 *   own row and lines (company, location, buyer's e-invoice address, what was paid at issue),
 *   written in the issuing transaction, and each rendering (A4, receipt, UBL, CII) stored the
 *   first time it is made from that snapshot, with its SHA-256: every later read answers those
 *   bytes.
 * - Guards in the database, on both engines: an UPDATE of an issued sale's legal columns, of an
 *   issued line's content, or of a stored document is refused whatever code runs it. Only what
 *   happens after issue may change: status, paid, credited, cancelled_at. Deleting stays possible
 *   (test data is deletable; the live data's retention is the operator's).
 */
export const SALE_LEGAL_COLUMNS = [
  'company_id',
  'location_id',
  'number',
  'kind',
  'invoice_number',
  'invoice_seq',
  'invoice_year',
  'fiscal_premises',
  'fiscal_device',
  'issued_at',
  'delivery_date',
  'due_date',
  'payment_method',
  'operator_name',
  'operator_oib',
  'customer_id',
  'customer_kind',
  'customer_name',
  'customer_tax_id',
  'customer_address',
  'currency',
  'prices_include_tax',
  'net_minor',
  'tax_minor',
  'total_minor',
  'corrects_sale_id',
  'correction_reason',
  'exemption_reason',
  'note',
  'source_type',
  'source_id',
  'source_number',
  'tendered_minor',
  'order_reference',
  'mode',
] as const;

const LINE_LEGAL_COLUMNS = [
  'company_id',
  'document_id',
  'position',
  'product_name',
  'product_code',
  'unit_name',
  'quantity_milli',
  'unit_price_minor',
  'tax_rate_bp',
  'net_minor',
  'tax_minor',
  'total_minor',
  'note',
  'discount_bp',
  'corrects_line_id',
] as const;

function changed(columns: readonly string[], engine: Engine): string {
  const op = engine === 'postgres' ? 'IS DISTINCT FROM' : 'IS NOT';
  return columns.map((c) => `OLD.${c} ${op} NEW.${c}`).join(' OR ');
}

export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  const t = columnTypes(engine);
  await db.schema.alterTable('sales').addColumn('order_reference', 'text').execute();
  // What each sending carried, as issued: the SHA-256 of the PDF and of the e-invoice XML.
  await db.schema.alterTable('document_sendings').addColumn('sha256', 'text').execute();
  await db.schema.alterTable('document_sendings').addColumn('e_invoice_sha256', 'text').execute();
  await db.schema
    .createTable('issued_documents')
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('sale_id', 'text', (c) => c.notNull().references('sales.id').onDelete('cascade'))
    // `snapshot`, `a4`, `receipt`, `facturx`, `ubl`, `cii`; a print in another language than
    // the document's own: `a4.de`.
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('bytes', engine === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('issued_documents_pkey', ['company_id', 'sale_id', 'format'])
    .execute();

  const sale = `OLD.invoice_number IS NOT NULL AND (${changed(SALE_LEGAL_COLUMNS, engine)})`;
  const line = changed(LINE_LEGAL_COLUMNS, engine);
  if (engine === 'sqlite') {
    await sql
      .raw(`CREATE TRIGGER sales_issued_frozen BEFORE UPDATE ON sales FOR EACH ROW WHEN ${sale}
            BEGIN SELECT RAISE(ABORT, 'issued document: its legal columns cannot change'); END`)
      .execute(db);
    await sql
      .raw(`CREATE TRIGGER sale_lines_issued_frozen BEFORE UPDATE ON sale_lines FOR EACH ROW WHEN ${line}
            BEGIN SELECT RAISE(ABORT, 'issued document: its lines cannot change'); END`)
      .execute(db);
    await sql
      .raw(`CREATE TRIGGER issued_documents_frozen BEFORE UPDATE ON issued_documents FOR EACH ROW
            BEGIN SELECT RAISE(ABORT, 'issued document: stored bytes cannot change'); END`)
      .execute(db);
    return;
  }
  await sql
    .raw(`CREATE FUNCTION refuse_issued_change() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN RAISE EXCEPTION 'issued document: % cannot change', TG_TABLE_NAME USING ERRCODE = 'integrity_constraint_violation'; END $$`)
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER sales_issued_frozen BEFORE UPDATE ON sales FOR EACH ROW WHEN (${sale})
          EXECUTE FUNCTION refuse_issued_change()`)
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER sale_lines_issued_frozen BEFORE UPDATE ON sale_lines FOR EACH ROW WHEN (${line})
          EXECUTE FUNCTION refuse_issued_change()`)
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER issued_documents_frozen BEFORE UPDATE ON issued_documents FOR EACH ROW
          EXECUTE FUNCTION refuse_issued_change()`)
    .execute(db);
}
