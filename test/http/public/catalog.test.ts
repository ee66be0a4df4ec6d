// test-engines: both
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { bearer, createTenant, createTestApp, type TestApp } from '../../support/test-app.ts';
import { PRODUCTS, getJson, line, postQuote, problemOf } from '../../support/quote-helpers.ts';
import { assertProblem } from '../../support/http-helpers.ts';
import type { DemoCompany } from '../../../src/modules/demo/demo-company.ts';

describe('catalog', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const SCOPE = '/api/v1/admin/catalog-scope';

  function setScope(d: DemoCompany, kind: string, ids: string[] = []) {
    return t.app.inject({ method: 'PUT', url: SCOPE, headers: bearer(d.adminToken), payload: { kind, ids } });
  }

  /** Every page of GET /products (limit 2), asserting the pages do not overlap. */
  async function listAll(
    key: string,
    query = '',
  ): Promise<Array<{ id: string; units: Array<Record<string, string>> }>> {
    const out: Array<{ id: string; units: Array<Record<string, string>> }> = [];
    let cursor: string | null = null;
    for (let page = 0; page < 20; page++) {
      const res = await getJson(
        t.app,
        key,
        `${PRODUCTS}?limit=2${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json() as { data: typeof out; nextCursor: string | null };
      assert.ok(body.data.length <= 2);
      out.push(...body.data);
      cursor = body.nextCursor;
      if (!cursor) break;
    }
    assert.equal(new Set(out.map((p) => p.id)).size, out.length, 'no product on two pages');
    return out;
  }
  const ids = async (key: string, query = '') => (await listAll(key, query)).map((p) => p.id).sort();
  const sorted = (list: string[]) => [...list].sort();
  const names = async (key: string, what: 'categories' | 'models') =>
    ((await getJson(t.app, key, `/api/v1/public/${what}`)).json().data as Array<{ name: string }>)
      .map((x) => x.name)
      .sort();

  /** Asserts that product `hidden` does not exist for the public API, exactly like a made-up id. */
  async function assertHidden(d: DemoCompany, hidden: number, visible: number) {
    const key = d.locations[0]!.apiKey;
    const id = d.products[hidden]!.id;
    assert.equal((await getJson(t.app, key, `${PRODUCTS}/${id}`)).statusCode, 404);
    assert.equal((await getJson(t.app, key, `${PRODUCTS}/${id}/datasheet`)).statusCode, 404);
    const quote = (productId: string) =>
      postQuote(t.app, key, {
        format: 'json',
        customer: { name: 'Ana' },
        lines: [line(d, visible, 1), { productId, unitId: d.products[hidden]!.units[0]!.id, quantity: 1 }],
      });
    const outOfScope = await quote(id);
    const madeUp = await quote('prd_doesNotExist000000');
    assert.equal(outOfScope.statusCode, 400, outOfScope.body);
    const [a, b] = [problemOf(outOfScope), problemOf(madeUp)];
    assert.deepEqual(Object.keys(a.details), ['lines[1].productId']);
    assert.deepEqual(a, b, 'an out-of-scope product reads exactly like one that does not exist');
    const ok = await postQuote(t.app, key, { format: 'json', customer: { name: 'Ana' }, lines: [line(d, visible, 1)] });
    assert.equal(ok.statusCode, 201, `an in-scope product can be quoted: ${ok.body}`);
  }

  test('scope all: listing, pagination, filters and unit prices', async () => {
    const d = await createTenant(t.c);
    const key = d.locations[0]!.apiKey;
    const p = d.products.map((x) => x.id);
    const [paint, woodPaint] = d.categories;
    const helios = d.models[1]!;
    const put = await setScope(d, 'all');
    assert.equal(put.statusCode, 200, put.body);
    assert.deepEqual(put.json().data, { kind: 'all', ids: [] });

    const all = await listAll(key);
    assert.deepEqual(all.map((x) => x.id).sort(), sorted(p), 'seven products over four pages of two');
    // Filters: a category includes its sub-categories (products[0] is in 'Boje za drvo').
    assert.deepEqual(await ids(key, `&categoryId=${paint!.id}`), sorted([p[0]!, p[1]!, p[2]!, p[6]!]));
    assert.deepEqual(await ids(key, `&categoryId=${woodPaint!.id}`), [p[0]!]);
    assert.deepEqual(await ids(key, `&modelId=${helios.id}`), sorted([p[1]!, p[2]!]));
    assert.deepEqual(await ids(key, `&q=bzd-075`), [p[0]!], 'SKU, case-insensitive');
    assert.deepEqual(await ids(key, `&q=${encodeURIComponent('FASADNA')}`), [p[2]!], 'name, case-insensitive');

    // Unit prices both ways (prices exclude tax): 34.90 + 25 % = 43.625 → 43.63; 18.00 + 5 % = 18.90.
    const byId = new Map(all.map((x) => [x.id, x]));
    assert.deepEqual(
      byId.get(p[1]!)!.units.map((u) => [u.name, u.price, u.priceWithoutTax, u.priceWithTax]),
      [
        ['kom', '34.90', '34.90', '43.63'],
        ['karton (6 kom)', '199.00', '199.00', '248.75'],
      ],
    );
    assert.deepEqual(
      byId.get(p[6]!)!.units.map((u) => [u.price, u.priceWithoutTax, u.priceWithTax]),
      [['18.00', '18.00', '18.90']],
    );
    assert.equal(byId.get(p[1]!)!.units[1]!.id, d.products[1]!.units[1]!.id);

    assert.deepEqual(await names(key, 'categories'), ['Alati', 'Boje i lakovi', 'Boje za drvo', 'Vijci i okovi']);
    assert.deepEqual(await names(key, 'models'), ['Bosch Professional', 'Chromos Ekol', 'Helios Spektra']);

    // A unit of another product is not a unit of this one.
    const wrongUnit = await postQuote(t.app, key, {
      format: 'json',
      customer: { name: 'Ana' },
      lines: [line(d, 0, 1), { ...line(d, 1, 1), unitId: d.products[4]!.units[0]!.id }],
    });
    assert.equal(wrongUnit.statusCode, 400);
    assert.deepEqual(Object.keys(problemOf(wrongUnit).details), ['lines[1].unitId']);
  });

  test('q matches names case-insensitively beyond ASCII', async () => {
    const d = await createTenant(t.c);
    const key = d.locations[0]!.apiKey;
    assert.deepEqual(
      await ids(key, `&q=${encodeURIComponent('šišmiš')}`),
      [d.products[0]!.id],
      'lower-case query, upper-case Š in the name',
    );
    assert.deepEqual(await ids(key, `&q=${encodeURIComponent('ŽUTI ČVOR')}`), [d.products[1]!.id], 'upper-case query');
  });

  test('q takes % and _ literally', async () => {
    const d = await createTenant(t.c);
    const key = d.locations[0]!.apiKey;
    const rate = (await t.c.store.repos.catalog.listTaxRates(d.companyId))[0]!;
    const thinner = await t.c.catalogAdmin.createProduct(d.companyId, {
      name: 'Razrjeđivač 100% nitro',
      sku: 'RAZ_100',
      taxRateId: rate.id,
      units: [{ name: 'L', price: '5.00' }],
    });
    await t.c.catalogAdmin.createProduct(d.companyId, {
      name: 'Razrjeđivač 1000 ml',
      sku: 'RAZ-1000',
      taxRateId: rate.id,
      units: [{ name: 'kom', price: '4.00' }],
    });
    assert.deepEqual(
      await ids(key, `&q=${encodeURIComponent('100%')}`),
      [thinner.id],
      '% is a character, not a wildcard',
    );
    assert.deepEqual(
      await ids(key, `&q=${encodeURIComponent('raz_')}`),
      [thinner.id],
      '_ is a character, not a wildcard',
    );
  });

  test('scope products: a fixed list', async () => {
    const d = await createTenant(t.c);
    const key = d.locations[0]!.apiKey;
    const p = d.products.map((x) => x.id);
    const unknown = await setScope(d, 'products', [p[1]!, 'prd_unknown', p[4]!, d.categories[0]!.id]);
    assert.equal(unknown.statusCode, 400);
    assert.deepEqual(problemOf(unknown).details, { 'ids[1]': ['No such product.'], 'ids[3]': ['No such product.'] });

    const put = await setScope(d, 'products', [p[1]!, p[4]!]);
    assert.equal(put.statusCode, 200, put.body);
    assert.deepEqual(await ids(key), sorted([p[1]!, p[4]!]));
    assert.equal((await getJson(t.app, key, `${PRODUCTS}/${p[1]}`)).statusCode, 200);
    await assertHidden(d, 0, 1);
    await assertHidden(d, 3, 4);
    // Categories of visible products, with their parents; models of visible products.
    assert.deepEqual(await names(key, 'categories'), ['Boje i lakovi', 'Vijci i okovi']);
    assert.deepEqual(await names(key, 'models'), ['Helios Spektra']);
    // Filters narrow within the scope, never widen it.
    assert.deepEqual(await ids(key, `&categoryId=${d.categories[0]!.id}`), [p[1]!]);
    // A product added later is not in a fixed list.
    const rate = (await t.c.store.repos.catalog.listTaxRates(d.companyId))[0]!;
    const later = await t.c.catalogAdmin.createProduct(d.companyId, {
      name: 'Novo',
      categoryId: d.categories[0]!.id,
      taxRateId: rate.id,
      units: [{ name: 'kom', price: '1.00' }],
    });
    assert.equal((await getJson(t.app, key, `${PRODUCTS}/${later.id}`)).statusCode, 404);
    // Back to all: everything is visible again.
    assert.equal((await setScope(d, 'all')).statusCode, 200);
    assert.equal((await ids(key)).length, 8);
  });

  test('scope categories: dynamic, sub-categories included', async () => {
    const d = await createTenant(t.c);
    const key = d.locations[1]!.apiKey;
    const p = d.products.map((x) => x.id);
    const [paint, woodPaint, tools] = d.categories;
    const unknown = await setScope(d, 'categories', ['cat_unknown']);
    assert.equal(unknown.statusCode, 400);
    assert.deepEqual(problemOf(unknown).details, { 'ids[0]': ['No such category.'] });
    const unchanged = await t.app.inject({ method: 'GET', url: SCOPE, headers: bearer(d.adminToken) });
    assert.deepEqual(unchanged.json().data, { kind: 'all', ids: [] }, 'a refused scope changes nothing');

    const put = await setScope(d, 'categories', [paint!.id]);
    assert.equal(put.statusCode, 200, put.body);
    assert.deepEqual(put.json().data, { kind: 'categories', ids: [paint!.id] });
    assert.deepEqual(await ids(key), sorted([p[0]!, p[1]!, p[2]!, p[6]!]), 'products[0] is in the sub-category');
    await assertHidden({ ...d, locations: [d.locations[1]!] }, 3, 0);
    await assertHidden({ ...d, locations: [d.locations[1]!] }, 5, 6);
    assert.deepEqual(await ids(key, `&categoryId=${tools!.id}`), []);

    // Added after the scope was set: into the category, and into a new sub-category of its child.
    const rate = (await t.c.store.repos.catalog.listTaxRates(d.companyId))[0]!;
    const direct = await t.c.catalogAdmin.createProduct(d.companyId, {
      name: 'Temeljna boja',
      categoryId: paint!.id,
      taxRateId: rate.id,
      units: [{ name: 'kom', price: '9.00' }],
    });
    const sub = await t.c.catalogAdmin.createCategory(d.companyId, { name: 'Lazure', parentId: woodPaint!.id });
    const deep = await t.c.catalogAdmin.createProduct(d.companyId, {
      name: 'Lazura tik',
      categoryId: sub.id,
      taxRateId: rate.id,
      units: [{ name: 'kom', price: '11.00' }],
    });
    const outside = await t.c.catalogAdmin.createProduct(d.companyId, {
      name: 'Čekić',
      categoryId: tools!.id,
      taxRateId: rate.id,
      units: [{ name: 'kom', price: '7.00' }],
    });
    assert.deepEqual(await ids(key), sorted([p[0]!, p[1]!, p[2]!, p[6]!, direct.id, deep.id]));
    assert.equal((await getJson(t.app, key, `${PRODUCTS}/${deep.id}`)).statusCode, 200);
    assert.equal((await getJson(t.app, key, `${PRODUCTS}/${outside.id}`)).statusCode, 404);
    const quote = await postQuote(t.app, key, {
      format: 'json',
      customer: { name: 'Ana' },
      lines: [{ productId: deep.id, unitId: deep.unitIds[0], quantity: 2 }],
    });
    assert.equal(quote.statusCode, 201, quote.body);

    assert.deepEqual(await names(key, 'categories'), ['Boje i lakovi', 'Boje za drvo', 'Lazure']);
    assert.deepEqual(await names(key, 'models'), ['Chromos Ekol', 'Helios Spektra']);
  });

  test('scope models: dynamic', async () => {
    const d = await createTenant(t.c);
    const key = d.locations[0]!.apiKey;
    const p = d.products.map((x) => x.id);
    const bosch = d.models[2]!;
    const unknown = await setScope(d, 'models', [bosch.id, 'mdl_unknown']);
    assert.equal(unknown.statusCode, 400);
    assert.deepEqual(problemOf(unknown).details, { 'ids[1]': ['No such model.'] });

    assert.equal((await setScope(d, 'models', [bosch.id])).statusCode, 200);
    assert.deepEqual(await ids(key), [p[3]!]);
    await assertHidden(d, 0, 3);
    await assertHidden(d, 4, 3);
    const rate = (await t.c.store.repos.catalog.listTaxRates(d.companyId))[0]!;
    const grinder = await t.c.catalogAdmin.createProduct(d.companyId, {
      name: 'Kutna brusilica GWS 7-125',
      modelId: bosch.id,
      categoryId: d.categories[2]!.id,
      taxRateId: rate.id,
      units: [{ name: 'kom', price: '79.00' }],
    });
    assert.deepEqual(await ids(key), sorted([p[3]!, grinder.id]), 'a new product of the model is in scope');
    assert.deepEqual(await names(key, 'models'), ['Bosch Professional']);
    assert.deepEqual(await names(key, 'categories'), ['Alati']);
    // The admin API still sees the stored scope.
    const read = await t.app.inject({ method: 'GET', url: SCOPE, headers: bearer(d.adminToken) });
    assert.deepEqual(read.json().data, { kind: 'models', ids: [bosch.id] });
    // A location key cannot change the scope.
    const byKey = await t.app.inject({
      method: 'PUT',
      url: SCOPE,
      headers: bearer(key),
      payload: { kind: 'all', ids: [] },
    });
    assert.equal(byKey.statusCode, 403);
  });

  describe("tenancy: one company never sees another's products", () => {
    const get = (url: string, token: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });
    // Every test makes its own two tenants, so no test depends on another's data.
    const tenants = async (): Promise<[DemoCompany, DemoCompany]> => [await createTenant(t.c), await createTenant(t.c)];

    test("products: A's product is 404 through B's key, and never appears in B's list", async () => {
      const [a, b] = await tenants();
      const product = a.products[0]!;
      const own = await get(`/api/v1/public/products/${product.id}`, a.locations[0]!.apiKey);
      assert.equal(own.statusCode, 200, own.body);
      assert.equal(own.json().data.id, product.id);

      assertProblem(await get(`/api/v1/public/products/${product.id}`, b.locations[0]!.apiKey), 404, 'not_found');
      assertProblem(
        await get(
          `/api/v1/public/products/${a.products.find((p) => p.hasDatasheet)!.id}/datasheet`,
          b.locations[0]!.apiKey,
        ),
        404,
        'not_found',
      );

      const listB = await get('/api/v1/public/products?limit=100', b.locations[0]!.apiKey);
      assert.equal(listB.statusCode, 200);
      const idsB = listB.json().data.map((p: { id: string }) => p.id);
      assert.equal(idsB.length, b.products.length);
      assert.ok(a.products.every((p) => !idsB.includes(p.id)));

      const lineWithA = await t.app.inject({
        method: 'POST',
        url: '/api/v1/public/quotes',
        headers: bearer(b.locations[0]!.apiKey),
        payload: {
          format: 'json',
          customer: { name: 'X' },
          lines: [{ productId: product.id, unitId: product.units[0]!.id, quantity: 1 }],
        },
      });
      assert.ok(
        lineWithA.statusCode === 400 || lineWithA.statusCode === 404,
        `a quote line with A's product is refused (${lineWithA.statusCode})`,
      );
      assertProblem(lineWithA, lineWithA.statusCode);
    });
  });
});
