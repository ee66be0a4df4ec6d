import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, createTenant, bearer, type TestApp } from '../support/test-app.ts';
import { assertProblem, listAllInquiries, reachOut, tokenForRole, validReachOut } from '../support/http-helpers.ts';
import type { DemoCompany } from '../../src/modules/demo/demo-company.ts';

describe('tenancy: one company never sees another\'s records', () => {
  let t: TestApp;
  before(async () => { t = await createTestApp(); });
  after(async () => { await t.close(); });

  const get = (url: string, token: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });
  // Every test makes its own two tenants, so no test depends on another's data.
  const tenants = async (): Promise<[DemoCompany, DemoCompany]> => [await createTenant(t.c), await createTenant(t.c)];

  test('inquiries: B\'s admin and support users never see A\'s, by list or by id', async () => {
    const [a, b] = await tenants();
    const fromA = await reachOut(t.app, a.locations[0]!.apiKey, validReachOut({ subject: 'Only for A' }));
    assert.equal(fromA.statusCode, 201);
    const fromB = await reachOut(t.app, b.locations[1]!.apiKey, validReachOut({ subject: 'Only for B' }));
    assert.equal(fromB.statusCode, 201);
    const idA = fromA.json().data.id;
    const idB = fromB.json().data.id;

    const listA = await listAllInquiries(t.app, a.adminToken);
    const listB = await listAllInquiries(t.app, b.adminToken);
    assert.ok(listA.some((i) => i.id === idA), 'A sees its own inquiry');
    assert.ok(listB.some((i) => i.id === idB), 'B sees its own inquiry');
    assert.ok(!listB.some((i) => i.id === idA), 'B never lists A\'s inquiry');
    assert.ok(!listA.some((i) => i.id === idB), 'A never lists B\'s inquiry');
    const locationsA = new Set(a.locations.map((l) => l.id));
    assert.ok(listB.every((i) => !locationsA.has(i.locationId)));

    for (const token of [b.adminToken, await tokenForRole(t.c, b, 'support')]) {
      const res = await get(`/api/v1/admin/inquiries/${idA}`, token);
      const problem = assertProblem(res, 404, 'not_found');
      assert.ok(!res.body.includes('Only for A'));
      assert.ok(!JSON.stringify(problem).includes(a.companyId), 'the 404 does not reveal the owner');
    }
    assert.equal((await get(`/api/v1/admin/inquiries/${idA}`, a.adminToken)).statusCode, 200);
  });

  test('notifications: B\'s users are never told of A\'s inquiries and cannot mark A\'s notifications read', async () => {
    const [a, b] = await tenants();
    const fromA = await reachOut(t.app, a.locations[1]!.apiKey, validReachOut({ subject: 'Notify only A' }));
    assert.equal(fromA.statusCode, 201);
    const idA = fromA.json().data.id;

    const mineA = (await get('/api/v1/admin/notifications?limit=100', a.adminToken)).json().data;
    const noteA = mineA.find((n: { subject: { id: string } | null }) => n.subject?.id === idA);
    assert.ok(noteA, 'A\'s admin is notified');

    for (const token of [b.adminToken, await tokenForRole(t.c, b, 'support'), await tokenForRole(t.c, b, 'staff')]) {
      const res = await get('/api/v1/admin/notifications?limit=100', token);
      assert.equal(res.statusCode, 200, res.body);
      assert.ok(!res.body.includes(idA) && !res.body.includes('Notify only A'), 'B sees nothing of A\'s inquiry');
      const mark = await t.app.inject({ method: 'POST', url: `/api/v1/admin/notifications/${noteA.id}/read`, headers: bearer(token) });
      assertProblem(mark, 404, 'not_found');
    }
    const still = (await get('/api/v1/admin/notifications?unread=true&limit=100', a.adminToken)).json().data;
    assert.ok(still.some((n: { id: string }) => n.id === noteA.id), 'A\'s notification is still unread');
  });

  test('quotes: B\'s key gets 404 for A\'s quotation', async () => {
    const [a, b] = await tenants();
    const product = a.products[0]!;
    const created = await t.app.inject({
      method: 'POST', url: '/api/v1/public/quotes', headers: bearer(a.locations[0]!.apiKey),
      payload: { format: 'json', customer: { name: 'X' }, lines: [{ productId: product.id, unitId: product.units[0]!.id, quantity: 1 }] },
    });
    assert.equal(created.statusCode, 201, created.body);
    const quoteId = created.json().data.id;
    assert.ok(typeof quoteId === 'string' && quoteId.length > 0);

    const own = await get(`/api/v1/public/quotes/${quoteId}`, a.locations[0]!.apiKey);
    assert.equal(own.statusCode, 200, 'the creating location\'s key reads it (other locations: location-scope.test.ts)');
    assert.equal(own.json().data.id, quoteId);

    for (const key of b.locations.map((l) => l.apiKey)) {
      for (const url of [`/api/v1/public/quotes/${quoteId}`, `/api/v1/public/quotes/${quoteId}?format=pdf`]) {
        const res = await get(url, key);
        assertProblem(res, 404, 'not_found');
        assert.equal(res.headers['x-quotation-id'], undefined);
        assert.equal(res.headers['x-quotation-number'], undefined);
      }
    }
    assertProblem(await get(`/api/v1/admin/quotations/${quoteId}`, b.adminToken), 404, 'not_found');
  });

  test('products: A\'s product is 404 through B\'s key, and never appears in B\'s list', async () => {
    const [a, b] = await tenants();
    const product = a.products[0]!;
    const own = await get(`/api/v1/public/products/${product.id}`, a.locations[0]!.apiKey);
    assert.equal(own.statusCode, 200, own.body);
    assert.equal(own.json().data.id, product.id);

    assertProblem(await get(`/api/v1/public/products/${product.id}`, b.locations[0]!.apiKey), 404, 'not_found');
    assertProblem(await get(`/api/v1/public/products/${a.products.find((p) => p.hasDatasheet)!.id}/datasheet`, b.locations[0]!.apiKey), 404, 'not_found');

    const listB = await get('/api/v1/public/products?limit=100', b.locations[0]!.apiKey);
    assert.equal(listB.statusCode, 200);
    const idsB = listB.json().data.map((p: { id: string }) => p.id);
    assert.equal(idsB.length, b.products.length);
    assert.ok(a.products.every((p) => !idsB.includes(p.id)));

    const lineWithA = await t.app.inject({
      method: 'POST', url: '/api/v1/public/quotes', headers: bearer(b.locations[0]!.apiKey),
      payload: { format: 'json', customer: { name: 'X' }, lines: [{ productId: product.id, unitId: product.units[0]!.id, quantity: 1 }] },
    });
    assert.ok(lineWithA.statusCode === 400 || lineWithA.statusCode === 404, `a quote line with A's product is refused (${lineWithA.statusCode})`);
    assertProblem(lineWithA, lineWithA.statusCode);
  });
});
