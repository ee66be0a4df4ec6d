// test-engines: both
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config/config.ts';
import { createContainer } from '../../src/container.ts';
import { createDemoCompany } from '../../src/modules/demo/demo-company.ts';
import { provisionDatabase } from '../support/test-app.ts';
import { startWebhookReceiver } from '../support/webhook-receiver.ts';
import { exited, freePort, startPortico, waitForHttp } from '../support/processes.ts';

const TOTAL = 500;
const KILL_AFTER = 200;
const CONCURRENCY = 8;

/**
 * The outbox promise under the worst stop there is: the server is killed with SIGKILL while
 * quotes are being created and delivered. Every quote that got a 201 must still reach the
 * receiver after a restart — each event at least once, under its own webhook-id.
 */
test('kill -9 during 500 quotes: every acknowledged quotation is delivered after restart', {
  timeout: 180_000,
}, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-crash-'));
  const database = await provisionDatabase(dir);
  const receiver = await startWebhookReceiver();
  const env = {
    DATABASE_URL: database.url,
    DATA_DIR: dir,
    HOST: '127.0.0.1',
    PORT: String(await freePort()),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_TIMEOUT_MS: '2000',
    WEBHOOK_RETRY_DELAYS_MS: '100,200,400,800,1000,1000',
    RATE_LIMIT_PER_MINUTE: '100000',
  };
  const c = await createContainer(loadConfig({ ...env, LOG_LEVEL: 'silent' }));
  const demo = await createDemoCompany(c);
  await c.endpoints.create(demo.companyId, { kind: 'http', url: `${receiver.url}/crash` });
  await c.close();
  t.after(async () => {
    await receiver.close();
    await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const base = `http://127.0.0.1:${env.PORT}`;
  const product = demo.products[0]!;
  const body = JSON.stringify({
    format: 'json',
    customer: { name: 'Crash Test' },
    lines: [{ productId: product.id, unitId: product.units[0]!.id, quantity: 1 }],
  });
  const acknowledged = new Set<string>();
  let sent = 0;

  async function load(until: () => boolean): Promise<void> {
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (sent < TOTAL && !until()) {
          sent++;
          try {
            const res = await fetch(`${base}/api/v1/public/quotes`, {
              method: 'POST',
              body,
              headers: { 'content-type': 'application/json', authorization: `Bearer ${demo.locations[0]!.apiKey}` },
            });
            if (res.status === 201) acknowledged.add(((await res.json()) as { data: { id: string } }).data.id);
            else await res.arrayBuffer();
          } catch {
            // the server died under this request: never acknowledged, so nothing is owed
          }
        }
      }),
    );
  }

  let server = startPortico(['serve'], env);
  t.after(async () => {
    server.kill('SIGKILL');
    await exited(server);
  });
  await waitForHttp(`${base}/healthz`);
  let killed = false;
  await Promise.all([
    load(() => killed),
    (async () => {
      while (acknowledged.size < KILL_AFTER) await new Promise((r) => setTimeout(r, 2));
      server.kill('SIGKILL');
      killed = true;
    })(),
  ]);
  await exited(server);
  const atKill = acknowledged.size;
  assert.ok(atKill >= KILL_AFTER);

  server = startPortico(['serve'], env);
  await waitForHttp(`${base}/healthz`);
  await load(() => false);
  assert.ok(acknowledged.size > atKill, 'the restarted server takes new quotes');

  const deadline = Date.now() + 90_000;
  let delivered = new Set<string>();
  while (Date.now() < deadline) {
    delivered = new Set(
      receiver.requests.map((r) => (JSON.parse(r.body) as { data: { quotationId: string } }).data.quotationId),
    );
    if ([...acknowledged].every((id) => delivered.has(id))) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const missing = [...acknowledged].filter((id) => !delivered.has(id));
  assert.deepEqual(
    missing,
    [],
    `${missing.length} acknowledged quotations never reached the receiver\n${server.output()}`,
  );

  // At least once, never mixed up: one webhook-id per quotation, the same id on any resend.
  const idByQuote = new Map<string, string>();
  for (const r of receiver.requests) {
    const quotationId = (JSON.parse(r.body) as { data: { quotationId: string } }).data.quotationId;
    const previous = idByQuote.get(quotationId);
    assert.ok(previous === undefined || previous === r.headers['webhook-id'], 'a resend keeps its webhook-id');
    idByQuote.set(quotationId, r.headers['webhook-id']!);
  }
  assert.equal(new Set(idByQuote.values()).size, idByQuote.size, 'distinct webhook-ids per quotation');
  t.diagnostic(
    `sent ${sent}, acknowledged ${acknowledged.size} (${atKill} before the kill), received ${receiver.requests.length} requests for ${idByQuote.size} events`,
  );
});
