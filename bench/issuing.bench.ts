/**
 * Issuing benchmark (issue 32): what freezing documents as issued costs the counter.
 *
 *   node bench/issuing.bench.ts            # N counter sales and N conversions, SQLite
 *
 * In one process on a fresh SQLite file (WAL), through the admin API (Fastify inject):
 * - a counter sale (`POST /counter-sales`, cash, two lines), p50/p95 over N sequential sales;
 * - a quotation converted into an invoice (`POST /quotations/{id}/convert`), p50/p95;
 * - where the tree stores documents as issued: the bytes stored per document once each file
 *   (A4, receipt, UBL) has been read once.
 * Run the same file against the tree before the change for the "before" figure.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config/config.ts';
import { createContainer } from '../src/container.ts';
import { createDemoCompany } from '../src/modules/demo/demo-company.ts';
import { buildApp } from '../src/http/build-app.ts';
import { adminCall, assignCustomer, newQuotation } from '../test/support/sales-helpers.ts';

const N = Number(process.env.BENCH_N ?? 150);
const watchdog = setTimeout(() => {
  console.error('issuing bench: watchdog');
  process.exit(2);
}, 170_000);
watchdog.unref();

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-issuing-'));
const c = await createContainer(
  loadConfig({ DATABASE_URL: `sqlite:${path.join(dir, 'bench.db')}`, LOG_LEVEL: 'silent', DATA_DIR: dir }),
);
const app = await buildApp(c);
const demo = await createDemoCompany(c);
const token = demo.adminToken;
const product = demo.products[0]!;
const other = demo.products[1]!;
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function measure(label: string, issue: () => Promise<string>): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < 20; i++) ids.push(await issue()); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < N; i++) {
    const start = process.hrtime.bigint();
    ids.push(await issue());
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  samples.sort((a, b) => a - b);
  console.log(
    `${label}: p50 ${quantile(samples, 0.5).toFixed(2)} ms, p95 ${quantile(samples, 0.95).toFixed(2)} ms (N=${N})`,
  );
  return ids;
}

const counterIds = await measure('counter sale', async () => {
  const res = await adminCall(app, token, 'POST', '/counter-sales', {
    lines: [
      { productId: product.id, unitId: product.units[0]!.id, quantity: 2 },
      { productId: other.id, unitId: other.units[0]!.id, quantity: 1 },
    ],
    paymentMethod: 'cash',
  });
  if (res.statusCode !== 201) throw new Error(res.body);
  return res.json().data.id as string;
});

const quotations: string[] = [];
for (let i = 0; i < N + 20; i++) {
  const q = await newQuotation(app, demo);
  await assignCustomer(app, demo, 'quotations', q.id);
  quotations.push(q.id);
}
let next = 0;
await measure('conversion', async () => {
  const res = await adminCall(app, token, 'POST', `/quotations/${quotations[next++]}/convert`, {});
  if (res.statusCode !== 201) throw new Error(res.body);
  return res.json().data.id as string;
});

const invoicing = (c as { invoicing?: { sizes(companyId: string): Promise<unknown> } }).invoicing;
if (invoicing) {
  const sample = counterIds.slice(-20);
  for (const id of sample)
    for (const url of [`/sales/${id}?format=pdf`, `/sales/${id}?format=pdf&layout=receipt`])
      if ((await adminCall(app, token, 'GET', url)).statusCode !== 200) throw new Error(url);
  console.log('stored per format (all documents):', JSON.stringify(await invoicing.sizes(demo.companyId)));
}
await app.close();
await c.close();
fs.rmSync(dir, { recursive: true, force: true });
