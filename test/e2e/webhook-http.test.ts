// test-engines: both
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { createTestApp, createTenant, bearer } from '../support/test-app.ts';
import { startWebhookReceiver } from '../support/webhook-receiver.ts';
import { addHttpEndpoint, createQuote, eventually, newWhsec } from '../support/webhook-helpers.ts';

const FAST_RETRIES = { WEBHOOK_RETRY_DELAYS_MS: '50,50,50,50' };

test('quote.created arrives with exactly the spec body, the shared secret and a verifiable signature', async (t) => {
  const receiver = await startWebhookReceiver();
  const app = await createTestApp(FAST_RETRIES, { startWorkers: true });
  t.after(async () => {
    await app.close();
    await receiver.close();
  });
  const demo = await createTenant(app.c);
  const secret = newWhsec();
  const endpoint = await addHttpEndpoint(app, demo, { url: `${receiver.url}/hooks`, secret, description: 'ERP' });
  assert.equal(endpoint.secretHint?.includes(secret.slice(6, -4)), false, 'the secret is never returned');

  const quote = await createQuote(app, demo, 'Ana Kovač');
  const [req] = await receiver.waitFor(1, 10_000);
  assert.equal(req!.method, 'POST');
  assert.equal(req!.path, '/hooks');
  const body = JSON.parse(req!.body);
  assert.deepEqual(Object.keys(body).sort(), [
    'companyId',
    'data',
    'event',
    'id',
    'livemode',
    'locationId',
    'timestamp',
  ]);
  assert.equal(body.livemode, true);
  assert.equal(body.event, 'quote.created');
  assert.equal(body.companyId, demo.companyId);
  assert.equal(body.locationId, demo.locations[0]!.id);
  assert.match(body.id, /^evt_/);
  assert.match(body.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.deepEqual(body.data, {
    quotationId: quote.id,
    number: quote.number,
    customerName: 'Ana Kovač',
    totalWithTax: quote.totals.withTax,
    locationName: demo.locations[0]!.name,
    lineCount: 2,
  });
  assert.equal(req!.headers['content-type'], 'application/json');
  assert.match(req!.headers['user-agent']!, /Portico/);
  assert.equal(req!.headers['x-service-webhook-secret'], secret);
  assert.equal(req!.headers['webhook-id'], body.id);
  // The public Standard Webhooks library accepts our signature over the exact bytes sent.
  const verified = new Webhook(secret).verify(req!.rawBody.toString('utf8'), {
    'webhook-id': req!.headers['webhook-id']!,
    'webhook-timestamp': req!.headers['webhook-timestamp']!,
    'webhook-signature': req!.headers['webhook-signature']!,
  });
  assert.deepEqual(verified, body);
  assert.throws(() =>
    new Webhook(newWhsec()).verify(req!.body, {
      'webhook-id': req!.headers['webhook-id']!,
      'webhook-timestamp': req!.headers['webhook-timestamp']!,
      'webhook-signature': req!.headers['webhook-signature']!,
    }),
  );

  // Stored encrypted: the database row does not contain the secret.
  const row = await app.c.store.repos.webhooks.findEndpoint(demo.companyId, endpoint.id);
  assert.ok(
    row?.secret_sealed && !row.secret_sealed.includes(secret) && !JSON.stringify(row).includes(secret.slice(6)),
  );
  const listed = await app.app.inject({
    method: 'GET',
    url: '/api/v1/admin/webhooks',
    headers: bearer(demo.adminToken),
  });
  assert.ok(!listed.body.includes(secret.slice(6, 20)));
});

test('a plain (non-whsec) secret signs with its UTF-8 bytes; no secret means no secret header and no signature', async (t) => {
  const receiver = await startWebhookReceiver();
  const app = await createTestApp(FAST_RETRIES, { startWorkers: true });
  t.after(async () => {
    await app.close();
    await receiver.close();
  });
  const demo = await createTenant(app.c);
  await addHttpEndpoint(app, demo, { url: `${receiver.url}/signed`, secret: 'correct horse battery staple' });
  await addHttpEndpoint(app, demo, { url: `${receiver.url}/plain` });
  await createQuote(app, demo);
  const requests = await receiver.waitFor(2);
  const signed = requests.find((r) => r.path === '/signed')!;
  const plain = requests.find((r) => r.path === '/plain')!;
  const headers = {
    'webhook-id': signed.headers['webhook-id']!,
    'webhook-timestamp': signed.headers['webhook-timestamp']!,
    'webhook-signature': signed.headers['webhook-signature']!,
  };
  assert.ok(new Webhook(Buffer.from('correct horse battery staple').toString('base64')).verify(signed.body, headers));
  assert.equal(plain.headers['x-service-webhook-secret'], undefined);
  assert.equal(plain.headers['webhook-signature'], undefined);
  assert.equal(plain.headers['webhook-id'], signed.headers['webhook-id'], 'one event, one id, on every endpoint');
});

test('500s are retried with the same webhook-id, every attempt is logged, Retry-After is honoured', async (t) => {
  const receiver = await startWebhookReceiver({
    respond: (_req, n) =>
      n === 1
        ? { status: 500, body: 'boom' }
        : n === 2
          ? { status: 503, headers: { 'retry-after': '1' }, body: 'busy' }
          : { status: 204 },
  });
  const app = await createTestApp(FAST_RETRIES, { startWorkers: true });
  t.after(async () => {
    await app.close();
    await receiver.close();
  });
  const demo = await createTenant(app.c);
  const endpoint = await addHttpEndpoint(app, demo, { url: receiver.url });
  await createQuote(app, demo);
  const requests = await receiver.waitFor(3, 15_000);
  assert.equal(new Set(requests.map((r) => r.headers['webhook-id'])).size, 1);
  assert.equal(new Set(requests.map((r) => r.body)).size, 1, 'the same bytes every time');
  assert.ok(
    requests[2]!.receivedAt - requests[1]!.receivedAt >= 950,
    'waited for Retry-After: 1 s, not the 50 ms schedule',
  );

  const deliveries = await eventually(async () => {
    const res = await app.app.inject({
      method: 'GET',
      url: `/api/v1/admin/webhooks/${endpoint.id}/deliveries`,
      headers: bearer(demo.adminToken),
    });
    const data = res.json().data;
    return data[0]?.status === 'delivered' ? data : null;
  });
  assert.equal(deliveries.length, 1);
  assert.deepEqual(
    deliveries[0].attemptLog.map((a: { statusCode: number }) => a.statusCode),
    [500, 503, 204],
  );
  assert.deepEqual(
    deliveries[0].attemptLog.map((a: { success: boolean }) => a.success),
    [false, false, true],
  );
  assert.equal(deliveries[0].attemptLog[0].responseExcerpt, 'boom');
  const ep = await app.app.inject({
    method: 'GET',
    url: `/api/v1/admin/webhooks/${endpoint.id}`,
    headers: bearer(demo.adminToken),
  });
  assert.equal(ep.json().data.failingSince, null, 'a success clears the failing state');
});

test('410 Gone disables the endpoint and tells the admins; redelivery works once it is enabled again', async (t) => {
  let gone = true;
  const receiver = await startWebhookReceiver({ respond: () => (gone ? { status: 410 } : { status: 200 }) });
  const app = await createTestApp(FAST_RETRIES, { startWorkers: true });
  t.after(async () => {
    await app.close();
    await receiver.close();
  });
  const demo = await createTenant(app.c);
  const endpoint = await addHttpEndpoint(app, demo, { url: receiver.url });
  await createQuote(app, demo);
  await receiver.waitFor(1);
  const disabled = await eventually(async () => {
    const res = await app.app.inject({
      method: 'GET',
      url: `/api/v1/admin/webhooks/${endpoint.id}`,
      headers: bearer(demo.adminToken),
    });
    return res.json().data.enabled === false ? res.json().data : null;
  });
  assert.match(disabled.disabledReason, /410/);
  const notes = await app.app.inject({
    method: 'GET',
    url: '/api/v1/admin/notifications?unread=true',
    headers: bearer(demo.adminToken),
  });
  assert.ok(notes.json().data.some((n: { kind: string }) => n.kind === 'webhook.disabled'));
  // No more attempts while disabled, even for new events.
  await createQuote(app, demo);
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(receiver.requests.length, 1);

  gone = false;
  const deliveries = (
    await app.app.inject({
      method: 'GET',
      url: `/api/v1/admin/webhooks/${endpoint.id}/deliveries`,
      headers: bearer(demo.adminToken),
    })
  ).json().data;
  const failed = deliveries.find((d: { status: string }) => d.status === 'failed');
  const refused = await app.app.inject({
    method: 'POST',
    url: `/api/v1/admin/deliveries/${failed.id}/redeliver`,
    headers: bearer(demo.adminToken),
  });
  assert.equal(refused.statusCode, 409);
  await app.app.inject({
    method: 'PATCH',
    url: `/api/v1/admin/webhooks/${endpoint.id}`,
    headers: bearer(demo.adminToken),
    payload: { enabled: true },
  });
  const again = await app.app.inject({
    method: 'POST',
    url: `/api/v1/admin/deliveries/${failed.id}/redeliver`,
    headers: bearer(demo.adminToken),
  });
  assert.equal(again.statusCode, 202);
  const [, second] = await receiver.waitFor(2);
  assert.equal(second!.headers['webhook-id'], receiver.requests[0]!.headers['webhook-id']);
});

test('the ping test answers inline; a rejected quote fires no event; another company cannot see the endpoint', async (t) => {
  const receiver = await startWebhookReceiver({ respond: () => ({ status: 202, body: 'pong '.repeat(1000) }) });
  const app = await createTestApp(FAST_RETRIES, { startWorkers: true });
  t.after(async () => {
    await app.close();
    await receiver.close();
  });
  const demo = await createTenant(app.c);
  const other = await createTenant(app.c);
  const endpoint = await addHttpEndpoint(app, demo, { url: receiver.url, events: ['quote.created'] });

  const ping = await app.app.inject({
    method: 'POST',
    url: `/api/v1/admin/webhooks/${endpoint.id}/test`,
    headers: bearer(demo.adminToken),
  });
  assert.equal(ping.statusCode, 200);
  assert.equal(ping.json().data.ok, true);
  assert.equal(ping.json().data.statusCode, 202);
  assert.ok(Buffer.byteLength(ping.json().data.responseExcerpt) <= 2048);
  assert.equal(JSON.parse(receiver.requests[0]!.body).event, 'ping');

  const bad = await app.app.inject({
    method: 'POST',
    url: '/api/v1/public/quotes',
    headers: bearer(demo.locations[0]!.apiKey),
    payload: {
      format: 'json',
      customer: { name: 'X' },
      lines: [{ productId: 'prd_nope', unitId: 'unt_nope', quantity: 1 }],
    },
  });
  assert.equal(bad.statusCode, 400);
  const events = await app.c.database.db
    .selectFrom('webhook_events')
    .select('id')
    .where('company_id', '=', demo.companyId)
    .execute();
  assert.equal(events.length, 0, 'a rejected request writes no event');

  for (const [method, url] of [
    ['GET', `/api/v1/admin/webhooks/${endpoint.id}`],
    ['POST', `/api/v1/admin/webhooks/${endpoint.id}/test`],
    ['GET', `/api/v1/admin/webhooks/${endpoint.id}/deliveries`],
  ] as const) {
    const res = await app.app.inject({ method, url, headers: bearer(other.adminToken) });
    assert.equal(res.statusCode, 404, url);
  }
  const order = await app.app.inject({
    method: 'POST',
    url: '/api/v1/public/orders',
    headers: bearer(demo.locations[0]!.apiKey),
    payload: {
      customer: { name: 'Ivo', email: 'ivo@example.com', phone: '+385 91 000 0000' },
      lines: [{ productId: demo.products[0]!.id, unitId: demo.products[0]!.units[0]!.id, quantity: 1 }],
    },
  });
  assert.equal(order.statusCode, 201);
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(receiver.requests.length, 1, 'the endpoint subscribed to quote.created only');
});
