// test-engines: both
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, createTenant, type TestApp } from '../../support/test-app.ts';
import { assertProblem, tokenForRole } from '../../support/http-helpers.ts';
import { adminCall, assignCustomer, newOrder } from '../../support/sales-helpers.ts';
import type { DemoCompany } from '../../../src/modules/demo/demo-company.ts';

/** The order.status_changed events the outbox holds for one order, oldest first. */
async function statusEvents(t: TestApp, companyId: string, orderId: string) {
  const rows = await t.c.database.db
    .selectFrom('webhook_events')
    .select(['type', 'payload'])
    .where('company_id', '=', companyId)
    .where('type', '=', 'order.status_changed')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows
    .map((r) => JSON.parse(r.payload).data as { orderId: string; status: string; previousStatus: string })
    .filter((d) => d.orderId === orderId)
    .map((d) => `${d.previousStatus}→${d.status}`);
}

/** Web orders in the hub: received → accepted → converted | cancelled, each change announced. */
describe('admin web orders', () => {
  let t: TestApp;
  let demo: DemoCompany;
  let other: DemoCompany;
  let staff: string;
  let support: string;

  before(async () => {
    t = await createTestApp();
    demo = await createTenant(t.c);
    other = await createTenant(t.c);
    staff = await tokenForRole(t.c, demo, 'staff');
    support = await tokenForRole(t.c, demo, 'support');
  });
  after(async () => {
    await t.close();
  });

  test('received → accepted → converted: a sale at the ordered prices, linked both ways, every change announced', async () => {
    const o = await newOrder(t.app, demo);
    assertProblem(await adminCall(t.app, staff, 'POST', `/orders/${o.id}/convert`), 409, 'order_not_open');
    const accepted = await adminCall(t.app, staff, 'POST', `/orders/${o.id}/accept`);
    assert.equal(accepted.statusCode, 200, accepted.body);
    assert.equal(accepted.json().data.status, 'accepted');
    assert.ok(accepted.json().data.acceptedAt);
    assertProblem(await adminCall(t.app, staff, 'POST', `/orders/${o.id}/accept`), 409, 'order_not_open');
    assertProblem(await adminCall(t.app, staff, 'POST', `/orders/${o.id}/convert`), 409, 'customer_required');
    const customerId = await assignCustomer(t.app, demo, 'orders', o.id);
    const res = await adminCall(t.app, staff, 'POST', `/orders/${o.id}/convert`);
    assert.equal(res.statusCode, 201, res.body);
    const sale = res.json().data;
    assert.equal(res.headers.location, `/api/v1/admin/sales/${sale.id}`);
    assert.deepEqual(sale.source, { type: 'order', id: o.id, number: o.number });
    assert.equal(sale.customer.id, customerId);
    assert.equal(sale.totals.withTax, o.totals.withTax);
    assert.equal(sale.note, 'Poziv prije dostave.');
    assert.equal(sale.lines[0].note, 'Sjajni');
    const after = (await adminCall(t.app, support, 'GET', `/orders/${o.id}`)).json().data;
    assert.equal(after.status, 'converted');
    assert.equal(after.saleId, sale.id);
    assertProblem(
      await adminCall(t.app, staff, 'POST', `/orders/${o.id}/cancel`, { reason: 'x' }),
      409,
      'order_not_open',
    );
    assertProblem(await adminCall(t.app, staff, 'POST', `/orders/${o.id}/convert`), 409, 'order_not_open');
    assert.deepEqual(await statusEvents(t, demo.companyId, o.id), ['received→accepted', 'accepted→converted']);
  });

  test('cancel from received or accepted, with a reason; then nothing more', async () => {
    const a = await newOrder(t.app, demo);
    const b = await newOrder(t.app, demo);
    await adminCall(t.app, staff, 'POST', `/orders/${b.id}/accept`);
    assertProblem(await adminCall(t.app, staff, 'POST', `/orders/${a.id}/cancel`, {}), 400, 'validation_failed');
    for (const o of [a, b]) {
      const res = await adminCall(t.app, staff, 'POST', `/orders/${o.id}/cancel`, { reason: 'Nema na zalihi.' });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().data.status, 'cancelled');
      assert.equal(res.json().data.cancellationReason, 'Nema na zalihi.');
      assertProblem(await adminCall(t.app, staff, 'POST', `/orders/${o.id}/accept`), 409, 'order_not_open');
      assertProblem(
        await adminCall(t.app, staff, 'POST', `/orders/${o.id}/cancel`, { reason: 'again' }),
        409,
        'order_not_open',
      );
    }
    assert.deepEqual(await statusEvents(t, demo.companyId, a.id), ['received→cancelled']);
    assert.deepEqual(await statusEvents(t, demo.companyId, b.id), ['received→accepted', 'accepted→cancelled']);
  });

  test('the list filters by status, location and q', async () => {
    const o = await newOrder(t.app, demo, { name: 'Zdenka Žužić', location: 1 });
    await adminCall(t.app, staff, 'POST', `/orders/${o.id}/accept`);
    const ids = async (query: string) =>
      (await adminCall(t.app, support, 'GET', `/orders?${query}`)).json().data.map((x: { id: string }) => x.id);
    assert.deepEqual(await ids('q=zdenka%20zu'), [o.id]);
    assert.deepEqual(await ids(`q=${o.number}`), [o.id]);
    assert.ok((await ids('status=accepted')).includes(o.id));
    assert.ok(!(await ids('status=received')).includes(o.id));
    assert.ok((await ids(`locationId=${demo.locations[1]!.id}`)).includes(o.id));
    assert.ok(!(await ids(`locationId=${demo.locations[0]!.id}`)).includes(o.id));
  });

  test('support reads but does not move orders', async () => {
    const o = await newOrder(t.app, demo);
    for (const action of ['accept', 'convert'])
      assertProblem(await adminCall(t.app, support, 'POST', `/orders/${o.id}/${action}`), 403, 'forbidden');
    assertProblem(await adminCall(t.app, support, 'POST', `/orders/${o.id}/cancel`, { reason: 'x' }), 403, 'forbidden');
  });

  test('two truly concurrent converts make one sale; Idempotency-Key replays it', async () => {
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const o = await newOrder(t.app, demo);
    await adminCall(t.app, staff, 'POST', `/orders/${o.id}/accept`);
    await assignCustomer(t.app, demo, 'orders', o.id);
    const convert = (headers: Record<string, string> = {}) =>
      fetch(`${address}/api/v1/admin/orders/${o.id}/convert`, {
        method: 'POST',
        headers: { authorization: `Bearer ${staff}`, ...headers },
        signal: AbortSignal.timeout(20_000),
      }).then(async (r) => ({
        status: r.status,
        replayed: r.headers.get('idempotent-replayed'),
        body: (await r.json()) as Record<string, any>,
      }));
    const results = await Promise.all([convert(), convert()]);
    assert.deepEqual(results.map((r) => r.status).sort(), [201, 409], JSON.stringify(results));
    assert.equal(results.find((r) => r.status === 409)!.body.code, 'order_not_open');
    assert.deepEqual(
      await statusEvents(t, demo.companyId, o.id),
      ['received→accepted', 'accepted→converted'],
      'the loser announced nothing',
    );

    const p = await newOrder(t.app, demo);
    await adminCall(t.app, staff, 'POST', `/orders/${p.id}/accept`);
    await assignCustomer(t.app, demo, 'orders', p.id);
    const key = { 'idempotency-key': `order-${p.id}` };
    const first = await adminCall(t.app, staff, 'POST', `/orders/${p.id}/convert`, undefined, key);
    const again = await adminCall(t.app, staff, 'POST', `/orders/${p.id}/convert`, undefined, key);
    assert.equal(first.statusCode, 201, first.body);
    assert.equal(again.statusCode, 201, again.body);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.json().data.id, first.json().data.id);
  });

  test("tenancy: another company's order is not found on every route", async () => {
    const o = await newOrder(t.app, other);
    for (const [method, url, body] of [
      ['GET', `/orders/${o.id}`],
      ['POST', `/orders/${o.id}/accept`],
      ['POST', `/orders/${o.id}/cancel`, { reason: 'x' }],
      ['POST', `/orders/${o.id}/convert`],
    ] as const) {
      assertProblem(await adminCall(t.app, demo.adminToken, method, url, body), 404, 'not_found');
    }
    assert.ok(
      !(await adminCall(t.app, demo.adminToken, 'GET', '/orders?limit=100'))
        .json()
        .data.some((x: { id: string }) => x.id === o.id),
    );
    assert.equal((await adminCall(t.app, other.adminToken, 'GET', `/orders/${o.id}`)).json().data.status, 'received');
  });
});
