// test-engines: both
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, createTenant } from '../support/test-app.ts';
import { startWebhookReceiver, type ReceiverResponse } from '../support/webhook-receiver.ts';
import { addHttpEndpoint, createQuote, eventually } from '../support/webhook-helpers.ts';
import { PER_ENDPOINT_DEFAULT } from '../../src/modules/webhooks/endpoint-slots.ts';

const QUOTES = 30;

test("a slow receiver with a backlog gets at most 16 requests at once, while another endpoint's deliveries flow", async (t) => {
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
  await addHttpEndpoint(app, demo, { url: `${fast.url}/fast` });

  for (let i = 0; i < QUOTES; i++) await createQuote(app, demo, `Kupac ${i}`);
  await fast.waitFor(QUOTES, 20_000);
  assert.equal(
    slow.requests.length,
    PER_ENDPOINT_DEFAULT,
    'the slow receiver holds 16 requests; its other deliveries wait their turn',
  );
  assert.equal(open, PER_ENDPOINT_DEFAULT);

  const waiting = held!;
  held = null;
  for (const release of waiting) release();
  await slow.waitFor(QUOTES, 20_000);
  assert.equal(mostOpen, PER_ENDPOINT_DEFAULT, 'never more than 16 at once');
  assert.equal(new Set(slow.requests.map((r) => r.headers['webhook-id'])).size, QUOTES, 'each event once');
  await eventually(async () => {
    const n = await app.c.database.db
      .selectFrom('webhook_deliveries')
      .select('status')
      .where('company_id', '=', demo.companyId)
      .where('status', '=', 'delivered')
      .execute();
    return n.length === 2 * QUOTES;
  });
});
