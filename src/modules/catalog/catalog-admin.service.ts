import { AppError } from '../../lib/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import { parseScaled, MONEY_SCALE, RATE_SCALE } from '../../lib/money.ts';
import type { Repositories, Store } from '../../db/store.ts';
import type { DatasheetFiles } from './datasheet-files.ts';
import type { ProductRow, UnitRow } from './catalog.repository.ts';

export interface NewProduct {
  name: string;
  sku?: string | null;
  description?: string | null;
  categoryId?: string | null;
  modelId?: string | null;
  taxRateId: string;
  /** Decimal strings in the company's currency. */
  units: Array<{ name: string; price: string }>;
}

/** Catalog administration: how a company keeps its own products, prices and datasheets. */
export function createCatalogAdminService(deps: { store: Store; clock: Clock; newId: IdGenerator; datasheets: DatasheetFiles }) {
  const { store, clock, newId } = deps;
  const now = () => clock.now().toISOString();

  async function checkReferences(repos: Repositories, companyId: string, input: { categoryId?: string | null; modelId?: string | null; taxRateId?: string }) {
    const details: Record<string, string[]> = {};
    if (input.categoryId && !(await repos.catalog.findCategory(companyId, input.categoryId))) details.categoryId = ['No such category.'];
    if (input.modelId && !(await repos.catalog.findModel(companyId, input.modelId))) details.modelId = ['No such model.'];
    if (input.taxRateId !== undefined && !(await repos.catalog.findTaxRate(companyId, input.taxRateId))) details.taxRateId = ['No such tax rate.'];
    if (Object.keys(details).length > 0) throw AppError.invalid(details);
  }

  function unitRows(companyId: string, productId: string, units: NewProduct['units'], at: string): UnitRow[] {
    return units.map((unit, i) => ({
      id: newId('unit'), company_id: companyId, product_id: productId, name: unit.name,
      price_minor: Number(parsePrice(unit.price, `units[${i}].price`)), position: i, created_at: at,
    }));
  }

  return {
    async createCategory(companyId: string, input: { name: string; parentId?: string | null }) {
      if (input.parentId && !(await store.repos.catalog.findCategory(companyId, input.parentId))) {
        throw AppError.invalid({ parentId: ['No such category.'] });
      }
      const row = { id: newId('category'), company_id: companyId, parent_id: input.parentId ?? null, name: input.name, created_at: now() };
      await store.repos.catalog.insertCategory(row);
      return { id: row.id, name: row.name, parentId: row.parent_id };
    },

    async createModel(companyId: string, input: { name: string }) {
      const row = { id: newId('model'), company_id: companyId, name: input.name, created_at: now() };
      await store.repos.catalog.insertModel(row);
      return { id: row.id, name: row.name };
    },

    async createTaxRate(companyId: string, input: { name: string; rate: string }) {
      const rateBp = parseRate(input.rate);
      const row = { id: newId('taxRate'), company_id: companyId, name: input.name, rate_bp: rateBp, created_at: now() };
      await store.repos.catalog.insertTaxRate(row);
      return { id: row.id, name: row.name, rate: input.rate };
    },

    /** A product and its units commit together. */
    async createProduct(companyId: string, input: NewProduct, repos?: Repositories): Promise<{ id: string; unitIds: string[] }> {
      if (input.units.length === 0) throw AppError.invalid({ units: ['A product needs at least one unit.'] });
      const work = async (r: Repositories) => {
        await checkReferences(r, companyId, input);
        const at = now();
        const row: ProductRow = {
          id: newId('product'), company_id: companyId, sku: input.sku ?? null, name: input.name, description: input.description ?? null,
          category_id: input.categoryId ?? null, model_id: input.modelId ?? null, tax_rate_id: input.taxRateId,
          datasheet_file: null, datasheet_name: null, active: true, created_at: at, updated_at: at,
        };
        const units = unitRows(companyId, row.id, input.units, at);
        await r.catalog.insertProduct(row);
        await r.catalog.insertUnits(units);
        return { id: row.id, unitIds: units.map((u) => u.id) };
      };
      return repos ? work(repos) : store.transaction(work);
    },

    /** Stores a datasheet PDF for a product; only real PDFs within the size limit are taken. */
    async setDatasheet(companyId: string, productId: string, file: { name: string; bytes: Buffer }, maxBytes: number): Promise<void> {
      const product = await store.repos.catalog.findProduct(companyId, productId);
      if (!product) throw AppError.notFound('Product');
      if (file.bytes.length > maxBytes) throw new AppError('payload_too_large', `A datasheet may be at most ${maxBytes} bytes.`);
      if (file.bytes.subarray(0, 5).toString('latin1') !== '%PDF-') throw AppError.invalid({ file: ['Only PDF datasheets are accepted.'] });
      const relative = await deps.datasheets.write(companyId, productId, file.bytes);
      await store.repos.catalog.updateProduct(companyId, productId, { datasheet_file: relative, datasheet_name: file.name, updated_at: now() });
    },
  };
}
export type CatalogAdminService = ReturnType<typeof createCatalogAdminService>;

export function parsePrice(text: string, field = 'price'): bigint {
  try {
    const value = parseScaled(text, MONEY_SCALE);
    if (value < 0n) throw new RangeError('negative');
    return value;
  } catch {
    throw AppError.invalid({ [field]: ['Use a non-negative decimal amount with at most 2 decimal places, e.g. "12.40".'] });
  }
}

export function parseRate(text: string, field = 'rate'): number {
  try {
    const value = parseScaled(text, RATE_SCALE);
    if (value < 0n || value > 10_000n) throw new RangeError('out of range');
    return Number(value);
  } catch {
    throw AppError.invalid({ [field]: ['Use a percentage from 0 to 100 with at most 2 decimal places, e.g. "25" or "9.5".'] });
  }
}
