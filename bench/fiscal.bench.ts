/**
 * Croatian fiscalisation benchmark.
 *
 *   node bench/fiscal.bench.ts
 *
 * Measures, in one process, on SQLite (a fresh temp database):
 * - CPU per invoice: the ZKI (RSA-2048 SHA-1 signature + MD5) and the signed RacunZahtjev
 *   (built in its canonical form, SHA-256 digest, RSA-SHA256 signature), µs each;
 * - the fiscal step at the service level: `prepare` in a unit of work, then the bounded send
 *   (`deliver`) to a fake CIS on 127.0.0.1 over HTTPS answering at once, against the same unit
 *   of work for a company without fiscalisation; p50/p95 sequentially and invoices/s with 8 at once.
 * - a whole invoice through the admin API: converting a quotation (in-process, Fastify inject)
 *   for a fiscalising company against the fake CIS, ÷ the same for a company that does not.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash, createPrivateKey, randomUUID, sign } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import { Agent, request } from 'undici';
import { echoEnvelope } from '../src/modules/fiscal/racun-request.ts';
import { loadConfig } from '../src/config/config.ts';
import { createContainer } from '../src/container.ts';
import { createDemoCompany } from '../src/modules/demo/demo-company.ts';
import { computeZki } from '../src/modules/fiscal/zki.ts';
import { racunEnvelope, type RacunFacts } from '../src/modules/fiscal/racun-request.ts';
import { signRequest } from '../src/modules/fiscal/xml-signature.ts';
import { fiscalCertificate, p12Base64, serverCertificate, testCa } from '../test/support/fiscal-certs.ts';
import { startFakeCisThread } from './support/fake-cis-thread.ts';
import { fiscalDocument } from '../test/support/fiscal-helpers.ts';
import { buildApp } from '../src/http/build-app.ts';
import { adminCall, assignCustomer, newQuotation } from '../test/support/sales-helpers.ts';

const watchdog = setTimeout(() => {
  console.error('fiscal bench: watchdog');
  process.exit(2);
}, 170_000);
watchdog.unref();

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
function time(n: number, fn: () => void): { p50: number; p95: number; mean: number } {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = process.hrtime.bigint();
    fn();
    samples.push(Number(process.hrtime.bigint() - start) / 1_000);
  }
  samples.sort((a, b) => a - b);
  return { p50: quantile(samples, 0.5), p95: quantile(samples, 0.95), mean: samples.reduce((a, b) => a + b) / n };
}

// --- CPU per invoice ---------------------------------------------------------------
const ca = testCa();
const issued = fiscalCertificate(ca, '12345678903');
const key = createPrivateKey(issued.keyPem);
const facts: RacunFacts = {
  oib: '12345678903',
  vatRegistered: true,
  issuedAt: '25.11.2026T14:05:09',
  sequenceMode: 'P',
  sequence: '12',
  premises: 'ZG1',
  device: '1',
  taxes: [{ rate: '25.00', base: '100.00', amount: '25.00' }],
  exempt: null,
  total: '125.00',
  payment: 'K',
  operatorOib: '69435151530',
  zki: 'a1e6b1428f0cc755f0c82aa7a1327e35',
  buyerOib: null,
};
const zkiElements = {
  oib: facts.oib,
  issuedAt: '25.11.2026 14:05:09',
  sequence: '12',
  premises: 'ZG1',
  device: '1',
  total: '125.00',
};
time(200, () => computeZki(key, zkiElements)); // warm-up
time(100, () =>
  signRequest(racunEnvelope(facts, { messageId: randomUUID(), sentAt: facts.issuedAt, lateDelivery: false }), {
    privateKey: key,
    certificatePem: issued.certPem,
  }),
);
const zki = time(1_000, () => computeZki(key, zkiElements));
const signed = time(500, () =>
  signRequest(racunEnvelope(facts, { messageId: randomUUID(), sentAt: facts.issuedAt, lateDelivery: false }), {
    privateKey: key,
    certificatePem: issued.certPem,
  }),
);

// --- service level -----------------------------------------------------------------
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-fiscal-bench-'));
const cis = await startFakeCisThread(serverCertificate(ca), ca);
fs.writeFileSync(path.join(dir, 'ca.pem'), ca.certPem);
const c = await createContainer(
  loadConfig({
    DATABASE_URL: `sqlite:${path.join(dir, 'bench.sqlite')}`,
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
    FISCAL_CIS_URL: cis.url,
    FISCAL_CIS_CA: path.join(dir, 'ca.pem'),
  }),
);
const fiscalised = await createDemoCompany(c);
const plain = await createDemoCompany(c);
await c.fiscalSettings.uploadCertificate(fiscalised.companyId, { p12: p12Base64(issued, 'x'), password: 'x' });

async function issueOne(companyId: string): Promise<void> {
  const doc = fiscalDocument(companyId);
  const status = await c.store.unitOfWork((repos) => c.fiscaliser.prepare(repos, doc));
  if (status.status === 'not_required') return;
  const after = (await c.fiscaliser.deliver(companyId, [doc.documentId])).get(doc.documentId);
  if (after?.status !== 'fiscalised') throw new Error(`not fiscalised: ${JSON.stringify(after)}`);
}

const quantileOf = (samples: number[]) => {
  samples.sort((a, b) => a - b);
  return { p50: quantile(samples, 0.5), p95: quantile(samples, 0.95) };
};

async function serviceLevel(companyId: string) {
  for (let i = 0; i < 50; i++) await issueOne(companyId); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < 300; i++) {
    const start = performance.now();
    await issueOne(companyId);
    samples.push(performance.now() - start);
  }
  const total = 400;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next++ < total) await issueOne(companyId);
    }),
  );
  const perSecond = total / ((performance.now() - started) / 1_000);
  return { ...quantileOf(samples), perSecond };
}

// --- a whole invoice through the admin API -------------------------------------------
// Converting a quotation issues the invoice: pricing copied, legal number, the sale, its event
// and (for the fiscalising company) the ZKI, the signed request and the bounded send to CIS.
// In-process (Fastify inject), one at a time, so the ratio is the fiscal step's share of the work.
const app = await buildApp(c);
async function convertible(d: typeof fiscalised, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const q = await newQuotation(app, d);
    await assignCustomer(app, d, 'quotations', q.id);
    ids.push(q.id);
  }
  return ids;
}
async function throughApi(d: typeof fiscalised, expected: string, on = app, n = 300) {
  const ids = await convertible(d, n);
  const convert = async (id: string) => {
    const res = await adminCall(on, d.adminToken, 'POST', `/quotations/${id}/convert`, { paymentMethod: 'card' });
    if (res.statusCode !== 201 || res.json().data.fiscal.status !== expected) throw new Error(res.body);
  };
  for (const id of ids.splice(0, Math.floor(n / 6))) await convert(id); // warm-up
  const samples: number[] = [];
  const started = performance.now();
  let cpu = process.cpuUsage();
  for (const id of ids) {
    const start = performance.now();
    await convert(id);
    samples.push(performance.now() - start);
  }
  cpu = process.cpuUsage(cpu);
  const seconds = (performance.now() - started) / 1_000;
  // Invoices per CPU-second: the process's CPU, the fake CIS's thread included.
  return {
    ...quantileOf(samples),
    perSecond: samples.length / seconds,
    perCoreSecond: samples.length / ((cpu.user + cpu.system) / 1e6),
  };
}
// --- isolated invoices ------------------------------------------------------------------
// A shop's usual case: an invoice after a pause, which meets a fresh TLS connection to CIS. A
// second fake CIS closes every connection after its answer; a second container (same database)
// sends to it. `--isolated` runs this case alone.
async function isolatedInvoices() {
  const closing = await startFakeCisThread(serverCertificate(ca), ca, { closeEach: true });
  const ci = await createContainer(
    loadConfig({
      DATABASE_URL: `sqlite:${path.join(dir, 'bench.sqlite')}`,
      DATA_DIR: dir, // the same secrets key, to read the sealed certificate
      LOG_LEVEL: 'silent',
      FISCAL_CIS_URL: closing.url,
      FISCAL_CIS_CA: path.join(dir, 'ca.pem'),
    }),
    { migrate: false },
  );
  const appIsolated = await buildApp(ci);
  const fiscalisedAlone = await throughApi(fiscalised, 'fiscalised', appIsolated, 120);
  const plainAlone = await throughApi(plain, 'not_required', appIsolated, 120);
  await appIsolated.close();
  await ci.close();
  await closing.close();
  return { fiscalised: fiscalisedAlone, notFiscalised: plainAlone, ratioP50: fiscalisedAlone.p50 / plainAlone.p50 };
}
const isolated = await isolatedInvoices();
const isolatedTable = `
| isolated invoice (a fresh TLS connection to CIS each) | p50 | p95 | invoices per CPU-second |
| --- | --- | --- | --- |
| fiscalised | ${isolated.fiscalised.p50.toFixed(2)} ms | ${isolated.fiscalised.p95.toFixed(2)} ms | ${isolated.fiscalised.perCoreSecond.toFixed(0)} |
| not fiscalised | ${isolated.notFiscalised.p50.toFixed(2)} ms | ${isolated.notFiscalised.p95.toFixed(2)} ms | ${isolated.notFiscalised.perCoreSecond.toFixed(0)} |
| fiscalised ÷ not fiscalised, p50 | **${isolated.ratioP50.toFixed(2)}** | | |
`;
if (process.argv.includes('--isolated')) {
  console.log(JSON.stringify({ node: process.version, isolated }, null, 2));
  console.log(isolatedTable);
  await app.close();
  await c.close();
  await cis.close();
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}

const apiWithFiscal = await throughApi(fiscalised, 'fiscalised');
const apiWithout = await throughApi(plain, 'not_required');
await app.close();

const withFiscal = await serviceLevel(fiscalised.companyId);
const without = await serviceLevel(plain.companyId);

// --- the floor ------------------------------------------------------------------------
// What a fiscalised invoice must do that an unfiscalised one does not, whoever writes it: a
// second durable commit (the JIR, after CIS answered: the invoice itself is committed before it
// is sent), two RSA-2048 signatures (the ZKI and the message), one HTTPS round trip to CIS.
// Each measured alone, in this run, on this machine.
async function floorParts() {
  const db = new DatabaseSync(path.join(dir, 'floor.sqlite'));
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
  const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
  const commit = time(300, () => {
    db.exec('BEGIN');
    insert.run('x'.repeat(200));
    db.exec('COMMIT');
  });
  db.close();
  const rsa = time(500, () => sign('sha256', createHash('sha256').update(randomUUID()).digest(), key));
  const agent = new Agent({ connect: { ca: [ca.certPem] } });
  const rtts: number[] = [];
  for (let i = 0; i < 600; i++) {
    const start = performance.now();
    const res = await request(cis.url, { method: 'POST', dispatcher: agent, body: echoEnvelope('floor') });
    await res.body.text();
    if (i >= 100) rtts.push(performance.now() - start);
  }
  await agent.close();
  const rtt = quantileOf(rtts).p50;
  const added = commit.p50 / 1_000 + (2 * rsa.p50) / 1_000 + rtt;
  return { commitMs: commit.p50 / 1_000, rsaSignMs: rsa.p50 / 1_000, httpsRoundTripMs: rtt, addedMs: added };
}
const floor = await floorParts();
const floorRatio = (apiWithout.p50 + floor.addedMs) / apiWithout.p50;

await c.close();
await cis.close();
fs.rmSync(dir, { recursive: true, force: true });

const result = {
  node: process.version,
  cpu: os.cpus()[0]?.model,
  zkiMicros: zki,
  signedRequestMicros: signed,
  prepareAndSendMs: withFiscal,
  withoutFiscalisationMs: without,
  invoiceThroughApiMs: { fiscalised: apiWithFiscal, notFiscalised: apiWithout },
  invoiceRatioP50: apiWithFiscal.p50 / apiWithout.p50,
  floor,
  floorRatioP50: floorRatio,
  isolated,
};
console.log(JSON.stringify(result, null, 2));
const f = (n: number) => n.toFixed(n < 10 ? 2 : 0);
console.log(`
| fiscal step (SQLite, 1 process) | p50 | p95 | per second (8 at once) |
| --- | --- | --- | --- |
| ZKI (RSA-2048 SHA-1 + MD5) | ${f(zki.p50)} µs | ${f(zki.p95)} µs | |
| RacunZahtjev built and signed | ${f(signed.p50)} µs | ${f(signed.p95)} µs | |
| prepare + deliver, fake CIS at 0 ms | ${f(withFiscal.p50)} ms | ${f(withFiscal.p95)} ms | ${f(withFiscal.perSecond)} |
| the same unit of work, company not fiscalising | ${f(without.p50)} ms | ${f(without.p95)} ms | ${f(without.perSecond)} |

| invoice through the admin API (convert a quotation) | p50 | p95 | invoices/s (one at a time) | invoices per CPU-second |
| --- | --- | --- | --- | --- |
| fiscalised, fake CIS at 0 ms | ${f(apiWithFiscal.p50)} ms | ${f(apiWithFiscal.p95)} ms | ${f(apiWithFiscal.perSecond)} | ${f(apiWithFiscal.perCoreSecond)} |
| not fiscalised | ${f(apiWithout.p50)} ms | ${f(apiWithout.p95)} ms | ${f(apiWithout.perSecond)} | ${f(apiWithout.perCoreSecond)} |
| ratio p50 (target ≤ 1.5) | ${(apiWithFiscal.p50 / apiWithout.p50).toFixed(2)} | | | |

| the floor: what fiscalising must add | p50 |
| --- | --- |
| a durable SQLite commit (the JIR stored) | ${floor.commitMs.toFixed(3)} ms |
| an RSA-2048 signature (×2: ZKI, message) | ${floor.rsaSignMs.toFixed(3)} ms |
| an HTTPS round trip to the CIS (keep-alive) | ${floor.httpsRoundTripMs.toFixed(3)} ms |
| the unfiscalised invoice + these, ÷ the unfiscalised invoice | **${floorRatio.toFixed(2)}** |
${isolatedTable}`);
