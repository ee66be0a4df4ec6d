/**
 * German counter sale with the cloud TSE ÷ without (issue 35).
 *
 *   node bench/tse.bench.ts
 *
 * One process on SQLite (a fresh temp database), the fake cloud TSE (fiskaly SIGN DE v2 API,
 * ECDSA brainpoolP384r1 signatures) in a child process on 127.0.0.1 over HTTPS, answering at
 * once. Measured in the same run, interleaved: a counter sale through the admin API (Fastify
 * inject) for a German company whose device has a TSE, and for a German company without one;
 * and the floor: the two HTTPS round trips a signed sale needs (revision 1 ACTIVE, revision 2
 * FINISHED) made with the same client directly. Prints p50/p95 and the ratio.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { loadConfig } from '../src/config/config.ts';
import { createContainer } from '../src/container.ts';
import { buildApp } from '../src/http/build-app.ts';
import { createTseClient } from '../src/modules/fiscal/index.ts';
import { serverCertificate, testCa } from '../test/support/fiscal-certs.ts';
import { adminCall } from '../test/support/sales-helpers.ts';
import { germanShop } from '../test/support/tse-helpers.ts';
import type { FakeTse } from '../test/support/fake-tse.ts';

const watchdog = setTimeout(() => {
  console.error('tse bench: watchdog');
  process.exit(2);
}, 170_000);
watchdog.unref();

const SAMPLES = Number(process.env.TSE_BENCH_SAMPLES ?? 150);
const WARMUP = 30;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tse-bench-'));
const ca = testCa();
const server = serverCertificate(ca);
fs.writeFileSync(path.join(dir, 'key.pem'), server.keyPem);
fs.writeFileSync(path.join(dir, 'cert.pem'), server.certPem);
fs.writeFileSync(path.join(dir, 'ca.pem'), ca.certPem);
const child = spawn(
  process.execPath,
  [
    path.join(import.meta.dirname, 'support/fake-tse-process.ts'),
    path.join(dir, 'key.pem'),
    path.join(dir, 'cert.pem'),
  ],
  { stdio: ['pipe', 'pipe', 'inherit'] },
);
const first = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve));
const fake = JSON.parse(first) as Pick<FakeTse, 'url' | 'apiKey' | 'apiSecret'>;

const config = loadConfig({
  DATABASE_URL: `sqlite:${path.join(dir, 'bench.sqlite')}`,
  DATA_DIR: dir,
  LOG_LEVEL: 'silent',
  FISCAL_CIS_URL: 'https://127.0.0.1:9/FiskalizacijaService',
  PRODUCT_PHOTO_FETCH: 'false',
  TSE_CA: path.join(dir, 'ca.pem'),
});
const c = await createContainer(config);
const app = await buildApp(c);
await app.ready();
const withTse = await germanShop(c, app, fake as FakeTse);
const withoutTse = await germanShop(c, app, fake as FakeTse, { device: false });
// Without a TSE account at all: the German counter sale as it was before this issue.
await c.database.db.deleteFrom('tse_accounts').where('company_id', '=', withoutTse.companyId).execute();

const sell = async (d: typeof withTse) => {
  const p = d.products[0]!;
  const res = await adminCall(app, d.adminToken, 'POST', '/counter-sales', {
    lines: [{ productId: p.id, unitId: p.units[0]!.id, quantity: 1 }],
    paymentMethod: 'cash',
  });
  if (res.statusCode !== 201) throw new Error(res.body);
  return res.json().data;
};
const sample = await sell(withTse);
if (sample.fiscal.tse?.status !== 'signed') throw new Error(`not signed: ${JSON.stringify(sample.fiscal)}`);

// The floor: the same client, the same device, the two revisions only.
const client = createTseClient({ extraCaPem: fs.readFileSync(path.join(dir, 'ca.pem'), 'utf8'), timeoutMs: 5_000 });
const device = (await c.database.db
  .selectFrom('tse_devices')
  .selectAll()
  .where('company_id', '=', withTse.companyId)
  .executeTakeFirstOrThrow())!;
const creds = { baseUrl: fake.url, apiKey: fake.apiKey, apiSecret: fake.apiSecret };
const floor = async () => {
  const tx = randomUUID();
  await client.startTx(creds, device.tss_id, tx, device.client_id);
  await client.finishTx(creds, device.tss_id, tx, device.client_id, 2, {
    state: 'FINISHED',
    schema: {
      standard_v1: {
        receipt: {
          receipt_type: 'RECEIPT',
          amounts_per_vat_rate: [{ vat_rate: 'NORMAL', amount: '1.19' }],
          amounts_per_payment_type: [{ payment_type: 'CASH', amount: '1.19' }],
        },
      },
    },
  });
};

const timed = async (fn: () => Promise<unknown>) => {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
};
for (let i = 0; i < WARMUP; i++) {
  await sell(withTse);
  await sell(withoutTse);
  await floor();
}
const runs = { with: [] as number[], without: [] as number[], floor: [] as number[] };
for (let i = 0; i < SAMPLES; i++) {
  runs.with.push(await timed(() => sell(withTse)));
  runs.without.push(await timed(() => sell(withoutTse)));
  runs.floor.push(await timed(floor));
}
const q = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
const row = (name: string, xs: number[]) => `| ${name} | ${q(xs, 0.5).toFixed(2)} ms | ${q(xs, 0.95).toFixed(2)} ms |`;
console.log(
  `TSE bench, ${SAMPLES} samples each (after ${WARMUP} warm-up), interleaved, SQLite, Node ${process.version}`,
);
console.log('| | p50 | p95 |');
console.log('| --- | ---: | ---: |');
console.log(row('counter sale, German company with TSE', runs.with));
console.log(row('counter sale, German company without TSE', runs.without));
console.log(row('floor: two HTTPS round trips (ACTIVE, FINISHED) to the fake TSE', runs.floor));
const ratio = q(runs.with, 0.5) / q(runs.without, 0.5);
const added = q(runs.with, 0.5) - q(runs.without, 0.5);
console.log(
  `with ÷ without (p50): ${ratio.toFixed(2)}; added ${added.toFixed(2)} ms against a floor of ${q(runs.floor, 0.5).toFixed(2)} ms (${(added / q(runs.floor, 0.5)).toFixed(2)} × floor)`,
);

await client.close();
await app.close();
await c.close();
child.stdin!.end();
fs.rmSync(dir, { recursive: true, force: true });
