// test-engines: both
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, createTenant, bearer, type TestApp } from '../../support/test-app.ts';
import { assertProblem, reachOut, validReachOut } from '../../support/http-helpers.ts';
import { addHttpEndpoint, eventually } from '../../support/webhook-helpers.ts';
import { startWebhookReceiver } from '../../support/webhook-receiver.ts';
import { line, yearInZagreb } from '../../support/quote-helpers.ts';
import { adminCall, assignCustomer } from '../../support/sales-helpers.ts';
import type { DemoCompany } from '../../../src/modules/demo/demo-company.ts';

async function key(t: TestApp, demo: DemoCompany, body: Record<string, unknown>): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/admin/api-keys',
    headers: bearer(demo.adminToken),
    payload: { locationId: demo.locations[0]!.id, name: 'Key', ...body },
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().data.key;
}

const post = (t: TestApp, apiKey: string, url: string, payload: object) =>
  t.app.inject({ method: 'POST', url: `/api/v1/public${url}`, headers: bearer(apiKey), payload });
const get = (t: TestApp, apiKey: string, url: string) =>
  t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: bearer(apiKey) });

test('test keys work on test data: own T- numbers, no staff notified, livemode false, never seen by live (and the reverse), deleted together', async () => {
  const receiver = await startWebhookReceiver();
  const t = await createTestApp({}, { startWorkers: true });
  try {
    const demo = await createTenant(t.c);
    await addHttpEndpoint(t, demo, { url: receiver.url });
    const live = demo.locations[0]!.apiKey;
    const code = demo.locations[0]!.code;
    const year = yearInZagreb();
    const testKey = await key(t, demo, { mode: 'test' });
    const testPub = await key(t, demo, {
      kind: 'publishable',
      mode: 'test',
      allowedOrigins: ['https://shop.example.com'],
    });
    assert.match(testPub, /^ptc_pub_test_/);
    const quote = { format: 'json', customer: { name: 'Test Kupac' }, lines: [line(demo, 0, 2)] };
    const order = {
      customer: { name: 'Test Kupac', email: 'kupac@example.com', phone: '+385 1 234 5678' },
      lines: [line(demo, 0, 1)],
    };

    // Numbers: the test series starts at 1 and takes nothing from the live one.
    const testQuotes = [await post(t, testKey, '/quotes', quote), await post(t, testKey, '/quotes', quote)].map((r) => {
      assert.equal(r.statusCode, 201, r.body);
      return r.json().data as { id: string; number: string };
    });
    assert.deepEqual(
      testQuotes.map((q) => q.number),
      [`T-Q-${code}-${year}-00001`, `T-Q-${code}-${year}-00002`],
    );
    const liveQuote = (await post(t, live, '/quotes', quote)).json().data;
    assert.equal(liveQuote.number, `Q-${code}-${year}-00001`);
    const testOrder = (await post(t, testKey, '/orders', order)).json().data;
    assert.equal(testOrder.number, `T-O-${code}-${year}-00001`);
    const liveOrder = (await post(t, live, '/orders', order)).json().data;
    assert.equal(liveOrder.number, `O-${code}-${year}-00001`);

    // Reads: each mode's key finds only its own.
    assert.equal((await get(t, testKey, `/public/quotes/${testQuotes[0]!.id}`)).statusCode, 200);
    assertProblem(await get(t, testKey, `/public/quotes/${liveQuote.id}`), 404, 'not_found');
    assertProblem(await get(t, live, `/public/quotes/${testQuotes[0]!.id}`), 404, 'not_found');
    assert.equal((await get(t, testKey, `/public/orders/${testOrder.id}`)).statusCode, 200);
    assertProblem(await get(t, testKey, `/public/orders/${liveOrder.id}`), 404, 'not_found');
    assertProblem(await get(t, live, `/public/orders/${testOrder.id}`), 404, 'not_found');

    // Inquiries: a test one tells nobody and is listed only among test data.
    const unread = async () =>
      (await get(t, demo.adminToken, '/admin/notifications?unread=true')).json().data.length as number;
    const before = await unread();
    const testInquiry = await reachOut(t.app, testKey, validReachOut({ subject: 'Test inquiry' }));
    assert.equal(testInquiry.statusCode, 201, testInquiry.body);
    assert.equal(await unread(), before, 'no notification for a test inquiry');
    await reachOut(t.app, live, validReachOut({ subject: 'Live inquiry' }));
    assert.equal(await unread(), before + 1);

    // Lists: live only, in the admin API and the hub's services by default; test behind the switch.
    const ids = async (url: string) =>
      (await get(t, demo.adminToken, url)).json().data.map((r: { id: string }) => r.id);
    assert.deepEqual(await ids('/admin/quotations'), [liveQuote.id]);
    assert.deepEqual(await ids('/admin/orders'), [liveOrder.id]);
    assert.ok(!(await ids('/admin/inquiries')).includes(testInquiry.json().data.id));
    assert.deepEqual((await ids('/admin/quotations?mode=test')).sort(), testQuotes.map((q) => q.id).sort());
    assert.deepEqual(await ids('/admin/orders?mode=test'), [testOrder.id]);
    assert.deepEqual(await ids('/admin/inquiries?mode=test'), [testInquiry.json().data.id]);
    const page = { limit: 10 };
    assert.deepEqual(
      (await t.c.quotations.list(demo.companyId, page, { mode: 'test' })).map((q) => q.id).sort(),
      testQuotes.map((q) => q.id).sort(),
    );
    assert.deepEqual(
      (await t.c.orders.list(demo.companyId, page, { mode: 'test' })).map((o) => o.id),
      [testOrder.id],
    );
    assert.deepEqual(
      (await t.c.inquiries.list(demo.companyId, page, { mode: 'test' })).map((i) => i.subject),
      ['Test inquiry'],
    );
    assert.equal(await t.c.quotations.countWithStatus(demo.companyId, ['approved']), 1, "Today's count is live only");

    // Webhooks: every body says livemode; test ones false.
    const bodies = await eventually(async () => {
      const got = receiver.requests.map(
        (r) => JSON.parse(r.body) as { event: string; livemode: boolean; data: { number?: string; subject?: string } },
      );
      return got.length >= 7 ? got : undefined;
    });
    // Documents say test by their T- number, inquiries (inquiry.created) by the subject sent.
    for (const body of bodies)
      assert.equal(
        body.livemode,
        body.event === 'inquiry.created'
          ? body.data.subject !== 'Test inquiry'
          : !String(body.data.number ?? '').startsWith('T-'),
        JSON.stringify(body),
      );
    assert.equal(bodies.filter((b) => !b.livemode).length, 4);

    // Deleted together; live data stays.
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/admin/test-data',
      headers: bearer(demo.adminToken),
    });
    assert.equal(deleted.statusCode, 200, deleted.body);
    assert.deepEqual(deleted.json().data, { inquiries: 1, quotations: 2, orders: 1, sales: 0, events: 4 });
    assert.equal((await t.c.quotations.list(demo.companyId, page, { mode: 'test' })).length, 0);
    assertProblem(await get(t, testKey, `/public/quotes/${testQuotes[0]!.id}`), 404, 'not_found');
    assert.equal((await get(t, live, `/public/quotes/${liveQuote.id}`)).statusCode, 200);
    assert.deepEqual(await ids('/admin/orders'), [liveOrder.id]);
    const events = await t.c.database.db
      .selectFrom('webhook_events')
      .select('mode')
      .where('company_id', '=', demo.companyId)
      .execute();
    assert.ok(events.length >= 2 && events.every((e) => e.mode === 'live'));
  } finally {
    await t.close();
    await receiver.close();
  }
});

test('a test quotation or web order converts into a test sale: T- numbers of its own, livemode false, listed only as test data, deleted with it', async () => {
  const receiver = await startWebhookReceiver();
  const t = await createTestApp({}, { startWorkers: true });
  try {
    const demo = await createTenant(t.c);
    await addHttpEndpoint(t, demo, { url: receiver.url });
    const live = demo.locations[0]!.apiKey;
    const code = demo.locations[0]!.code;
    const year = yearInZagreb();
    const testKey = await key(t, demo, { mode: 'test' });
    const quote = { format: 'json', customer: { name: 'Test Kupac' }, lines: [line(demo, 0, 2)] };
    const order = {
      customer: { name: 'Test Kupac', email: 'kupac@example.com', phone: '+385 1 234 5678' },
      lines: [line(demo, 0, 1)],
    };
    const admin = (method: 'GET' | 'POST', url: string, payload?: object) =>
      adminCall(t.app, demo.adminToken, method, url, payload);
    const convert = async (kind: 'quotations' | 'orders', id: string) => {
      await assignCustomer(t.app, demo, kind, id);
      if (kind === 'orders') assert.equal((await admin('POST', `/orders/${id}/accept`, {})).statusCode, 200);
      const res = await admin('POST', `/${kind}/${id}/convert`, {});
      assert.equal(res.statusCode, 201, res.body);
      return res.json().data as {
        id: string;
        number: string;
        invoiceNumber: string;
        livemode: boolean;
        fiscal: { status: string };
      };
    };

    const testQuote = (await post(t, testKey, '/quotes', quote)).json().data;
    const testOrder = (await post(t, testKey, '/orders', order)).json().data;
    const liveQuote = (await post(t, live, '/quotes', quote)).json().data;
    const testSale = await convert('quotations', testQuote.id);
    const testOrderSale = await convert('orders', testOrder.id);
    const liveSale = await convert('quotations', liveQuote.id);

    // Numbers: the test sales count in their own series, internal and legal; the live one starts at 1.
    assert.equal(testSale.number, `T-S-${code}-${year}-00001`);
    assert.equal(testOrderSale.number, `T-S-${code}-${year}-00002`);
    assert.match(testSale.invoiceNumber, /^T-1\//);
    assert.match(testOrderSale.invoiceNumber, /^T-2\//);
    assert.equal(liveSale.number, `S-${code}-${year}-00001`);
    assert.match(liveSale.invoiceNumber, /^1\//);
    assert.deepEqual([testSale.livemode, testOrderSale.livemode, liveSale.livemode], [false, false, true]);
    assert.equal(testSale.fiscal.status, 'not_required');

    // Lists: live by default, test behind `mode=test`; Today's count is live only.
    const ids = async (url: string) => (await admin('GET', url)).json().data.map((r: { id: string }) => r.id);
    assert.deepEqual(await ids('/sales'), [liveSale.id]);
    assert.deepEqual((await ids('/sales?mode=test')).sort(), [testSale.id, testOrderSale.id].sort());
    assert.equal(await t.c.sales.countWithStatus(demo.companyId, ['unpaid']), 1);

    // A test sale's own moves are test data too: its payment and its storno.
    const paid = await admin('POST', `/sales/${testSale.id}/payments`, { method: 'cash', amount: '1.00' });
    assert.equal(paid.statusCode, 201, paid.body);
    const storno = await admin('POST', `/sales/${testOrderSale.id}/cancel`, { reason: 'Proba' });
    assert.equal(storno.statusCode, 201, storno.body);
    assert.equal(storno.json().data.number, `T-S-${code}-${year}-00003`);
    assert.match(storno.json().data.invoiceNumber, /^T-3\//);
    assert.equal(storno.json().data.livemode, false);
    assert.ok(!(await ids('/sales')).includes(storno.json().data.id));

    // Webhooks: every event about a test sale says livemode false; the live sale's says true.
    const saleEvents = ['sale.created', 'payment.recorded', 'sale.cancelled'];
    const bodies = await eventually(async () => {
      const got = receiver.requests
        .map((r) => JSON.parse(r.body) as { event: string; livemode: boolean; data: Record<string, string> })
        .filter((b) => saleEvents.includes(b.event));
      return got.length >= 5 ? got : undefined;
    });
    for (const b of bodies) {
      const saleId = b.data.saleId;
      assert.equal(b.livemode, saleId === liveSale.id, JSON.stringify(b));
    }
    assert.deepEqual(
      bodies
        .filter((b) => !b.livemode)
        .map((b) => b.event)
        .sort(),
      ['payment.recorded', 'sale.cancelled', 'sale.created', 'sale.created'],
    );

    // Deleted together with the test documents; the live sale stays.
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/admin/test-data',
      headers: bearer(demo.adminToken),
    });
    assert.equal(deleted.statusCode, 200, deleted.body);
    assert.equal(deleted.json().data.sales, 3);
    assert.equal(deleted.json().data.quotations, 1);
    assert.equal(deleted.json().data.orders, 1);
    assert.deepEqual(await ids('/sales?mode=test'), []);
    assertProblem(await admin('GET', `/sales/${testSale.id}`), 404, 'not_found');
    assert.equal((await admin('GET', `/sales/${liveSale.id}`)).statusCode, 200);
    const left = await t.c.database.db
      .selectFrom('sale_payments')
      .select('id')
      .where('company_id', '=', demo.companyId)
      .execute();
    assert.equal(left.length, 0, 'the test payment went with its sale');
    // The running totals the reports read: the test sales' rows went with them, the live sale's stay.
    const totals = await t.c.database.db
      .selectFrom('sale_totals')
      .select(['mode', 'documents'])
      .where('company_id', '=', demo.companyId)
      .where('grain', '=', 'day')
      .execute();
    assert.deepEqual(
      totals.map((r) => [r.mode, Number(r.documents)]),
      [['live', 1]],
    );
  } finally {
    await t.close();
    await receiver.close();
  }
});
