import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { CustomerRow } from './types.ts';

/** The key columns a search can range over, each behind a (company_id, key, id) index. */
export type SearchKey = 'name_key' | 'email_key' | 'phone_key' | 'tax_id_key';

export interface KeyRange {
  key: SearchKey;
  from: string;
  /** Exclusive; null: no end. */
  to: string | null;
}

export interface KeyPage extends KeyRange {
  limit: number;
  /** The (key, id) of the last row already seen, a row of this range (its key at or after `from`). */
  after?: { key: string; id: string };
}

/** Raised by insert and update when the company already has a customer with that tax id. */
export class TaxIdTaken extends Error {
  constructor() {
    super('tax id taken');
    this.name = 'TaxIdTaken';
  }
}

const TAX_ID_INDEX = 'customers_company_tax_id_key';

/** PostgreSQL names the index; SQLite names its columns. */
function isTaxIdClash(error: unknown): boolean {
  const e = error as { code?: string; errcode?: number; constraint?: string; message?: string };
  if (e.code === '23505') return e.constraint === TAX_ID_INDEX;
  return e.code === 'ERR_SQLITE_ERROR' && e.errcode === 2067 && /customers\.tax_id_key/.test(e.message ?? '');
}

async function guardTaxId<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (isTaxIdClash(error)) throw new TaxIdTaken();
    throw error;
  }
}

export function createCustomersRepository(db: Executor) {
  return {
    /** Throws TaxIdTaken when the company has the tax id already (also when a concurrent insert took it first). */
    async insert(row: CustomerRow): Promise<void> {
      await guardTaxId(db.insertInto('customers').values(row).execute());
    },

    /** False when no such customer; throws TaxIdTaken as insert does. */
    async update(
      companyId: string,
      id: string,
      changes: Partial<Omit<CustomerRow, 'id' | 'company_id' | 'created_at'>>,
    ): Promise<boolean> {
      const result = await guardTaxId(
        db
          .updateTable('customers')
          .set(changes)
          .where('company_id', '=', companyId)
          .where('id', '=', id)
          .executeTakeFirst(),
      );
      return result.numUpdatedRows > 0n;
    },

    async find(companyId: string, id: string): Promise<CustomerRow | undefined> {
      return db
        .selectFrom('customers')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    async findMany(companyId: string, ids: readonly string[]): Promise<CustomerRow[]> {
      if (ids.length === 0) return [];
      return db
        .selectFrom('customers')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('id', 'in', [...new Set(ids)])
        .execute();
    },

    /** The customers with this e-mail key (a few at most: e-mail is not unique), from the e-mail index. */
    async findByEmailKey(companyId: string, key: string, limit: number): Promise<CustomerRow[]> {
      return db
        .selectFrom('customers')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('email_key', '=', key)
        .orderBy('id')
        .limit(limit)
        .execute();
    },

    /**
     * One key range in key order: the company's slice of one index, read from `after` on and
     * stopped at `limit`, so a page costs the same however many customers there are.
     */
    async page(companyId: string, page: KeyPage): Promise<CustomerRow[]> {
      const column = sql.ref(page.key);
      let query = db.selectFrom('customers').selectAll().where('company_id', '=', companyId);
      // One lower bound only: given the range's start and the cursor both, SQLite seeks to the
      // start and filters every row up to the cursor, so a deep page would cost its depth.
      // A tax id names one customer of the company (its index is unique and has no id column):
      // the key alone orders and resumes.
      const unique = page.key === 'tax_id_key';
      query = !page.after
        ? query.where(page.key, '>=', page.from)
        : unique
          ? query.where(page.key, '>', page.after.key)
          : query.where(sql<boolean>`(${column}, id) > (${page.after.key}, ${page.after.id})`);
      if (page.to !== null) query = query.where(page.key, '<', page.to);
      query = query.orderBy(page.key);
      return (unique ? query : query.orderBy('id')).limit(page.limit).execute();
    },
  };
}
export type CustomersRepository = ReturnType<typeof createCustomersRepository>;
