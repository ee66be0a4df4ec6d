// test-engines: both
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTenant, createTestApp } from '../support/test-app.ts';
import { fiscalDocument, fiscalRig, until, uploadCertificate } from '../support/fiscal-helpers.ts';
import { exited } from '../support/processes.ts';

const CHILD = path.resolve(import.meta.dirname, '../support/fiscal-issue-child.ts');

/**
 * kill -9 between issue and JIR loses nothing: a process issues an invoice (the outbox row
 * commits with it) and is killed while CIS keeps it waiting; the worker of another process
 * finds the row and fiscalises it as a late delivery.
 */
test('kill -9 after issue, before the JIR: the worker of another process fiscalises the invoice', {
  timeout: 60_000,
}, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-fiscal-crash-'));
  const rig = await fiscalRig(dir);
  const env = { ...rig.env, FISCAL_WAIT_MS: '2000', FISCAL_RETRY_DELAYS_MS: '100' };
  const app = await createTestApp(env);
  t.after(async () => {
    await app.close();
    await rig.cis.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const d = await createTenant(app.c);
  await uploadCertificate(app.app, d.adminToken, rig.ca);
  const doc = fiscalDocument(d.companyId);

  rig.cis.mode = { kind: 'slow', ms: 30_000 }; // CIS takes the request and never answers in time
  const child = spawn(process.execPath, [CHILD], {
    env: {
      ...process.env,
      ...env,
      DATABASE_URL: app.c.config.databaseUrl,
      DATA_DIR: app.dir, // the same secrets key: the certificate opens
      FISCAL_DOCUMENT: JSON.stringify(doc),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (b: Buffer) => (output += b.toString()));
  child.stderr.on('data', (b: Buffer) => (output += b.toString()));
  await until('the child to issue', async () => output.includes('issued'), 30_000);
  await new Promise((r) => setTimeout(r, 200)); // its bounded send is in flight
  child.kill('SIGKILL');
  await exited(child);
  assert.doesNotMatch(output, /delivered/);

  const row = (await app.c.fiscaliser.statusOf(d.companyId, [doc.documentId])).get(doc.documentId);
  assert.equal(row?.status, 'pending', 'the outbox row committed with the invoice');

  rig.cis.mode = { kind: 'ok' };
  await app.c.startWorkers();
  const done = await until('the JIR', async () => {
    const s = (await app.c.fiscaliser.statusOf(d.companyId, [doc.documentId])).get(doc.documentId);
    return s?.status === 'fiscalised' ? s : null;
  });
  assert.match(done.receipt!, /^[0-9a-f-]{36}$/);
  const answered = rig.cis.received.filter((r) => r.zki === row!.protectionCode && /<tns:Jir>/.test(r.answer));
  assert.ok(answered.length >= 1);
  assert.ok(
    answered.every((r) => r.lateDelivery),
    'sent again as a late delivery',
  );
});
