import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { ScopeFilter } from './catalog-scope.ts';
import type { CategoryRow, ModelRow, ProductRow, ProductWithRate, TaxRateRow, UnitRow } from './types.ts';

export interface ProductQuery {
  scope: ScopeFilter | null;
  categoryIds?: string[];
  modelId?: string;
  text?: string;
  limit: number;
  after?: { name: string; id: string };
}

/** Raised by insertProduct and updateProduct when another product of the company has the barcode. */
export class BarcodeTaken extends Error {
  constructor() {
    super('barcode taken');
    this.name = 'BarcodeTaken';
  }
}

const BARCODE_INDEX = 'products_company_barcode_key';

/** PostgreSQL names the index; SQLite names its columns. */
function isBarcodeClash(error: unknown): boolean {
  const e = error as { code?: string; errcode?: number; constraint?: string; message?: string };
  if (e.code === '23505') return e.constraint === BARCODE_INDEX;
  return e.code === 'ERR_SQLITE_ERROR' && e.errcode === 2067 && /products\.barcode/.test(e.message ?? '');
}

async function guardBarcode<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (isBarcodeClash(error)) throw new BarcodeTaken();
    throw error;
  }
}

export function createCatalogRepository(db: Executor) {
  const products = (companyId: string) =>
    db
      .selectFrom('products')
      .innerJoin('tax_rates', 'tax_rates.id', 'products.tax_rate_id')
      .selectAll('products')
      .select('tax_rates.rate_bp')
      .where('products.company_id', '=', companyId);

  function pageOfProducts(companyId: string, q: ProductQuery & { active?: boolean }): Promise<ProductWithRate[]> {
    let query = products(companyId);
    if (q.active !== undefined) query = query.where('products.active', '=', q.active);
    if (q.scope) {
      if (q.scope.ids.length === 0) return Promise.resolve([]);
      query = query.where(`products.${q.scope.column}`, 'in', q.scope.ids);
    }
    if (q.categoryIds) {
      if (q.categoryIds.length === 0) return Promise.resolve([]);
      query = query.where('products.category_id', 'in', q.categoryIds);
    }
    if (q.modelId) query = query.where('products.model_id', '=', q.modelId);
    if (q.text) {
      const text = q.text;
      const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query = query.where((eb) =>
        eb.or([
          // ESCAPE must be named: SQLite's LIKE has no default escape character.
          eb(eb.fn('lower', ['products.name']), 'like', sql<string>`${pattern} escape '\\'`),
          eb(eb.fn('lower', ['products.sku']), 'like', sql<string>`${pattern} escape '\\'`),
          // A barcode is matched whole: "25" typed for "2,5 L" must not find every code with a 25 in it.
          eb('products.barcode', '=', text.trim()),
        ]),
      );
    }
    if (q.after) {
      const { name, id } = q.after;
      query = query.where((eb) =>
        eb.or([eb('products.name', '>', name), eb.and([eb('products.name', '=', name), eb('products.id', '>', id)])]),
      );
    }
    return query.orderBy('products.name').orderBy('products.id').limit(q.limit).execute();
  }

  return {
    insertCategory: async (row: CategoryRow) => void (await db.insertInto('categories').values(row).execute()),
    listCategories: (companyId: string) =>
      db
        .selectFrom('categories')
        .selectAll()
        .where('company_id', '=', companyId)
        .orderBy('name')
        .orderBy('id')
        .execute(),
    findCategory: (companyId: string, id: string) =>
      db
        .selectFrom('categories')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .executeTakeFirst(),
    updateCategory: async (companyId: string, id: string, patch: Partial<Pick<CategoryRow, 'name' | 'parent_id'>>) =>
      void (await db
        .updateTable('categories')
        .set(patch)
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .execute()),
    deleteCategory: async (companyId: string, id: string) =>
      void (await db.deleteFrom('categories').where('company_id', '=', companyId).where('id', '=', id).execute()),
    categoryInUse: async (companyId: string, id: string): Promise<boolean> => {
      const child = await db
        .selectFrom('categories')
        .select('id')
        .where('company_id', '=', companyId)
        .where('parent_id', '=', id)
        .limit(1)
        .executeTakeFirst();
      const product = await db
        .selectFrom('products')
        .select('id')
        .where('company_id', '=', companyId)
        .where('category_id', '=', id)
        .limit(1)
        .executeTakeFirst();
      return Boolean(child || product);
    },

    insertModel: async (row: ModelRow) => void (await db.insertInto('models').values(row).execute()),
    listModels: (companyId: string) =>
      db.selectFrom('models').selectAll().where('company_id', '=', companyId).orderBy('name').orderBy('id').execute(),
    findModel: (companyId: string, id: string) =>
      db.selectFrom('models').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst(),
    updateModel: async (companyId: string, id: string, patch: Pick<ModelRow, 'name'>) =>
      void (await db
        .updateTable('models')
        .set(patch)
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .execute()),
    deleteModel: async (companyId: string, id: string) =>
      void (await db.deleteFrom('models').where('company_id', '=', companyId).where('id', '=', id).execute()),
    modelInUse: async (companyId: string, id: string): Promise<boolean> =>
      Boolean(
        await db
          .selectFrom('products')
          .select('id')
          .where('company_id', '=', companyId)
          .where('model_id', '=', id)
          .limit(1)
          .executeTakeFirst(),
      ),

    insertTaxRate: async (row: TaxRateRow) => void (await db.insertInto('tax_rates').values(row).execute()),
    listTaxRates: (companyId: string) =>
      db
        .selectFrom('tax_rates')
        .selectAll()
        .where('company_id', '=', companyId)
        .orderBy('rate_bp')
        .orderBy('id')
        .execute(),
    findTaxRate: (companyId: string, id: string) =>
      db
        .selectFrom('tax_rates')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .executeTakeFirst(),
    updateTaxRate: async (
      companyId: string,
      id: string,
      patch: Partial<Pick<TaxRateRow, 'name' | 'rate_bp' | 'exemption_reason'>>,
    ) =>
      void (await db
        .updateTable('tax_rates')
        .set(patch)
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .execute()),

    /** Throws BarcodeTaken when the company has the barcode already (also when a concurrent write took it first). */
    insertProduct: async (row: ProductRow) =>
      void (await guardBarcode(db.insertInto('products').values(row).execute())),
    /** Throws BarcodeTaken as insertProduct does. */
    updateProduct: async (
      companyId: string,
      id: string,
      patch: Partial<Omit<ProductRow, 'id' | 'company_id' | 'created_at'>>,
    ) =>
      void (await guardBarcode(
        db.updateTable('products').set(patch).where('company_id', '=', companyId).where('id', '=', id).execute(),
      )),
    findProduct: (companyId: string, id: string): Promise<ProductWithRate | undefined> =>
      products(companyId).where('products.id', '=', id).executeTakeFirst(),
    findProducts: (companyId: string, ids: readonly string[]): Promise<ProductWithRate[]> =>
      ids.length === 0 ? Promise.resolve([]) : products(companyId).where('products.id', 'in', ids).execute(),

    /** Active products, by name, keyset-paginated; the scope is one more WHERE, never a post-filter. */
    listProducts: (companyId: string, q: ProductQuery): Promise<ProductWithRate[]> =>
      pageOfProducts(companyId, { ...q, active: true }),

    /** Every product, active or not, for the admin; `active` narrows to one state. */
    listAllProducts: (
      companyId: string,
      q: Omit<ProductQuery, 'scope'> & { active?: boolean },
    ): Promise<ProductWithRate[]> => pageOfProducts(companyId, { ...q, scope: null }),

    /** SKUs are not unique in the schema, so a SKU may answer with several products. */
    findProductsBySku: (companyId: string, skus: readonly string[]): Promise<ProductRow[]> =>
      skus.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom('products')
            .selectAll()
            .where('company_id', '=', companyId)
            .where('sku', 'in', skus)
            .orderBy('id')
            .execute(),

    /** The products with any of these barcodes (spellings of one GTIN, or a file's codes): the unique index's lookup. */
    findProductsByBarcode: (companyId: string, barcodes: readonly string[]): Promise<ProductWithRate[]> =>
      barcodes.length === 0
        ? Promise.resolve([])
        : products(companyId).where('products.barcode', 'in', barcodes).orderBy('products.id').execute(),

    /** Distinct categories or models of the active products a scope shows: one query, any catalog size. */
    async usedBy(companyId: string, scope: ScopeFilter, column: 'category_id' | 'model_id'): Promise<string[]> {
      if (scope.ids.length === 0) return [];
      const rows = await db
        .selectFrom('products')
        .select(column)
        .distinct()
        .where('company_id', '=', companyId)
        .where('active', '=', true)
        .where(scope.column, 'in', scope.ids)
        .where(column, 'is not', null)
        .execute();
      return rows.map((r) => (r as Record<string, string>)[column]!);
    },

    insertUnits: async (rows: UnitRow[]) =>
      void (rows.length > 0 && (await db.insertInto('units').values(rows).execute())),
    listUnits: (companyId: string, productIds: readonly string[]): Promise<UnitRow[]> =>
      productIds.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom('units')
            .selectAll()
            .where('company_id', '=', companyId)
            .where('product_id', 'in', productIds)
            .orderBy('position')
            .orderBy('id')
            .execute(),
    findUnit: (companyId: string, id: string) =>
      db.selectFrom('units').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst(),
    updateUnit: async (
      companyId: string,
      id: string,
      patch: Partial<Pick<UnitRow, 'name' | 'price_minor' | 'position' | 'unit_code'>>,
    ) =>
      void (await db
        .updateTable('units')
        .set(patch)
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .execute()),
    deleteUnit: async (companyId: string, id: string) =>
      void (await db.deleteFrom('units').where('company_id', '=', companyId).where('id', '=', id).execute()),
  };
}
export type CatalogRepository = ReturnType<typeof createCatalogRepository>;
