// test-engines: both
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, createTenant, type TestApp } from '../support/test-app.ts';
import { adminCall } from '../support/sales-helpers.ts';
import type { DemoCompany } from '../../src/modules/demo/demo-company.ts';

/**
 * Gross or net (issue 34, item 8): the owner chooses on the company page; the product form and the
 * counter say which; a counter sale at gross prices charges the shelf price, VAT backed out of it.
 */
describe('a company prices including VAT or excluding it', () => {
  let t: TestApp;
  let demo: DemoCompany;
  let cookie: string;
  before(async () => {
    t = await createTestApp();
    demo = await createTenant(t.c, { passwords: true });
    const admin = demo.users.find((u) => u.role === 'admin')!;
    cookie = `portico_session=${(await t.c.accounts.signIn(admin.email, admin.password!)).token}`;
  });
  after(async () => {
    await t.close();
  });

  const page = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url, headers: { cookie } });
    assert.equal(res.statusCode, 200, url);
    return res.body;
  };

  test('net by default; switched to gross, the forms say so and the counter charges the shelf price', async () => {
    const p = demo.products[0]!;
    const unit = p.units[0]!;
    assert.match(await page('/hub/company'), /value="net" checked/);
    assert.match(await page(`/hub/catalog/products/${p.id}`), /Cijena bez PDV-a \(EUR\)/);
    assert.match(await page('/hub/counter'), /Cijene su bez PDV-a/);

    const set = await adminCall(t.app, demo.adminToken, 'PATCH', '/settings', { pricesIncludeTax: true });
    assert.equal(set.statusCode, 200, set.body);
    assert.equal(set.json().data.pricesIncludeTax, true);
    assert.match(await page('/hub/company'), /value="gross" checked/);
    assert.match(await page(`/hub/catalog/products/${p.id}`), /Cijena s PDV-om \(EUR\)/);
    assert.match(await page('/hub/counter'), /Cijene su s PDV-om\./);

    const sale = await adminCall(t.app, demo.adminToken, 'POST', '/counter-sales', {
      lines: [{ productId: p.id, unitId: unit.id, quantity: 3 }],
      paymentMethod: 'card',
    });
    assert.equal(sale.statusCode, 201, sale.body);
    const data = sale.json().data;
    const shelf = Math.round(Number(unit.price) * 100) * 3;
    assert.equal(Math.round(Number(data.totals.withTax) * 100), shelf, 'the customer pays 3 × the shelf price');
    assert.equal(
      Math.round(Number(data.totals.net) * 100) + Math.round(Number(data.totals.tax) * 100),
      shelf,
      'net and VAT backed out of it, to the cent',
    );
    const refused = await adminCall(t.app, demo.adminToken, 'PATCH', '/settings', { pricesIncludeTax: 'yes' });
    assert.equal(refused.statusCode, 400);
  });
});
