import type { CatalogScope } from '../companies/index.ts';

export interface ScopedProductFacts {
  id: string;
  categoryId: string | null;
  modelId: string | null;
}

/** Chosen categories plus every category beneath them, so the categories scope is dynamic. */
export function expandCategoryIds(
  categories: ReadonlyArray<{ id: string; parentId: string | null }>,
  roots: readonly string[],
): Set<string> {
  const children = new Map<string, string[]>();
  for (const c of categories) {
    if (c.parentId) (children.get(c.parentId) ?? children.set(c.parentId, []).get(c.parentId)!).push(c.id);
  }
  const out = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (out.has(id)) continue; // a cycle in bad data must not loop forever
    out.add(id);
    stack.push(...(children.get(id) ?? []));
  }
  return out;
}

/**
 * The scope reduced to one filter on a product column, resolved once per request:
 * `null` means every product of the company is visible.
 */
export interface ScopeFilter {
  column: 'id' | 'category_id' | 'model_id';
  ids: string[];
}

export function scopeFilter(scope: CatalogScope, expandedCategories: Set<string> | null): ScopeFilter | null {
  switch (scope.kind) {
    case 'all':
      return null;
    case 'products':
      return { column: 'id', ids: scope.ids };
    case 'categories':
      return { column: 'category_id', ids: [...(expandedCategories ?? new Set(scope.ids))] };
    case 'models':
      return { column: 'model_id', ids: scope.ids };
  }
}

export function productInScope(product: ScopedProductFacts, filter: ScopeFilter | null): boolean {
  if (!filter) return true;
  const value =
    filter.column === 'id' ? product.id : filter.column === 'category_id' ? product.categoryId : product.modelId;
  return value !== null && filter.ids.includes(value);
}
