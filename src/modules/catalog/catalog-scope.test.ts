// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { expandCategoryIds, productInScope, scopeFilter } from './catalog-scope.ts';

const categories = [
  { id: 'paint', parentId: null },
  { id: 'wood-paint', parentId: 'paint' },
  { id: 'lacquer', parentId: 'wood-paint' },
  { id: 'tools', parentId: null },
  { id: 'loop-a', parentId: 'loop-b' },
  { id: 'loop-b', parentId: 'loop-a' },
];

test('a category scope includes every sub-category, however deep', () => {
  assert.deepEqual([...expandCategoryIds(categories, ['paint'])].sort(), ['lacquer', 'paint', 'wood-paint']);
  assert.deepEqual([...expandCategoryIds(categories, ['loop-a'])].sort(), ['loop-a', 'loop-b']);
});

test('each scope kind decides on its own column', () => {
  const product = { id: 'p1', categoryId: 'lacquer', modelId: 'm1' };
  assert.ok(productInScope(product, scopeFilter({ kind: 'all', ids: [] }, null)));
  assert.ok(productInScope(product, scopeFilter({ kind: 'products', ids: ['p1'] }, null)));
  assert.ok(!productInScope(product, scopeFilter({ kind: 'products', ids: ['p2'] }, null)));
  assert.ok(
    productInScope(
      product,
      scopeFilter({ kind: 'categories', ids: ['paint'] }, expandCategoryIds(categories, ['paint'])),
    ),
  );
  assert.ok(
    !productInScope(
      product,
      scopeFilter({ kind: 'categories', ids: ['tools'] }, expandCategoryIds(categories, ['tools'])),
    ),
  );
  assert.ok(productInScope(product, scopeFilter({ kind: 'models', ids: ['m1'] }, null)));
  assert.ok(!productInScope({ ...product, modelId: null }, scopeFilter({ kind: 'models', ids: ['m1'] }, null)));
});
