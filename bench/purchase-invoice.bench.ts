/**
 * Received e-invoice benchmark (issue 33).
 *
 *   node bench/purchase-invoice.bench.ts
 *
 * A received 200-line UBL (the official HR-CIUS sample eRacun_PDV25.xml with its line repeated
 * 200 times, totals as the sample's): reading it (parse, every line with its KPD code, VAT
 * breakdown, totals) and filing it (read, then one transaction on SQLite storing the original
 * bytes and the parsed facts with its purchase_invoice.received event), p50/p95 over sequential
 * calls after a warm-up, against the floor of the work: the XML parsed into a DOM. Each filed copy has its own number, so none is a duplicate.
 * Prints a markdown table.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config/config.ts';
import { createContainer } from '../src/container.ts';
import { createDemoCompany } from '../src/modules/demo/demo-company.ts';
import { DOMParser } from '@xmldom/xmldom';
import { readEInvoice } from '../src/modules/einvoice/einvoice-reader.ts';

const watchdog = setTimeout(() => {
  console.error('purchase-invoice bench: watchdog');
  process.exit(2);
}, 120_000);
watchdog.unref();

const sample = fs.readFileSync(new URL('../test/fixtures/purchase/hr-cius-eracun-pdv25.xml', import.meta.url), 'utf8');
const line = /<cac:InvoiceLine>[\s\S]*?<\/cac:InvoiceLine>/.exec(sample)![0];
const lines = Array.from({ length: 200 }, (_, i) =>
  line.replace(/<cbc:ID>1<\/cbc:ID>/, `<cbc:ID>${i + 1}</cbc:ID>`),
).join('\n');
const template = sample.replace(line, lines);
let serial = 0;
const next = () => Buffer.from(template.replace('<cbc:ID>1-P1-1</cbc:ID>', `<cbc:ID>${++serial}-P1-1</cbc:ID>`));

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-purchase-bench-'));
const c = await createContainer(
  loadConfig({ DATABASE_URL: `sqlite:${path.join(dir, 'bench.sqlite')}`, DATA_DIR: dir, LOG_LEVEL: 'silent' }),
);
const demo = await createDemoCompany(c);

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
async function measure(n: number, fn: () => Promise<unknown> | unknown) {
  const warmUntil = performance.now() + 1000;
  while (performance.now() < warmUntil) await fn();
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { p50: quantile(times, 0.5), p95: quantile(times, 0.95) };
}

const bytes = next();
const read = readEInvoice(bytes);
if (read.lines.length !== 200) throw new Error(`read ${read.lines.length} lines`);
const text = bytes.toString('utf8');
const floor = await measure(50, () => new DOMParser().parseFromString(text, 'text/xml'));
const parse = await measure(50, () => readEInvoice(bytes));
const file = await measure(50, () => c.purchaseInvoices.file(demo.companyId, { bytes: next(), source: 'upload' }));

const ms = (v: number) => v.toFixed(2);
console.log(`| received UBL, 200 lines (${(bytes.length / 1024).toFixed(0)} KiB) | p50 ms | p95 ms |`);
console.log('|---|---:|---:|');
console.log(`| the floor: the XML parsed into a DOM (xmldom), nothing read | ${ms(floor.p50)} | ${ms(floor.p95)} |`);
console.log(`| read (parse, lines, VAT, totals) | ${ms(parse.p50)} | ${ms(parse.p95)} |`);
console.log(`| read and file (SQLite: original bytes, facts, event) | ${ms(file.p50)} | ${ms(file.p95)} |`);
await c.close();
fs.rmSync(dir, { recursive: true, force: true });
