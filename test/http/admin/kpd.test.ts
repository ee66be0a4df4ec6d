// test-engines: sqlite
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, createTenant, bearer, type TestApp } from '../../support/test-app.ts';
import { assertProblem, hubPostHeaders } from '../../support/http-helpers.ts';
import { adminCall, assignCustomer, newOib } from '../../support/sales-helpers.ts';
import { kpdEntry, searchKpd } from '../../../src/modules/einvoice/index.ts';
import type { DemoCompany } from '../../../src/modules/demo/demo-company.ts';

/** KPD 2025 (Zakon o fiskalizaciji art. 42): the official list ships with Portico and is checked. */
describe('KPD 2025: product codes checked against the official list, the e-invoice refused for an unlisted one', () => {
  let t: TestApp;
  let d: DemoCompany;
  before(async () => {
    t = await createTestApp();
    d = await createTenant(t.c, { passwords: true });
    const opr = await adminCall(t.app, d.adminToken, 'PATCH', `/users/${d.users[0]!.id}`, { operatorOib: newOib() });
    assert.equal(opr.statusCode, 200, opr.body);
  });
  after(() => t.close());

  test('the shipped list is the official one: 3,359 six-level codes, searchable by code and by Croatian name', () => {
    let count = 0;
    for (let a = 0; a < 100; a++) count += searchKpd(String(a).padStart(2, '0'), 10_000).length;
    assert.equal(count, 3359);
    assert.equal(kpdEntry('20.30.12')?.name.startsWith('Boje i lakovi'), true);
    assert.equal(kpdEntry('58.11.19'), undefined, '58.11.19 is not in KPD 2025');
    assert.deepEqual(
      searchKpd('boje lakovi').map((e) => e.code),
      ['20.30.11', '20.30.12', '20.30.22'],
    );
  });

  test('a product code not in the list is a 400 naming classificationCode; a listed one is stored', async () => {
    const product = d.products[0]!;
    const bad = assertProblem(
      await adminCall(t.app, d.adminToken, 'PATCH', `/products/${product.id}`, { classificationCode: '58.11.19' }),
      400,
      'validation_failed',
    );
    assert.deepEqual(Object.keys(bad.details), ['classificationCode']);
    assert.match(bad.details.classificationCode[0], /not a KPD 2025 code/);
    const good = await adminCall(t.app, d.adminToken, 'PATCH', `/products/${product.id}`, {
      classificationCode: '20.30.22',
    });
    assert.equal(good.statusCode, 200, good.body);
    assert.equal(good.json().data.classificationCode, '20.30.22');
  });

  test("the demo book carries 58.11.19: its invoice to a business is 'not a valid e-invoice', the reason naming the line", async () => {
    const book = d.products.find((p) => p.name.includes('Priručnik'))!;
    const q = await t.app.inject({
      method: 'POST',
      url: '/api/v1/public/quotes',
      headers: bearer(d.locations[0]!.apiKey),
      payload: {
        format: 'json',
        customer: { name: 'Kupac', email: 'kupac@example.com' },
        lines: [
          { productId: d.products[1]!.id, unitId: d.products[1]!.units[0]!.id, quantity: 1 },
          { productId: book.id, unitId: book.units[0]!.id, quantity: 1 },
        ],
      },
    });
    assert.equal(q.statusCode, 201, q.body);
    await assignCustomer(t.app, d, 'quotations', q.json().data.id, {
      kind: 'business',
      name: 'Gradnja d.o.o.',
      taxId: newOib(),
      address: { street: 'Savska 5', postalCode: '10000', city: 'Zagreb', country: 'HR' },
    });
    const sale = await adminCall(t.app, d.adminToken, 'POST', `/quotations/${q.json().data.id}/convert`, {});
    assert.equal(sale.statusCode, 201, sale.body);
    const refused = assertProblem(
      await adminCall(t.app, d.adminToken, 'GET', `/sales/${sale.json().data.id}/e-invoice`),
      409,
      'conflict',
    );
    assert.deepEqual(Object.keys(refused.details), ['lines[1].classificationCode']);
    assert.match(refused.details['lines[1].classificationCode'][0], /Line 2 .*"58\.11\.19" is not in KPD 2025/);
  });

  test("the hub's product form offers the codes as one types: code and Croatian name", async () => {
    const admin = d.users.find((u) => u.role === 'admin')!;
    const headers = await hubPostHeaders(t.app, t.c, admin.email, admin.password!);
    const form = await t.app.inject({ method: 'GET', url: `/hub/catalog/products/${d.products[0]!.id}`, headers });
    assert.equal(form.statusCode, 200);
    assert.match(form.body, /id="product-classification"[^>]*list="kpd-options"[^>]*hx-get="\/hub\/catalog\/kpd"/);
    const found = await t.app.inject({
      method: 'GET',
      url: '/hub/catalog/kpd?classificationCode=boje%20i%20lak',
      headers,
    });
    assert.equal(found.statusCode, 200);
    assert.match(found.body, /^<datalist id="kpd-options">.*<option value="20\.30\.11">20\.30\.11 Boje i lakovi/);
    const byCode = await t.app.inject({ method: 'GET', url: '/hub/catalog/kpd?classificationCode=58.11', headers });
    assert.doesNotMatch(byCode.body, /58\.11\.19/);
    assert.match(byCode.body, /58\.11\.1/);
  });
});
