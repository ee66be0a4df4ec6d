import type { Kysely } from 'kysely';

/**
 * A TSE transaction says which business case (DSFinV-K Anhang C, GV_TYP) it records when it is
 * not a sale's own lines: the drawer's opening float (`Anfangsbestand`), cash put in or taken out
 * (`Einzahlung`, `Auszahlung`) and the counted difference at closing (`DifferenzSollIst`). Under
 * the KassenSichV each is a Vorgang the TSE signs; the DSFinV-K export writes it as a Bon of that
 * business case. Null for a sale, storno, credit note or aborted basket (their lines say `Umsatz`).
 * `document_id` then names the drawer's record: the day (float, difference) or the movement.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('tse_transactions').addColumn('business_case', 'text').execute();
}
