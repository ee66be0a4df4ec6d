import type { Kysely } from 'kysely';

/**
 * Reports read documents by the company and the time they were issued, and payments by the
 * company and the time they were recorded or voided: one index range per report, however many
 * documents the company and the others hold outside it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('sales_company_issued_idx').on('sales').columns(['company_id', 'issued_at']).execute();
  await db.schema
    .createIndex('sale_payments_company_created_idx')
    .on('sale_payments')
    .columns(['company_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('sale_payments_company_voided_idx')
    .on('sale_payments')
    .columns(['company_id', 'voided_at'])
    .execute();
}
