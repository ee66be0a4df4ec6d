// test-engines: both
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, createTenant, bearer } from '../../support/test-app.ts';
import { startWebhookReceiver } from '../../support/webhook-receiver.ts';
import { addHttpEndpoint } from '../../support/webhook-helpers.ts';
import { yearIn } from '../../../src/modules/documents/index.ts';

const customer = {
  name: 'Ivo Ivić',
  email: 'ivo@example.com',
  phone: '+385 91 555 1234',
  address: 'Ulica Šime Ljubića 3, 21000 Split',
};

test('a web order is priced, numbered per location, stored as received and announced with order.created', async (t) => {
  const receiver = await startWebhookReceiver();
  const app = await createTestApp({ WEBHOOK_RETRY_DELAYS_MS: '50' }, { startWorkers: true });
  t.after(async () => {
    await app.close();
    await receiver.close();
  });
  const demo = await createTenant(app.c);
  await addHttpEndpoint(app, demo, { url: receiver.url, events: ['order.created'] });
  const [paint, screws] = [demo.products[0]!, demo.products[4]!];

  const res = await app.app.inject({
    method: 'POST',
    url: '/api/v1/public/orders',
    headers: bearer(demo.locations[1]!.apiKey),
    payload: {
      customer,
      externalReference: 'WEB-10023',
      note: 'Dostava poslije 16 h',
      lines: [
        { productId: paint.id, unitId: paint.units[0]!.id, quantity: 1.5, note: 'Colour: RAL 9010 - Reinweiß' },
        { productId: screws.id, unitId: screws.units[0]!.id, quantity: 3, lineNote: 'legacy note' },
      ],
    },
  });
  assert.equal(res.statusCode, 201, res.body);
  const order = res.json().data;
  assert.equal(res.headers.location, `/api/v1/public/orders/${order.id}`);
  assert.match(order.id, /^ord_/);
  assert.match(order.number, new RegExp(`^O-ST1-${yearIn(new Date(), 'Europe/Zagreb')}-00001$`));
  assert.equal(order.status, 'received');
  assert.equal(order.locationId, demo.locations[1]!.id);
  assert.deepEqual(order.customer, customer);
  assert.equal(order.externalReference, 'WEB-10023');
  // 12.40 × 1.5 = 18.60 (+25 % = 4.65); 6.49 × 3 = 19.47 (+25 % = 4.8675 → 4.87)
  assert.deepEqual(
    order.lines.map((l: { net: string; tax: string; total: string; note: string }) => [l.net, l.tax, l.total, l.note]),
    [
      ['18.60', '4.65', '23.25', 'Colour: RAL 9010 - Reinweiß'],
      ['19.47', '4.87', '24.34', 'legacy note'],
    ],
  );
  assert.deepEqual(order.totals, {
    net: '38.07',
    tax: '9.52',
    withTax: '47.59',
    taxes: [{ rate: '25', base: '38.07', tax: '9.52' }],
  });

  const [hook] = await receiver.waitFor(1);
  const body = JSON.parse(hook!.body);
  assert.equal(body.event, 'order.created');
  assert.equal(body.locationId, demo.locations[1]!.id);
  assert.deepEqual(body.data, {
    orderId: order.id,
    number: order.number,
    customerName: customer.name,
    totalWithTax: '47.59',
    locationName: demo.locations[1]!.name,
    lineCount: 2,
    externalReference: 'WEB-10023',
  });

  const admin = await app.app.inject({
    method: 'GET',
    url: `/api/v1/admin/orders/${order.id}`,
    headers: bearer(demo.adminToken),
  });
  // The hub sees the order as the website does, plus the directory customer (none assigned yet) and its state's links.
  assert.deepEqual(admin.json().data, {
    ...order,
    directoryCustomer: null,
    acceptedAt: null,
    saleId: null,
    cancelledAt: null,
    cancellationReason: null,
  });
  const list = await app.app.inject({ method: 'GET', url: '/api/v1/admin/orders', headers: bearer(demo.adminToken) });
  assert.deepEqual(
    list.json().data.map((o: { id: string }) => o.id),
    [order.id],
  );
});

test('orders share the quote rules: required customer fields, scope, Idempotency-Key; other companies see 404', async (t) => {
  const app = await createTestApp();
  t.after(() => app.close());
  const demo = await createTenant(app.c);
  const other = await createTenant(app.c);
  const p = demo.products[1]!;
  const line = { productId: p.id, unitId: p.units[1]!.id, quantity: 2 };

  const bad = await app.app.inject({
    method: 'POST',
    url: '/api/v1/public/orders',
    headers: bearer(demo.locations[0]!.apiKey),
    payload: {
      customer: { name: 'X' },
      lines: [
        line,
        { ...line, quantity: 0 },
        { productId: other.products[0]!.id, unitId: other.products[0]!.units[0]!.id, quantity: 1 },
      ],
    },
  });
  assert.equal(bad.statusCode, 400);
  assert.deepEqual(Object.keys(bad.json().details).sort(), ['customer.email', 'customer.phone', 'lines[1].quantity']);

  const foreign = await app.app.inject({
    method: 'POST',
    url: '/api/v1/public/orders',
    headers: bearer(demo.locations[0]!.apiKey),
    payload: {
      customer,
      lines: [line, { productId: other.products[0]!.id, unitId: other.products[0]!.units[0]!.id, quantity: 1 }],
    },
  });
  assert.equal(foreign.statusCode, 400);
  assert.deepEqual(foreign.json().details, { 'lines[1].productId': ['No such product.'] });

  const headers = { ...bearer(demo.locations[0]!.apiKey), 'idempotency-key': 'order-42' };
  const first = await app.app.inject({
    method: 'POST',
    url: '/api/v1/public/orders',
    headers,
    payload: { customer, lines: [line] },
  });
  const replay = await app.app.inject({
    method: 'POST',
    url: '/api/v1/public/orders',
    headers,
    payload: { customer, lines: [line] },
  });
  assert.equal(first.statusCode, 201);
  assert.equal(replay.statusCode, 201);
  assert.equal(replay.headers['idempotent-replayed'], 'true');
  assert.equal(replay.json().data.id, first.json().data.id);
  assert.match(first.json().data.number, /-00001$/, 'the rejected orders consumed no number');
  const reused = await app.app.inject({
    method: 'POST',
    url: '/api/v1/public/orders',
    headers,
    payload: { customer, lines: [{ ...line, quantity: 3 }] },
  });
  assert.equal(reused.statusCode, 422);

  const id = first.json().data.id;
  assert.equal(
    (await app.app.inject({ method: 'GET', url: `/api/v1/admin/orders/${id}`, headers: bearer(other.adminToken) }))
      .statusCode,
    404,
  );
  assert.equal(
    (
      await app.app.inject({
        method: 'GET',
        url: `/api/v1/public/orders/${id}`,
        headers: bearer(other.locations[0]!.apiKey),
      })
    ).statusCode,
    404,
  );
  const events = await app.c.database.db
    .selectFrom('webhook_events')
    .select('type')
    .where('company_id', '=', demo.companyId)
    .execute();
  assert.deepEqual(
    events.map((e) => e.type),
    ['order.created'],
    'one event: none for rejected requests or replays',
  );
});
