import { AppError, addFieldError, type FieldErrors } from '../../lib/errors.ts';
import { said } from '../i18n/index.ts';
import { formatMoney, formatRate } from '../../lib/money.ts';
import { decodeCursor, encodeCursor } from '../../lib/cursor.ts';
import type { Store } from '../../db/store.ts';
import type { CompanyDirectory, Company } from '../companies/index.ts';
import { toCompany } from '../companies/index.ts';
import { unitPriceBothWays } from '../documents/index.ts';
import { expandCategoryIds, productInScope, scopeFilter, type ScopeFilter } from './catalog-scope.ts';
import type { CatalogRepository } from './catalog.repository.ts';
import type { ProductWithRate, UnitRow } from './types.ts';
import { datasheetFileName, type DatasheetFiles } from './datasheet-files.ts';

export interface PublicUnit {
  id: string;
  name: string;
  /** As the company enters it: gross when its prices include tax, else net. */
  price: string;
  priceWithoutTax: string;
  priceWithTax: string;
}

/** What every view of a product shows, public or admin. */
export interface ProductBasics {
  id: string;
  name: string;
  sku: string | null;
  description: string | null;
  categoryId: string | null;
  modelId: string | null;
  taxRate: string;
  hasDatasheet: boolean;
}

export interface PublicProduct extends ProductBasics {
  units: PublicUnit[];
}

/** A quote or order line resolved against the catalog: what pricing and printing need. */
export interface ResolvedLine {
  productId: string;
  unitId: string;
  productName: string;
  productCode: string | null;
  unitName: string;
  unitPriceMinor: number;
  taxRateBp: number;
  datasheetFile: string | null;
  datasheetName: string | null;
}

export interface ProductListQuery {
  categoryId?: string;
  modelId?: string;
  q?: string;
  limit: number;
  cursor?: string;
}

export function createCatalogService(deps: {
  store: Store<{ catalog: CatalogRepository; companies: CompanyDirectory }>;
  datasheets: DatasheetFiles;
}) {
  const { store } = deps;

  /** The company's scope as one filter; categories are expanded so new sub-categories count. */
  async function resolveScope(companyId: string): Promise<{ company: Company; filter: ScopeFilter | null }> {
    const row = await store.repos.companies.findCompany(companyId);
    if (!row) throw AppError.notFound('Company');
    const company = toCompany(row);
    const scope = company.catalogScope;
    const expanded =
      scope.kind === 'categories'
        ? expandCategoryIds(
            (await store.repos.catalog.listCategories(companyId)).map((c) => ({ id: c.id, parentId: c.parent_id })),
            scope.ids,
          )
        : null;
    return { company, filter: scopeFilter(scope, expanded) };
  }

  async function visibleProduct(
    companyId: string,
    productId: string,
  ): Promise<{ product: ProductWithRate; company: Company } | null> {
    const [{ company, filter }, product] = await Promise.all([
      resolveScope(companyId),
      store.repos.catalog.findProduct(companyId, productId),
    ]);
    if (!product || !product.active || !productInScope(toFacts(product), filter)) return null;
    return { product, company };
  }

  return {
    resolveScope,

    async listProducts(
      companyId: string,
      query: ProductListQuery,
    ): Promise<{ data: PublicProduct[]; nextCursor: string | null }> {
      const { company, filter } = await resolveScope(companyId);
      let categoryIds: string[] | undefined;
      if (query.categoryId) {
        const all = (await store.repos.catalog.listCategories(companyId)).map((c) => ({
          id: c.id,
          parentId: c.parent_id,
        }));
        categoryIds = [...expandCategoryIds(all, [query.categoryId])];
      }
      const after = query.cursor
        ? (([name, id]) => ({ name: name!, id: id! }))(decodeCursor(query.cursor, 2))
        : undefined;
      const rows = await store.repos.catalog.listProducts(companyId, {
        scope: filter,
        categoryIds,
        modelId: query.modelId,
        text: query.q,
        limit: query.limit + 1,
        after,
      });
      const page = rows.slice(0, query.limit);
      const units = await store.repos.catalog.listUnits(
        companyId,
        page.map((p) => p.id),
      );
      const last = page.at(-1);
      return {
        data: page.map((p) => toPublicProduct(p, units, company.pricesIncludeTax)),
        nextCursor: rows.length > query.limit && last ? encodeCursor([last.name, last.id]) : null,
      };
    },

    async getProduct(companyId: string, productId: string): Promise<PublicProduct> {
      const found = await visibleProduct(companyId, productId);
      if (!found) throw AppError.notFound('Product');
      const units = await store.repos.catalog.listUnits(companyId, [productId]);
      return toPublicProduct(found.product, units, found.company.pricesIncludeTax);
    },

    async getDatasheet(companyId: string, productId: string): Promise<{ name: string; bytes: Buffer }> {
      const found = await visibleProduct(companyId, productId);
      const file = found?.product.datasheet_file;
      const bytes = file ? await deps.datasheets.read(file) : null;
      if (!found || !bytes) throw AppError.notFound('Datasheet');
      return { name: datasheetFileName(found.product), bytes };
    },

    /** Visible categories: the scope's own (with sub-categories) or those holding a visible product, with their parents. */
    async listCategories(companyId: string) {
      const { filter } = await resolveScope(companyId);
      const all = await store.repos.catalog.listCategories(companyId);
      let visible: Set<string>;
      if (!filter) visible = new Set(all.map((c) => c.id));
      else if (filter.column === 'category_id') visible = new Set(filter.ids);
      else {
        visible = new Set(await store.repos.catalog.usedBy(companyId, filter, 'category_id'));
      }
      const byId = new Map(all.map((c) => [c.id, c]));
      // Parents of a visible category stay visible so a website can draw the tree.
      for (const id of [...visible]) {
        let parent = byId.get(id)?.parent_id;
        while (parent && !visible.has(parent)) {
          visible.add(parent);
          parent = byId.get(parent)?.parent_id;
        }
      }
      return all.filter((c) => visible.has(c.id)).map((c) => ({ id: c.id, name: c.name, parentId: c.parent_id }));
    },

    async listModels(companyId: string) {
      const { filter } = await resolveScope(companyId);
      const all = await store.repos.catalog.listModels(companyId);
      if (!filter) return all.map((m) => ({ id: m.id, name: m.name }));
      const used = new Set(await store.repos.catalog.usedBy(companyId, filter, 'model_id'));
      return all.filter((m) => used.has(m.id)).map((m) => ({ id: m.id, name: m.name }));
    },

    /**
     * Checks every line against the catalog and scope, reporting all bad lines at once. A product
     * outside the scope, inactive, unknown or of another company reads exactly like one that does
     * not exist, so the public API never reveals what is hidden.
     */
    async resolveLines(
      companyId: string,
      lines: ReadonlyArray<{ productId: string; unitId: string }>,
    ): Promise<{ company: Company; lines: ResolvedLine[] }> {
      const { company, filter } = await resolveScope(companyId);
      const ids = [...new Set(lines.map((l) => l.productId))];
      const [products, units] = await Promise.all([
        store.repos.catalog.findProducts(companyId, ids),
        store.repos.catalog.listUnits(companyId, ids),
      ]);
      const productById = new Map(products.map((p) => [p.id, p]));
      const unitById = new Map(units.map((u) => [u.id, u]));
      const details: FieldErrors = {};
      const resolved: ResolvedLine[] = [];
      lines.forEach((line, i) => {
        const product = productById.get(line.productId);
        if (!product || !product.active || !productInScope(toFacts(product), filter)) {
          addFieldError(details, `lines[${i}].productId`, said('error.product.unknown'));
          return;
        }
        const unit = unitById.get(line.unitId);
        if (!unit || unit.product_id !== product.id) {
          addFieldError(details, `lines[${i}].unitId`, said('error.unit.unknown'));
          return;
        }
        resolved.push({
          productId: product.id,
          unitId: unit.id,
          productName: product.name,
          productCode: product.sku,
          unitName: unit.name,
          unitPriceMinor: unit.price_minor,
          taxRateBp: product.rate_bp,
          datasheetFile: product.datasheet_file,
          datasheetName: product.datasheet_name,
        });
      });
      if (Object.keys(details).length > 0) throw AppError.invalid(details, said('error.catalog.unknownLines'));
      return { company, lines: resolved };
    },
  };
}
export type CatalogService = ReturnType<typeof createCatalogService>;

function toFacts(p: ProductWithRate) {
  return { id: p.id, categoryId: p.category_id, modelId: p.model_id };
}

function toPublicProduct(p: ProductWithRate, units: readonly UnitRow[], pricesIncludeTax: boolean): PublicProduct {
  return {
    id: p.id,
    name: p.name,
    sku: p.sku,
    description: p.description,
    categoryId: p.category_id,
    modelId: p.model_id,
    taxRate: formatRate(p.rate_bp),
    hasDatasheet: p.datasheet_file !== null,
    units: units
      .filter((u) => u.product_id === p.id)
      .map((u) => {
        const both = unitPriceBothWays(u.price_minor, p.rate_bp, pricesIncludeTax);
        return {
          id: u.id,
          name: u.name,
          price: formatMoney(u.price_minor),
          priceWithoutTax: formatMoney(both.net),
          priceWithTax: formatMoney(both.gross),
        };
      }),
  };
}
