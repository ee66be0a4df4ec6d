// test-engines: both
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, createTenant } from '../support/test-app.ts';
import { startWebhookReceiver } from '../support/webhook-receiver.ts';
import { createQuote } from '../support/webhook-helpers.ts';
import type { Clock } from '../../src/lib/clock.ts';

const DAY = 86_400_000;

test('an endpoint that keeps failing for 5 days is disabled and its admins are notified', async (t) => {
  let now = Date.parse('2026-03-02T08:00:00.000Z');
  const clock: Clock = { now: () => new Date(now) };
  const receiver = await startWebhookReceiver({ respond: () => ({ status: 500 }) });
  // The dispatcher is driven by hand (runOnce) so the test decides when time passes.
  const app = await createTestApp({ WEBHOOK_RETRY_DELAYS_MS: '0,0,0,0,0,0,0,0' }, { clock });
  t.after(async () => {
    await app.close();
    await receiver.close();
  });
  const demo = await createTenant(app.c);
  const endpoint = await app.c.endpoints.create(demo.companyId, { kind: 'http', url: receiver.url });

  await createQuote(app, demo);
  await app.c.dispatcher.runOnce();
  const failing = await app.c.endpoints.get(demo.companyId, endpoint.id);
  assert.equal(failing.enabled, true);
  assert.equal(failing.failingSince, '2026-03-02T08:00:00.000Z');

  now += 4 * DAY;
  await app.c.dispatcher.runOnce();
  assert.equal((await app.c.endpoints.get(demo.companyId, endpoint.id)).enabled, true, 'four days is not yet five');

  now += DAY + 60_000;
  await app.c.dispatcher.runOnce();
  const disabled = await app.c.endpoints.get(demo.companyId, endpoint.id);
  assert.equal(disabled.enabled, false);
  assert.match(disabled.disabledReason ?? '', /5 days/);
  assert.equal(receiver.requests.length, 3);
  const admin = demo.users.find((u) => u.role === 'admin')!;
  const support = demo.users.find((u) => u.role === 'support')!;
  const notes = await app.c.notifications.listForUser(demo.companyId, admin.id, { unreadOnly: true, limit: 10 });
  assert.deepEqual(
    notes.map((n) => n.kind),
    ['webhook.disabled'],
  );
  assert.equal(
    (await app.c.notifications.listForUser(demo.companyId, support.id, { unreadOnly: true, limit: 10 })).length,
    0,
  );

  const [delivery] = await app.c.endpoints.deliveries(demo.companyId, endpoint.id, 5);
  assert.equal(delivery!.status, 'cancelled', 'nothing more is sent to a disabled endpoint');
  await app.c.dispatcher.runOnce();
  assert.equal(receiver.requests.length, 3);
});
