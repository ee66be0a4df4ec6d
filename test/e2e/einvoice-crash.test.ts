// test-engines: both
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTenant, createTestApp } from '../support/test-app.ts';
import { until } from '../support/fiscal-helpers.ts';
import { exited } from '../support/processes.ts';
import { adminCall, assignCustomer, newQuotation } from '../support/sales-helpers.ts';
import { exchangeSettings, startFakeEracun } from '../support/fake-eracun.ts';

const CHILD = path.resolve(import.meta.dirname, '../support/einvoice-issue-child.ts');

/**
 * kill -9 between issue and send loses nothing and sends nothing twice (issue 33): a process
 * issues a B2B invoice (the send's outbox row commits with it) and is killed while the
 * intermediary is still taking the document; the worker of another process takes the call up
 * once its lease lapses, finds the document already at the intermediary, and does not send it
 * again: the exchange holds one document for the invoice.
 */
test('kill -9 after issue, mid-send: another process finishes it, the exchange sees one document', {
  timeout: 90_000,
}, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-einvoice-crash-'));
  const fake = await startFakeEracun({ dir });
  const env = {
    EINVOICE_EXCHANGE_CA: fake.caFile,
    EINVOICE_POLL_SECONDS: '1',
    EINVOICE_RETRY_DELAYS_MS: '200',
    EINVOICE_TIMEOUT_SECONDS: '2',
  };
  const app = await createTestApp(env);
  t.after(async () => {
    await app.close();
    await fake.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const d = await createTenant(app.c);
  const put = await adminCall(app.app, d.adminToken, 'PUT', '/einvoice/exchange', exchangeSettings(fake));
  assert.equal(put.statusCode, 200, put.body);
  const q = await newQuotation(app.app, d);
  await assignCustomer(app.app, d, 'quotations', q.id);

  fake.mode = { kind: 'slow', ms: 1_500 }; // takes the document, answers too late for the child
  const child = spawn(process.execPath, [CHILD], {
    env: {
      ...process.env,
      ...env,
      DATABASE_URL: app.c.config.databaseUrl,
      DATA_DIR: app.dir, // the same secrets key: the exchange password opens
      COMPANY_ID: d.companyId,
      USER_ID: d.users[0]!.id,
      QUOTATION_ID: q.id,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (b: Buffer) => (output += b.toString()));
  child.stderr.on('data', (b: Buffer) => (output += b.toString()));
  await until('the child to issue', async () => output.includes('issued'), 30_000);
  await until('its send in flight', async () => fake.calls.some((c) => c.path === '/apis/v2/send'), 30_000);
  child.kill('SIGKILL');
  await exited(child);
  const saleId = /issued (\S+)/.exec(output)![1]!;

  const sale = async () => (await adminCall(app.app, d.adminToken, 'GET', `/sales/${saleId}`)).json().data;
  const issued = await sale();
  assert.equal(issued.exchange.status, 'queued', 'the send committed with the invoice');
  assert.equal(issued.fiscal.status, 'not_required');
  // The intermediary finishes taking it after the sender is gone.
  await until('the document at the intermediary', async () => fake.sent.length === 1);

  fake.mode = { kind: 'ok' };
  await app.c.startWorkers();
  const view = await until(
    'sent',
    async () => {
      const v = await sale();
      return v.exchange.status === 'sent' ? v : null;
    },
    30_000,
  );
  assert.equal(view.exchange.documentId, String(fake.sent[0]!.electronicId));
  assert.equal(fake.sent.length, 1, 'one document per invoice');
  assert.equal(fake.calls.filter((c) => c.path === '/apis/v2/send').length, 1, 'not sent again: looked for first');
});
