// test-engines: both
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, createTenant, bearer } from '../support/test-app.ts';
import { startWebhookReceiver } from '../support/webhook-receiver.ts';
import { createQuote, eventually } from '../support/webhook-helpers.ts';

// Private targets are NOT allowed here, as in production. Only loopback is ever contacted.
test('without WEBHOOK_ALLOW_PRIVATE_TARGETS a loopback receiver is refused at creation and at connect time', async (t) => {
  const receiver = await startWebhookReceiver();
  const app = await createTestApp(
    { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false', WEBHOOK_RETRY_DELAYS_MS: '50' },
    { startWorkers: true },
  );
  t.after(async () => {
    await app.close();
    await receiver.close();
  });
  const demo = await createTenant(app.c);

  for (const url of [receiver.url, receiver.url.replace('127.0.0.1', 'localhost'), 'http://example.com/hook']) {
    const res = await app.app.inject({
      method: 'POST',
      url: '/api/v1/admin/webhooks',
      headers: bearer(demo.adminToken),
      payload: { kind: 'http', url },
    });
    assert.equal(res.statusCode, 400, url);
    assert.ok(res.json().details.url, url);
  }

  // A name that passed the URL check but resolves to loopback at send time must still be refused:
  // simulate it by storing the endpoint directly, as if DNS had changed after creation.
  const created = await app.c.endpoints.create(demo.companyId, {
    kind: 'http',
    url: 'https://hooks.example.com/portico',
  });
  await app.c.store.repos.webhooks.updateEndpoint(demo.companyId, created.id, { url: receiver.url });
  await createQuote(app, demo);
  const view = await eventually(async () => {
    const v = await app.c.endpoints.get(demo.companyId, created.id);
    return v.enabled ? null : v;
  });
  assert.match(view.disabledReason ?? '', /private|reserved/);
  assert.equal(receiver.requests.length, 0, 'no byte reached the loopback receiver');
  const [delivery] = await app.c.endpoints.deliveries(demo.companyId, created.id, 10);
  assert.equal(delivery!.status, 'failed');
  assert.equal(delivery!.attemptLog[0]!.statusCode, null);
});
