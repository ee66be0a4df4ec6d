// test-engines: both
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, createTenant, bearer, type TestApp } from '../../support/test-app.ts';
import { assertProblem } from '../../support/http-helpers.ts';
import { line } from '../../support/quote-helpers.ts';

/**
 * A location key reads the quotations and orders its location created, and nothing of the
 * company's other locations (issue 15, item 9): a website's key leaking must not expose every
 * shop's customers. The hub (admin API) still reads the whole company.
 */
describe('location scope of public reads', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => {
    await t.close();
  });

  const get = (url: string, token: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers: { ...bearer(token), ...headers } });

  test("quotations and orders: the creating location's keys read them, the other location's key gets 404", async () => {
    const d = await createTenant(t.c);
    const [zagreb, split] = d.locations as [(typeof d.locations)[0], (typeof d.locations)[0]];
    // A second key of the creating location: the scope is the location, not the key.
    const zagrebShop = (await t.c.apiKeys.createApiKey(d.companyId, { locationId: zagreb.id, name: 'Shop app' })).key;

    const quote = await t.app.inject({
      method: 'POST',
      url: '/api/v1/public/quotes',
      headers: bearer(zagreb.apiKey),
      payload: { format: 'json', customer: { name: 'Ana' }, lines: [line(d, 0, 1)] },
    });
    assert.equal(quote.statusCode, 201, quote.body);
    const order = await t.app.inject({
      method: 'POST',
      url: '/api/v1/public/orders',
      headers: bearer(zagreb.apiKey),
      payload: {
        customer: { name: 'Ana', email: 'ana@example.com', phone: '+385 1 234 5678' },
        lines: [line(d, 0, 1)],
      },
    });
    assert.equal(order.statusCode, 201, order.body);
    const quoteId: string = quote.json().data.id;
    const orderId: string = order.json().data.id;

    const reads: Array<{ url: string; headers: Record<string, string> }> = [
      { url: `/api/v1/public/quotes/${quoteId}`, headers: {} },
      { url: `/api/v1/public/quotes/${quoteId}?format=pdf`, headers: {} },
      { url: `/api/v1/public/quotes/${quoteId}`, headers: { accept: 'application/pdf' } },
      { url: `/api/v1/public/orders/${orderId}`, headers: {} },
    ];
    for (const { url, headers } of reads) {
      for (const key of [zagreb.apiKey, zagrebShop]) {
        const res = await get(url, key, headers);
        assert.equal(res.statusCode, 200, `${url}: ${res.body.slice(0, 200)}`);
      }
      const res = await get(url, split.apiKey, headers);
      assertProblem(res, 404, 'not_found');
      assert.equal(res.headers['x-quotation-id'], undefined, url);
      assert.ok(!res.body.includes('Ana'), `${url}: the 404 reveals nothing`);
    }

    // The hub sees the whole company, whichever location took the document.
    assert.equal((await get(`/api/v1/admin/quotations/${quoteId}`, d.adminToken)).statusCode, 200);
    assert.equal((await get(`/api/v1/admin/orders/${orderId}`, d.adminToken)).statusCode, 200);
  });
});
