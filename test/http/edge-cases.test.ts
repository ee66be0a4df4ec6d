// test-engines: both
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, createTenant, bearer, type TestApp } from '../support/test-app.ts';

describe('edge cases', () => {
  // Inputs that pass the schema but would break something below it: each must be a 400, never a 5xx.
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test('a leap-second expiry, an overflowing amount and a forged cursor are 400s naming the field', async () => {
    const demo = await createTenant(t.c);
    const key = demo.locations[0]!.apiKey;
    const p = demo.products[0]!;
    const quote = (payload: object) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/public/quotes',
        headers: bearer(key),
        payload: { format: 'json', customer: { name: 'X' }, ...payload },
      });

    const leap = await quote({
      expiresAt: '2030-12-31T23:59:60Z',
      lines: [{ productId: p.id, unitId: p.units[0]!.id, quantity: 1 }],
    });
    assert.equal(leap.statusCode, 400, leap.body);
    assert.deepEqual(Object.keys(leap.json().details), ['expiresAt']);

    // The most expensive unit the admin API accepts, times the largest quantity, 500 times: past 2^53 cents.
    const rate = (await t.c.store.repos.catalog.listTaxRates(demo.companyId))[0]!;
    const pricey = await t.c.catalogAdmin.createProduct(demo.companyId, {
      name: 'Yacht paint',
      taxRateId: rate.id,
      units: [{ name: 'ship', price: '999999999.99' }],
    });
    const line = { productId: pricey.id, unitId: pricey.unitIds[0]!, quantity: 1_000_000_000 };
    const huge = await quote({ lines: Array.from({ length: 3 }, () => line) });
    assert.equal(huge.statusCode, 400, huge.body);
    assert.ok(huge.json().details['lines[0].quantity'], huge.body);
    await assert.rejects(
      t.c.catalogAdmin.createProduct(demo.companyId, {
        name: 'Too dear',
        taxRateId: rate.id,
        units: [{ name: 'x', price: '1000000000.00' }],
      }),
      { code: 'validation_failed' },
    );

    const forged = Buffer.from(JSON.stringify(['not-a-time', 'inq_x'])).toString('base64url');
    for (const url of [
      `/api/v1/admin/inquiries?cursor=${forged}`,
      `/api/v1/admin/orders?cursor=${forged}`,
      `/api/v1/admin/notifications?cursor=${forged}`,
    ]) {
      const res = await t.app.inject({ method: 'GET', url, headers: bearer(demo.adminToken) });
      assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
      assert.deepEqual(Object.keys(res.json().details), ['cursor']);
    }
  });
});
