import { sql, type SqlBool } from 'kysely';
import type { Engine, Executor } from '../../db/database.ts';
import { cappedCount } from '../../db/capped-count.ts';
import { newestFirst, type NewestFirstPage } from '../../db/keyset.ts';
import type { QuotationRevisionsTable, QuotationsTable } from '../../db/schema.ts';
import { documentSearch, type DocumentLineTable } from '../documents/index.ts';

export type QuotationRow = QuotationsTable;
export type QuotationRevisionRow = QuotationRevisionsTable;

/** What a revision replaces on the quotation's row; its lines are replaced beside it. */
export type RevisedFields = Pick<
  QuotationRow,
  | 'number'
  | 'revision'
  | 'revised_at'
  | 'customer_name'
  | 'customer_email'
  | 'customer_phone'
  | 'customer_name_key'
  | 'directory_customer_id'
  | 'note'
  | 'include_datasheets'
  | 'expires_at'
  | 'net_minor'
  | 'tax_minor'
  | 'total_minor'
>;

export interface QuotationFilter {
  /** Live (the default) or test data: never both. */
  mode?: 'live' | 'test';
  /** One status, or any of several (Today's open quotations: approved or accepted) in the same statement. */
  status?: string | readonly string[];
  locationId?: string;
  q?: string;
  /** The gross total exactly, in minor units. */
  totalMinor?: number;
  /** created_at ≥ from and < to (ISO UTC). */
  from?: string;
  to?: string;
}

/** `lines`: the quotation_lines table's lines (the document kernel's, wired by the composition root). */
export function createQuotationsRepository(db: Executor, engine: Engine, lines: DocumentLineTable) {
  return {
    ...lines,
    async insert(row: QuotationRow): Promise<void> {
      await db.insertInto('quotations').values(row).execute();
    },
    /** With `atLocation`, a record created at another location of the company is not found. */
    async find(
      companyId: string,
      id: string,
      atLocation?: string,
      mode?: 'live' | 'test',
    ): Promise<QuotationRow | undefined> {
      return db
        .selectFrom('quotations')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .$if(atLocation !== undefined, (q) => q.where('location_id', '=', atLocation!))
        .$if(mode !== undefined, (q) => q.where('mode', '=', mode!))
        .executeTakeFirst();
    },
    /** Links a directory customer while the document is in one of `openStatuses`; false if it is not (or not found). */
    async assignCustomer(
      companyId: string,
      id: string,
      customerId: string,
      openStatuses: readonly string[],
    ): Promise<boolean> {
      const result = await db
        .updateTable('quotations')
        .set({ directory_customer_id: customerId })
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .where('status', 'in', [...openStatuses])
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
    async list(companyId: string, page: NewestFirstPage, filter: QuotationFilter = {}): Promise<QuotationRow[]> {
      const search = filter.q === undefined ? undefined : documentSearch(engine, filter.q);
      const query = db
        .selectFrom('quotations')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('mode', '=', filter.mode ?? 'live')
        .$if(typeof filter.status === 'string', (q) => q.where('status', '=', filter.status as string))
        .$if(Array.isArray(filter.status), (q) => q.where('status', 'in', [...filter.status!]))
        .$if(filter.locationId !== undefined, (q) => q.where('location_id', '=', filter.locationId!))
        .$if(search !== undefined, (q) => q.where(search ?? sql<SqlBool>`1 = 0`))
        .$if(filter.totalMinor !== undefined, (q) => q.where('total_minor', '=', filter.totalMinor!))
        .$if(filter.from !== undefined, (q) => q.where('created_at', '>=', filter.from!))
        .$if(filter.to !== undefined, (q) => q.where('created_at', '<', filter.to!));
      return newestFirst(query, page).execute();
    },
    /** How many are in one of `statuses`, up to COUNT_CAP (Today's cards), on the status index. */
    async countWithStatus(companyId: string, statuses: readonly string[]): Promise<number> {
      return cappedCount(
        db,
        db
          .selectFrom('quotations')
          .select('id')
          .where('company_id', '=', companyId)
          .where('status', 'in', statuses)
          .where('mode', '=', 'live'),
      );
    },
    /**
     * Replaces an open quotation's fields by its next revision, only if it is still open and
     * still at `fromRevision`: of two concurrent revisions (or a revision and a conversion) one wins.
     */
    async revise(companyId: string, id: string, fromRevision: number, change: RevisedFields): Promise<boolean> {
      const result = await db
        .updateTable('quotations')
        .set(change)
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .where('status', '=', 'approved')
        .where('revision', '=', fromRevision)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
    async deleteLines(companyId: string, id: string): Promise<void> {
      await db
        .deleteFrom('quotation_lines')
        .where('company_id', '=', companyId)
        .where('document_id', '=', id)
        .execute();
    },
    async insertRevision(row: QuotationRevisionRow): Promise<void> {
      await db.insertInto('quotation_revisions').values(row).execute();
    },
    /** The earlier revisions, oldest first. */
    async listRevisions(companyId: string, id: string): Promise<QuotationRevisionRow[]> {
      return db
        .selectFrom('quotation_revisions')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('quotation_id', '=', id)
        .orderBy('revision')
        .execute();
    },
    async findRevision(companyId: string, id: string, revision: number): Promise<QuotationRevisionRow | undefined> {
      return db
        .selectFrom('quotation_revisions')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('quotation_id', '=', id)
        .where('revision', '=', revision)
        .executeTakeFirst();
    },
    /** Test quotations and their lines; within a unit of work. */
    async deleteTest(companyId: string): Promise<number> {
      const test = db
        .selectFrom('quotations')
        .select('id')
        .where('company_id', '=', companyId)
        .where('mode', '=', 'test');
      await db
        .deleteFrom('quotation_lines')
        .where('company_id', '=', companyId)
        .where('document_id', 'in', test)
        .execute();
      await db
        .deleteFrom('quotation_revisions')
        .where('company_id', '=', companyId)
        .where('quotation_id', 'in', test)
        .execute();
      const result = await db
        .deleteFrom('quotations')
        .where('company_id', '=', companyId)
        .where('mode', '=', 'test')
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    /**
     * Moves a quotation out of `approved` only if it still is: the one check two concurrent
     * requests cannot both pass (PostgreSQL locks the row until commit; SQLite has one writer).
     */
    async close(
      companyId: string,
      id: string,
      change:
        | { status: 'converted'; sale_id: string }
        | { status: 'cancelled'; cancelled_at: string; cancellation_reason: string },
      /** The revision the caller read: a revision committed since makes this a no-op (the sale would copy stale lines). */
      revision?: number,
    ): Promise<boolean> {
      const result = await db
        .updateTable('quotations')
        .set(change)
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        // Approved, or accepted by the customer (quotation-answers.ts): both still open.
        .where('status', 'in', ['approved', 'accepted'])
        .$if(revision !== undefined, (q) => q.where('revision', '=', revision!))
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
  };
}
export type QuotationsRepository = ReturnType<typeof createQuotationsRepository>;
