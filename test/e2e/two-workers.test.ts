// test-engines: both
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config/config.ts';
import { createContainer } from '../../src/container.ts';
import { createDemoCompany } from '../../src/modules/demo/demo-company.ts';
import { onPostgres, provisionDatabase } from '../support/test-app.ts';
import { startWebhookReceiver } from '../support/webhook-receiver.ts';
import { exited, startPortico } from '../support/processes.ts';

const EVENTS = 150;

// On PostgreSQL the claim is FOR UPDATE SKIP LOCKED; on SQLite one UPDATE under the write lock.
// Either way `portico worker` must stay up on its own and no delivery may be sent twice.
test(`two worker processes on one ${onPostgres() ? 'PostgreSQL' : 'SQLite'} database share the queue and never send the same delivery twice`, {
  timeout: 120_000,
}, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-workers-'));
  const database = await provisionDatabase(dir);
  // A receiver that takes a few milliseconds, so both workers have work in flight at once.
  const receiver = await startWebhookReceiver({
    respond: () => new Promise((r) => setTimeout(() => r({ status: 200 }), 20)),
  });
  const env = { DATABASE_URL: database.url, DATA_DIR: dir, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' };
  const c = await createContainer(loadConfig({ ...env, LOG_LEVEL: 'silent' }));
  t.after(async () => {
    await c.close();
    await receiver.close();
    await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const demo = await createDemoCompany(c);
  const endpoint = await c.endpoints.create(demo.companyId, { kind: 'http', url: receiver.url });
  const caller = { companyId: demo.companyId, locationId: demo.locations[0]!.id, apiKeyId: 'test' };
  const product = demo.products[0]!;

  // Both workers are up before the events arrive, so they compete for them.
  const workers = [
    startPortico(['worker'], { ...env, LOG_LEVEL: 'info' }),
    startPortico(['worker'], { ...env, LOG_LEVEL: 'info' }),
  ];
  t.after(async () => {
    for (const w of workers) {
      w.kill('SIGTERM');
      await exited(w);
    }
  });
  const until = Date.now() + 20_000;
  while (!workers.every((w) => w.output().includes('worker started'))) {
    assert.ok(
      Date.now() < until && workers.every((w) => w.exitCode === null),
      `workers did not stay up: ${workers.map((w) => w.output()).join('\n')}`,
    );
    await new Promise((r) => setTimeout(r, 50));
  }
  for (let i = 0; i < EVENTS; i++) {
    await c.quotations.create(caller, {
      includeDatasheets: false,
      customer: { name: `Kupac ${i}` },
      lines: [{ productId: product.id, unitId: product.units[0]!.id, quantity: 1 }],
    });
  }
  await receiver.waitFor(EVENTS, 60_000);
  await new Promise((r) => setTimeout(r, 500)); // room for any duplicate to show up

  const ids = receiver.requests.map((r) => r.headers['webhook-id']);
  assert.equal(receiver.requests.length, EVENTS, 'exactly one send per event');
  assert.equal(new Set(ids).size, EVENTS);
  const attempts = await c.database.db
    .selectFrom('webhook_attempts')
    .select(['delivery_id', 'worker_id'])
    .where('company_id', '=', demo.companyId)
    .where('endpoint_id', '=', endpoint.id)
    .execute();
  assert.equal(attempts.length, EVENTS);
  assert.equal(new Set(attempts.map((a) => a.delivery_id)).size, EVENTS, 'no delivery attempted twice');
  const perWorker = new Map<string, number>();
  for (const a of attempts) perWorker.set(a.worker_id, (perWorker.get(a.worker_id) ?? 0) + 1);
  // On SQLite there is no NOTIFY: whichever worker polls first drains the backlog, so sharing
  // is only asserted where workers are woken together.
  if (onPostgres()) assert.equal(perWorker.size, 2, `both workers took part: ${JSON.stringify([...perWorker])}`);
  t.diagnostic(`deliveries per worker: ${[...perWorker.values()].join(' / ')}`);
});
