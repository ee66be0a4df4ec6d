import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, createTenant } from '../support/test-app.ts';
import { startWebhookReceiver, type ReceiverResponse } from '../support/webhook-receiver.ts';
import { addHttpEndpoint, createQuote, eventually } from '../support/webhook-helpers.ts';
import { PER_ENDPOINT_DEFAULT } from '../../src/modules/webhooks/dispatcher.ts';
import { EVENTS, enqueueEvent } from '../../src/modules/webhooks/index.ts';

/** More than a worker keeps in hand at once on either database (128 on SQLite, 256 on PostgreSQL). */
const BACKLOG = 300;
const QUOTES = 20;

test('a slow receiver with a backlog larger than the window gets at most 16 requests at once, while a fast receiver\'s events are delivered', async (t) => {
  let open = 0;
  let mostOpen = 0;
  let held: Array<() => void> | null = [];
  const slow = await startWebhookReceiver({
    respond: () => {
      mostOpen = Math.max(mostOpen, ++open);
      const answer = () => {
        open--;
        return { status: 200 } satisfies ReceiverResponse;
      };
      return held ? new Promise((resolve) => held!.push(() => resolve(answer()))) : answer();
    },
  });
  const fast = await startWebhookReceiver();
  const app = await createTestApp({}, { startWorkers: true });
  t.after(async () => {
    for (const release of held ?? []) release();
    await app.close();
    await slow.close();
    await fast.close();
  });
  const demo = await createTenant(app.c);
  await addHttpEndpoint(app, demo, { url: `${slow.url}/slow` });

  // The slow receiver's backlog, all due before any of the fast receiver's events: committed
  // through the outbox before the fast endpoint exists (a delivery does not know how its event was made).
  const now = app.c.clock.now().toISOString();
  await app.c.store.transaction(async (repos) => {
    for (let i = 0; i < BACKLOG; i++) {
      await enqueueEvent(repos, { companyId: demo.companyId, locationId: demo.locations[0]!.id, type: 'quote.created', data: { ...EVENTS['quote.created'].example, number: `Q-BACKLOG-${i}` } }, { now, newId: app.c.newId });
    }
  });
  app.c.dispatcher.wake();
  await slow.waitFor(PER_ENDPOINT_DEFAULT, 20_000);

  await addHttpEndpoint(app, demo, { url: `${fast.url}/fast` });
  for (let i = 0; i < QUOTES; i++) await createQuote(app, demo, `Kupac ${i}`);
  await fast.waitFor(QUOTES, 20_000);
  assert.equal(slow.requests.length, PER_ENDPOINT_DEFAULT, 'the slow receiver holds 16 requests; its backlog waits its turn');
  assert.equal(open, PER_ENDPOINT_DEFAULT);

  const waiting = held!;
  held = null;
  for (const release of waiting) release();
  await slow.waitFor(BACKLOG + QUOTES, 30_000);
  assert.equal(mostOpen, PER_ENDPOINT_DEFAULT, 'never more than 16 at once');
  assert.equal(new Set(slow.requests.map((r) => r.headers['webhook-id'])).size, BACKLOG + QUOTES, 'each event once');
  await eventually(async () => {
    const n = await app.c.database.db.selectFrom('webhook_deliveries').select('status').where('company_id', '=', demo.companyId).where('status', '=', 'delivered').execute();
    return n.length === BACKLOG + 2 * QUOTES;
  });
});
