/**
 * E-invoice benchmark (issue 21).
 *
 *   node bench/einvoice.bench.ts
 *
 * For the same issued invoice of 10 and of 200 lines (SQLite, one process, the demo shop with an
 * operator OIB and a business buyer), at the service level: the e-invoice XML (model + UBL, and
 * model + CII: reading the sale, its lines, the catalog's codes, the buyer's address) against the
 * invoice's PDF print (reading the same rows, then the printer), p50/p95 over sequential calls
 * after a warm-up; and the Factur-X hybrid PDF against the plain print. Prints a markdown table.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config/config.ts';
import { createContainer } from '../src/container.ts';
import { createDemoCompany } from '../src/modules/demo/demo-company.ts';
import { buildApp } from '../src/http/build-app.ts';
import { adminCall, assignCustomer, newOib } from '../test/support/sales-helpers.ts';
import { bearer } from '../test/support/test-app.ts';

const watchdog = setTimeout(() => {
  console.error('einvoice bench: watchdog');
  process.exit(2);
}, 170_000);
watchdog.unref();

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-einvoice-bench-'));
const c = await createContainer(
  loadConfig({ DATABASE_URL: `sqlite:${path.join(dir, 'bench.sqlite')}`, DATA_DIR: dir, LOG_LEVEL: 'silent' }),
);
const app = await buildApp(c);
const demo = await createDemoCompany(c);
await c.companies.updateUser(demo.companyId, demo.users[0]!.id, { operatorOib: newOib() });
// The demo book's 58.11.19 is not in KPD 2025 (its invoice would not be an e-invoice): 58.11.13 replaced it.
const book = demo.products.find((p) => p.name.includes('Priručnik'))!;
await c.catalogAdmin.updateProduct(demo.companyId, book.id, { classificationCode: '58.11.13' });

async function invoiceOf(lineCount: number): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/public/quotes',
    headers: bearer(demo.locations[0]!.apiKey),
    payload: {
      format: 'json',
      customer: { name: 'Kupac', email: 'kupac@example.com' },
      lines: Array.from({ length: lineCount }, (_, i) => {
        const p = demo.products[i % demo.products.length]!;
        return { productId: p.id, unitId: p.units[0]!.id, quantity: (i % 7) + 0.5 };
      }),
    },
  });
  if (res.statusCode !== 201) throw new Error(res.body);
  const id = res.json().data.id as string;
  await assignCustomer(app, demo, 'quotations', id);
  const sale = await adminCall(app, demo.adminToken, 'POST', `/quotations/${id}/convert`, {});
  if (sale.statusCode !== 201) throw new Error(sale.body);
  return sale.json().data.id as string;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
async function measure(n: number, fn: () => Promise<unknown>) {
  const warmUntil = performance.now() + 1500;
  while (performance.now() < warmUntil) await fn();
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return { p50: quantile(samples, 0.5), p95: quantile(samples, 0.95) };
}

async function print(saleId: string, hybrid: 'never' | 'always') {
  const slot = c.reservePrint();
  try {
    return await c.sales.renderPdf(demo.companyId, saleId, slot, { hybrid });
  } finally {
    slot.release();
  }
}

const rows: string[] = [];
for (const lines of [10, 200]) {
  const id = await invoiceOf(lines);
  const n = lines === 10 ? 200 : 60;
  const ubl = await measure(n, () => c.sales.eInvoiceXml(demo.companyId, id, 'ubl'));
  const cii = await measure(n, () => c.sales.eInvoiceXml(demo.companyId, id, 'cii'));
  const pdf = await measure(n, () => print(id, 'never'));
  const hybrid = await measure(n, () => print(id, 'always'));
  const size = (await c.sales.eInvoiceXml(demo.companyId, id, 'ubl')).xml.length;
  const ms = (v: number) => `${v.toFixed(2)} ms`;
  rows.push(
    `| ${lines} lines | ${ms(ubl.p50)} / ${ms(ubl.p95)} | ${ms(cii.p50)} / ${ms(cii.p95)} | ${ms(pdf.p50)} / ${ms(pdf.p95)} | **${(ubl.p50 / pdf.p50).toFixed(3)}** | ${ms(hybrid.p50)} (${(hybrid.p50 / pdf.p50).toFixed(2)}×) | ${Math.round(size / 1024)} KiB |`,
  );
}
console.log(
  [
    '| invoice | UBL XML p50 / p95 | CII XML p50 / p95 | PDF print p50 / p95 | UBL ÷ PDF (p50) | Factur-X PDF p50 (÷ print) | UBL size |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n'),
);
await app.close();
await c.close();
fs.rmSync(dir, { recursive: true, force: true });
