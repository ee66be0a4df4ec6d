/**
 * Outbound e-invoice benchmark (issue 33): what sending Croatian B2B invoices through the
 * e-invoice exchange costs the issue.
 *
 *   node bench/einvoice-send.bench.ts [--engine sqlite|postgres]   # BENCH_N per side (default 120)
 *
 * One process, a fresh database (SQLite in WAL, the default; or a fresh PostgreSQL database on
 * BENCH_PG_URL, `--engine postgres`), the workers running as in production, through the admin
 * API (Fastify inject). Two demo companies; one has an exchange configured (the fake moj-eRačun
 * over HTTPS on 127.0.0.1, answering at once). Each sample converts a quotation for a Croatian
 * business paid by transfer: with the exchange the issuing transaction also writes the HR-CIUS
 * UBL, stores it as issued and queues its send (sent by the worker after commit); without, the
 * invoice alone. The two sides alternate sample by sample, so a machine's drift hits both.
 * Ratio = p50 with ÷ p50 without (target ≤ 1.2).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config/config.ts';
import { createContainer } from '../src/container.ts';
import { createDemoCompany } from '../src/modules/demo/demo-company.ts';
import { buildApp } from '../src/http/build-app.ts';
import { adminCall, assignCustomer, newQuotation } from '../test/support/sales-helpers.ts';
import { exchangeSettings, startFakeEracun } from '../test/support/fake-eracun.ts';
import { freshStorage, type EngineName } from './support/harness.ts';

const N = Number(process.env.BENCH_N ?? 120);
const watchdog = setTimeout(() => {
  console.error('einvoice-send bench: watchdog');
  process.exit(2);
}, 280_000);
watchdog.unref();

const engineArg = process.argv.indexOf('--engine');
const engine: EngineName = engineArg >= 0 && process.argv[engineArg + 1] === 'postgres' ? 'postgres' : 'sqlite';
const storage = freshStorage(engine, 'einvoice-send');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-einvoice-send-'));
const fake = await startFakeEracun({ dir, schema: false });
const c = await createContainer(
  loadConfig({
    DATABASE_URL: storage.databaseUrl,
    LOG_LEVEL: 'silent',
    DATA_DIR: dir,
    EINVOICE_EXCHANGE_CA: fake.caFile,
    EINVOICE_POLL_SECONDS: '3600',
  }),
);
const app = await buildApp(c);
if (process.env.BENCH_NO_WORKER !== '1') await c.startWorkers();
const withExchange = await createDemoCompany(c);
const without = await createDemoCompany(c);
const put = await adminCall(app, withExchange.adminToken, 'PUT', '/einvoice/exchange', exchangeSettings(fake));
if (put.statusCode !== 200) throw new Error(put.body);

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
type Demo = typeof without;
const queue = new Map<Demo, string[]>();
for (const demo of [withExchange, without]) {
  const ids: string[] = [];
  for (let i = 0; i < N + 20; i++) {
    const q = await newQuotation(app, demo);
    await assignCustomer(app, demo, 'quotations', q.id);
    ids.push(q.id);
  }
  queue.set(demo, ids);
}
async function convert(demo: Demo): Promise<{ ms: number; exchange: string }> {
  const id = queue.get(demo)!.shift()!;
  const start = process.hrtime.bigint();
  const res = await adminCall(app, demo.adminToken, 'POST', `/quotations/${id}/convert`, {
    paymentMethod: 'bank_transfer',
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (res.statusCode !== 201) throw new Error(res.body);
  return { ms, exchange: res.json().data.exchange.status };
}
for (let i = 0; i < 20; i++) {
  await convert(withExchange);
  await convert(without);
}
const samples = { with: [] as number[], without: [] as number[] };
for (let i = 0; i < N; i++) {
  const a = await convert(withExchange);
  if (a.exchange !== 'queued') throw new Error(`not queued: ${a.exchange}`);
  samples.with.push(a.ms);
  const b = await convert(without);
  if (b.exchange !== 'not_required') throw new Error(`sent without an exchange: ${b.exchange}`);
  samples.without.push(b.ms);
}
for (const s of Object.values(samples)) s.sort((x, y) => x - y);
const p50 = { with: quantile(samples.with, 0.5), without: quantile(samples.without, 0.5) };
console.log(
  `engine ${engine}; load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} (1/5/15 min)`,
);
console.log(
  `B2B conversion with exchange: p50 ${p50.with.toFixed(2)} ms, p95 ${quantile(samples.with, 0.95).toFixed(2)} ms; ` +
    `without: p50 ${p50.without.toFixed(2)} ms, p95 ${quantile(samples.without, 0.95).toFixed(2)} ms (N=${N} each)`,
);
console.log(`ratio p50 with ÷ without: ${(p50.with / p50.without).toFixed(2)} (target ≤ 1.2)`);
const sentBy = Date.now() + 60_000;
while (fake.sent.length < N + 20 && Date.now() < sentBy) await new Promise((r) => setTimeout(r, 100));
console.log(`sent by the worker meanwhile: ${fake.sent.length} of ${N + 20} documents`);
await c.close();
await fake.close();
fs.rmSync(dir, { recursive: true, force: true });
storage.cleanup();
