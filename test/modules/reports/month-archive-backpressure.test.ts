// test-engines: sqlite
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { createTestApp, createTenant, type TestApp } from '../../support/test-app.ts';
import { adminCall, assignCustomer } from '../../support/sales-helpers.ts';
import type { DemoCompany } from '../../../src/modules/demo/demo-company.ts';
import { createMonthArchives } from '../../../src/modules/reports/index.ts';

/**
 * Issue 37, item 10: the archive's backpressure once counted each e-invoice's raw bytes against the
 * deflated bytes written, so a month of e-invoices crossed the bound for good and the build waited
 * forever. Here the bound is small (64 KiB) so a handful of real invoices, each with a UBL XML of tens of
 * kilobytes, crosses it several times over.
 */
describe('month archive backpressure with e-invoices', () => {
  let t: TestApp;
  let now = Date.parse('2026-11-03T09:00:00.000Z');

  before(async () => {
    t = await createTestApp({}, { clock: { now: () => new Date(now) } });
  });
  after(() => t.close());

  /** A quotation of many lines: its e-invoice is tens of kilobytes that deflate to a few. */
  async function quotationOfLines(d: DemoCompany, lines: number): Promise<{ id: string }> {
    const p = d.products[0]!;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/public/quotes',
      headers: { authorization: `Bearer ${d.locations[0]!.apiKey}` },
      payload: {
        format: 'json',
        customer: { name: 'Ana Kovač', email: 'ana@example.com' },
        lines: Array.from({ length: lines }, (_, i) => ({
          productId: p.id,
          unitId: p.units[0]!.id,
          quantity: i + 1,
          note: `Line ${i + 1}: colour RAL 9010, delivered to the site`,
        })),
      },
    });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data;
  }

  test('a month whose XML deflates well past the bound still finishes, every document in the zip', async () => {
    const d = await createTenant(t.c);
    const docs = 8;
    const numbers: string[] = [];
    for (let i = 0; i < docs; i++) {
      const q = await quotationOfLines(d, 60);
      await assignCustomer(t.app, d, 'quotations', q.id, {});
      const res = await adminCall(t.app, d.adminToken, 'POST', `/quotations/${q.id}/convert`, {});
      assert.equal(res.statusCode, 201, res.body);
      numbers.push(res.json().data.invoiceNumber);
    }
    const dir = path.join(t.dir, 'archive-bp');
    let xmlBytes = 0;
    const archives = createMonthArchives({
      reports: t.c.reports,
      renderPdf: async (companyId, id) => {
        const slot = t.c.reservePrint();
        try {
          return await t.c.sales.renderPdf(companyId, id, slot);
        } finally {
          slot.release();
        }
      },
      eInvoiceXml: async (companyId, id) => {
        // The e-invoice as issued, as the server's archive takes it.
        const xml = (await t.c.invoicing.file(companyId, id, 'ubl')).bytes;
        xmlBytes += xml.length;
        return xml;
      },
      dir,
      now: () => new Date(now),
      onCrash: (error) => assert.fail(String(error)),
      highWater: 64 * 1024,
    });
    const job = archives.start(d.companyId, '2026-11', 'hr');
    const outcome = await Promise.race([job.finished.then(() => 'finished'), delay(30_000).then(() => 'stalled')]);
    assert.equal(outcome, 'finished', `stalled at ${job.done} of ${job.total} documents`);
    assert.equal(job.status, 'done');
    assert.deepEqual([job.done, job.total], [docs, docs]);
    assert.ok(xmlBytes > 4 * 64 * 1024, `the e-invoices (${xmlBytes} B) cross the bound more than twice`);
    const file = archives.file(d.companyId, job.id).path;
    const names = execFileSync('zipinfo', ['-1', file], { encoding: 'utf8' }).trim().split('\n');
    for (const n of numbers) {
      const base = `documents/${n.replace(/[^\w.-]+/g, '-')}`;
      assert.ok(names.includes(`${base}.pdf`) && names.includes(`${base}.xml`), `${n}: PDF and XML in the zip`);
    }
    execFileSync('unzip', ['-tq', file]);
    assert.ok(fs.statSync(file).size > 0);
  });
});
