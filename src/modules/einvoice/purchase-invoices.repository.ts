import type { Executor } from '../../db/database.ts';
import type { PurchaseInvoicePaymentsTable, PurchaseInvoicesTable } from '../../db/schema.ts';

export type PurchaseInvoiceRow = PurchaseInvoicesTable;
export type PurchaseSummaryRow = Omit<PurchaseInvoiceRow, 'original_xml' | 'parsed'>;
export type PurchasePaymentRow = PurchaseInvoicePaymentsTable;

export interface PurchaseFilter {
  status?: string;
  /** Matches the supplier's name (case-insensitively, anywhere) or its OIB / VAT id exactly. */
  supplier?: string;
  /** Issue dates, inclusive. */
  from?: string;
  to?: string;
}

const SUMMARY = [
  'id',
  'company_id',
  'source',
  'exchange_document_id',
  'syntax',
  'xml_sha256',
  'type_code',
  'number',
  'issue_date',
  'due_date',
  'currency',
  'supplier_name',
  'supplier_oib',
  'supplier_vat_id',
  'net_minor',
  'tax_minor',
  'total_minor',
  'payable_minor',
  'iban',
  'payment_reference',
  'status',
  'rejection_type',
  'rejection_reason',
  'decided_at',
  'decided_by',
  'paid_minor',
  'received_at',
] as const;

/** Bytes as a Buffer, whichever engine read them (pg: Buffer, node:sqlite: Uint8Array). */
const asBuffer = (bytes: Uint8Array): Buffer =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Received invoices and the payments made on them; the company first in every query. */
export function createPurchaseInvoicesRepository(db: Executor) {
  return {
    async insert(row: PurchaseInvoiceRow): Promise<void> {
      await db.insertInto('purchase_invoices').values(row).execute();
    },
    async findByExchangeDocument(companyId: string, documentId: string): Promise<PurchaseSummaryRow | undefined> {
      return db
        .selectFrom('purchase_invoices')
        .select(SUMMARY)
        .where('company_id', '=', companyId)
        .where('exchange_document_id', '=', documentId)
        .executeTakeFirst();
    },
    async findByDigest(companyId: string, sha256: string): Promise<PurchaseSummaryRow | undefined> {
      return db
        .selectFrom('purchase_invoices')
        .select(SUMMARY)
        .where('company_id', '=', companyId)
        .where('xml_sha256', '=', sha256)
        .executeTakeFirst();
    },
    async find(companyId: string, id: string): Promise<(PurchaseSummaryRow & { parsed: string }) | undefined> {
      return db
        .selectFrom('purchase_invoices')
        .select([...SUMMARY, 'parsed'])
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .executeTakeFirst();
    },
    async originalXml(companyId: string, id: string): Promise<Buffer | undefined> {
      const row = await db
        .selectFrom('purchase_invoices')
        .select('original_xml')
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? asBuffer(row.original_xml) : undefined;
    },
    /** Newest issue date first; at most `limit`. */
    async list(companyId: string, filter: PurchaseFilter, limit: number): Promise<PurchaseSummaryRow[]> {
      let q = db.selectFrom('purchase_invoices').select(SUMMARY).where('company_id', '=', companyId);
      if (filter.status) q = q.where('status', '=', filter.status);
      if (filter.from) q = q.where('issue_date', '>=', filter.from);
      if (filter.to) q = q.where('issue_date', '<=', filter.to);
      if (filter.supplier) {
        const s = filter.supplier;
        const like = `%${s.toLowerCase().replace(/[\\%_]/g, '')}%`;
        q = q.where((eb) =>
          eb.or([
            eb(eb.fn('lower', ['supplier_name']), 'like', like),
            eb('supplier_oib', '=', s.replace(/^HR/i, '')),
            eb('supplier_vat_id', '=', s),
          ]),
        );
      }
      return q.orderBy('issue_date', 'desc').orderBy('id', 'desc').limit(limit).execute();
    },
    /** Rows of the book of received invoices: issued in the period, oldest first, with their XML for the archive when asked. */
    async book(companyId: string, from: string, to: string): Promise<Array<PurchaseSummaryRow & { parsed: string }>> {
      return db
        .selectFrom('purchase_invoices')
        .select([...SUMMARY, 'parsed'])
        .where('company_id', '=', companyId)
        .where('issue_date', '>=', from)
        .where('issue_date', '<=', to)
        .orderBy('issue_date')
        .orderBy('received_at')
        .orderBy('id')
        .execute();
    },
    /** Moves an undecided invoice to its decision; false when it was decided meanwhile. */
    async decide(
      companyId: string,
      id: string,
      decision: Pick<
        PurchaseInvoiceRow,
        'status' | 'rejection_type' | 'rejection_reason' | 'decided_at' | 'decided_by'
      >,
    ): Promise<boolean> {
      const result = await db
        .updateTable('purchase_invoices')
        .set(decision)
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .where('status', '=', 'received')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    /** Adds a payment unless it would pay more than is due; false when it would. */
    async addPaid(companyId: string, id: string, amountMinor: number): Promise<boolean> {
      const result = await db
        .updateTable('purchase_invoices')
        .set((eb) => ({ paid_minor: eb('paid_minor', '+', amountMinor) }))
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .where((eb) => eb(eb('paid_minor', '+', amountMinor), '<=', eb.ref('payable_minor')))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async insertPayment(row: PurchasePaymentRow): Promise<void> {
      await db.insertInto('purchase_invoice_payments').values(row).execute();
    },
    async listPayments(companyId: string, invoiceId: string): Promise<PurchasePaymentRow[]> {
      return db
        .selectFrom('purchase_invoice_payments')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('purchase_invoice_id', '=', invoiceId)
        .orderBy('paid_on')
        .orderBy('created_at')
        .execute();
    },
  };
}
export type PurchaseInvoicesRepository = ReturnType<typeof createPurchaseInvoicesRepository>;
