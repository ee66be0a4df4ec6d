import { AppError, addFieldError, type FieldErrors } from '../../lib/errors.ts';
import { said } from '../i18n/index.ts';
import type { CatalogScope, CatalogScopeKind, CompaniesService } from '../companies/index.ts';
import type { Store } from '../../db/store.ts';
import type { CatalogRepository } from './catalog.repository.ts';

const NAMED = {
  products: 'error.product.unknown',
  categories: 'error.category.unknown',
  models: 'error.model.unknown',
} as const satisfies Record<Exclude<CatalogScopeKind, 'all'>, string>;

/** What the public API exposes of a company's catalog: `all`, or the products, categories or models chosen. */
export function createCatalogScopeService(deps: {
  store: Store<{ catalog: CatalogRepository }>;
  companies: CompaniesService;
}) {
  const { store, companies } = deps;

  /** Each id must name one of the company's own products, categories or models (as the kind says). */
  async function knownIds(
    companyId: string,
    kind: Exclude<CatalogScopeKind, 'all'>,
    ids: readonly string[],
  ): Promise<Set<string>> {
    const rows =
      kind === 'products'
        ? await store.repos.catalog.findProducts(companyId, [...ids])
        : kind === 'categories'
          ? await store.repos.catalog.listCategories(companyId)
          : await store.repos.catalog.listModels(companyId);
    return new Set(rows.map((r) => r.id));
  }

  return {
    async get(companyId: string): Promise<CatalogScope> {
      return (await companies.getCompany(companyId)).catalogScope;
    },

    /** `all` keeps no ids; otherwise every id must be the company's own, or nothing changes. */
    async set(companyId: string, scope: CatalogScope): Promise<CatalogScope> {
      const { kind, ids } = scope;
      if (kind !== 'all') {
        const known = await knownIds(companyId, kind, ids);
        const details: FieldErrors = {};
        ids.forEach((id, i) => {
          if (!known.has(id)) addFieldError(details, `ids[${i}]`, said(NAMED[kind]));
        });
        if (Object.keys(details).length > 0) throw AppError.invalid(details);
      }
      await companies.setCatalogScope(companyId, { kind, ids: kind === 'all' ? [] : ids });
      return this.get(companyId);
    },
  };
}
export type CatalogScopeService = ReturnType<typeof createCatalogScopeService>;
