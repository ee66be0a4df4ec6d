// test-engines: sqlite
// (Backup and restore are for SQLite; PostgreSQL uses pg_dump, docs/operating.md. The refusal of a
// PostgreSQL URL below needs no PostgreSQL server.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { DatabaseSync } from 'node:sqlite';
import { loadConfig } from '../../src/config/config.ts';
import { createContainer } from '../../src/container.ts';
import { createDemoCompany } from '../../src/modules/demo/demo-company.ts';
import { buildSampleDatasheet } from '../../src/modules/printing/index.ts';
import { exited, freePort, startPortico, waitForHttp } from '../support/processes.ts';

const run = promisify(execFile);
const CLI = path.resolve(import.meta.dirname, '../../src/main/cli.ts');
const CLIENTS = 4;

function portico(args: string[], env: Record<string, string>) {
  return run(process.execPath, [CLI, ...args], { env: { ...process.env, LOG_LEVEL: 'silent', ...env } }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
}

function idsIn(file: string, table: string): Set<string> {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return new Set((db.prepare(`select id from ${table}`).all() as Array<{ id: string }>).map((r) => r.id));
  } finally {
    db.close();
  }
}

test('portico backup under write load, restore into a fresh directory: every acknowledged record and every datasheet is there', {
  timeout: 120_000,
}, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-backup-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const env = {
    DATABASE_URL: `sqlite:${path.join(dir, 'live', 'portico.sqlite')}`,
    DATA_DIR: path.join(dir, 'live'),
    HOST: '127.0.0.1',
    PORT: String(await freePort()),
    RATE_LIMIT_PER_MINUTE: '1000000',
  };
  const c = await createContainer(loadConfig({ ...env, LOG_LEVEL: 'silent' }));
  const demo = await createDemoCompany(c);
  // Every product gets a datasheet of its own, so each restored file can be told apart.
  const sheets = new Map<string, Buffer>();
  for (const product of demo.products) {
    const pdf = await buildSampleDatasheet(`Sheet ${product.id}`, ['Backed up.']);
    await c.catalogAdmin.setDatasheet(demo.companyId, product.id, { bytes: pdf }, c.config.datasheetMaxBytes);
    sheets.set(product.id, pdf);
  }
  await c.close();

  const server = startPortico(['serve'], env);
  t.after(async () => {
    server.kill('SIGKILL');
    await exited(server);
  });
  const base = `http://127.0.0.1:${env.PORT}`;
  await waitForHttp(`${base}/readyz`);

  const product = demo.products[0]!;
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${demo.locations[0]!.apiKey}` };
  const acknowledged: Array<{ table: 'quotations' | 'inquiries'; id: string; at: number }> = [];
  let stopped = false;
  const load = Promise.all(
    Array.from({ length: CLIENTS }, async (_, i) => {
      for (let n = 0; !stopped; n++) {
        const quote = (n + i) % 2 === 0;
        const res = await fetch(`${base}/api/v1/public/${quote ? 'quotes' : 'reach-out'}`, {
          method: 'POST',
          headers,
          body: JSON.stringify(
            quote
              ? {
                  format: 'json',
                  customer: { name: 'Backup' },
                  lines: [{ productId: product.id, unitId: product.units[0]!.id, quantity: 1 }],
                }
              : {
                  topic: 'Backup',
                  subject: 'Written while backing up',
                  message: 'Hello.',
                  email: 'b@example.com',
                  phone: '+385 91 000 0000',
                },
          ),
        });
        if (res.status === 201) {
          const { data } = (await res.json()) as { data: { id: string } };
          acknowledged.push({ table: quote ? 'quotations' : 'inquiries', id: data.id, at: performance.now() });
        } else assert.fail(`${res.status} ${await res.text()}`);
      }
    }),
  );
  t.after(async () => {
    stopped = true;
    await load.catch(() => {});
  });
  // Enough acknowledged writes to look for, however slow the machine (a loaded CI runner).
  for (const until = Date.now() + 60_000; acknowledged.length < 30 && Date.now() < until; )
    await new Promise((r) => setTimeout(r, 50));
  const started = performance.now();
  const backupDir = path.join(dir, 'backup');
  const made = await portico(['backup', backupDir], env);
  const finished = performance.now();
  await new Promise((r) => setTimeout(r, 300));
  stopped = true;
  await load;
  assert.equal(made.code, 0, made.stderr);
  assert.equal(server.exitCode, null, 'the server ran throughout');

  // Restored into a fresh directory, as on a new machine.
  const fresh = {
    DATABASE_URL: `sqlite:${path.join(dir, 'fresh', 'portico.sqlite')}`,
    DATA_DIR: path.join(dir, 'fresh', 'data'),
  };
  const restored = await portico(['restore', backupDir], fresh);
  assert.equal(restored.code, 0, restored.stderr);
  const again = await portico(['restore', backupDir], fresh);
  assert.equal(again.code, 1, 'a non-empty target is refused');
  assert.match(again.stderr, /not empty.*--force/);
  assert.equal((await portico(['restore', backupDir, '--force'], fresh)).code, 0, 'unless told');

  const file = path.join(dir, 'fresh', 'portico.sqlite');
  const before = acknowledged.filter((a) => a.at < started);
  const during = acknowledged.filter((a) => a.at >= started && a.at <= finished);
  const inBackup = { quotations: idsIn(file, 'quotations'), inquiries: idsIn(file, 'inquiries') };
  const missing = before.filter((a) => !inBackup[a.table].has(a.id));
  t.diagnostic(
    `acknowledged before the backup began: ${before.length}, while it ran: ${during.length} (${during.filter((a) => inBackup[a.table].has(a.id)).length} of those in it), after: ${acknowledged.length - before.length - during.length}; backup took ${Math.round(finished - started)} ms`,
  );
  assert.ok(before.length >= 30, `load ran: ${before.length}`);
  assert.deepEqual(missing, [], 'every record acknowledged before the backup began is in it');

  // Every datasheet, byte for byte, and the secrets key, through the restored instance itself.
  const restoredApp = await createContainer(loadConfig({ ...fresh, LOG_LEVEL: 'silent' }), { migrate: false });
  try {
    for (const [productId, bytes] of sheets) {
      const sheet = await restoredApp.catalogAdmin.getDatasheet(demo.companyId, productId);
      assert.ok(sheet.bytes.equals(bytes), `datasheet of ${productId}`);
    }
  } finally {
    await restoredApp.close();
  }
  assert.equal(
    fs.readFileSync(path.join(dir, 'fresh', 'data', 'secrets.key'), 'utf8'),
    fs.readFileSync(path.join(dir, 'live', 'secrets.key'), 'utf8'),
  );
});

test('portico backup refuses a non-empty target and a PostgreSQL database, saying what to do', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-backup-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.writeFileSync(path.join(dir, 'something'), 'x');
  const sqlite = await portico(['backup', dir], {
    DATABASE_URL: `sqlite:${path.join(dir, 'db.sqlite')}`,
    DATA_DIR: dir,
  });
  assert.equal(sqlite.code, 1);
  assert.match(sqlite.stderr, /is not empty; back up into a new directory/);
  const pgRefused = await portico(['backup', path.join(dir, 'b')], {
    DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
    DATA_DIR: dir,
  });
  assert.equal(pgRefused.code, 1);
  assert.match(pgRefused.stderr, /pg_dump/);
});
