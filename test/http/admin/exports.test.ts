// test-engines: both
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { parse } from 'csv-parse/sync';
import { createTestApp, createTenant, type TestApp } from '../../support/test-app.ts';
import { assertProblem } from '../../support/http-helpers.ts';
import { adminCall, assignCustomer, newQuotation } from '../../support/sales-helpers.ts';
import type { DemoCompany } from '../../../src/modules/demo/demo-company.ts';

/** Issue 23: the accountant's month as one zip, built in the background. */
describe('month export', () => {
  let t: TestApp;
  let now = Date.parse('2026-11-03T09:00:00.000Z');
  let dir: string;

  before(async () => {
    t = await createTestApp({}, { clock: { now: () => new Date(now) } });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'month-export-'));
  });
  after(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function invoice(d: DemoCompany, customer: Record<string, unknown> = {}) {
    const q = await newQuotation(t.app, d);
    await assignCustomer(t.app, d, 'quotations', q.id, customer);
    const res = await adminCall(t.app, d.adminToken, 'POST', `/quotations/${q.id}/convert`, {});
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data;
  }

  test('202, progress, then a zip of every document PDF of the month, its e-invoice beside it where there is one, with the VAT report and the book', async () => {
    const d = await createTenant(t.c);
    const other = await createTenant(t.c);
    now = Date.parse('2026-10-31T10:00:00.000Z');
    await invoice(d); // October: not in the archive
    now = Date.parse('2026-11-03T09:00:00.000Z');
    const a = await invoice(d);
    const b = await invoice(d);
    // A consumer's invoice cannot be a Croatian e-invoice (no buyer VAT id): its PDF alone, and no error.
    const consumer = await invoice(d, { kind: 'person', name: 'Ana Kovač', taxId: null });
    await invoice(other);
    now += 3_600_000;
    const storno = await adminCall(t.app, d.adminToken, 'POST', `/sales/${b.id}/cancel`, { reason: 'Greška' });
    assert.equal(storno.statusCode, 201, storno.body);

    const started = await adminCall(t.app, d.adminToken, 'POST', '/exports/month', { month: '2026-11' });
    assert.equal(started.statusCode, 202, started.body);
    const job = started.json().data;
    assert.equal(started.headers.location, `/api/v1/admin/exports/${job.id}`);
    await t.c.monthArchives.find(d.companyId, job.id).finished;

    const polled = (await adminCall(t.app, d.adminToken, 'GET', `/exports/${job.id}`)).json().data;
    assert.equal(polled.status, 'done');
    assert.deepEqual([polled.done, polled.total], [4, 4]);
    assert.equal(polled.downloadUrl, `/api/v1/admin/exports/${job.id}/download`);

    const zip = await adminCall(t.app, d.adminToken, 'GET', `/exports/${job.id}/download`);
    assert.equal(zip.statusCode, 200);
    assert.equal(zip.headers['content-type'], 'application/zip');
    const file = path.join(dir, 'month.zip');
    fs.writeFileSync(file, zip.rawPayload);
    const names = execFileSync('zipinfo', ['-1', file], { encoding: 'utf8' }).trim().split('\n').sort();
    const pdfName = (n: string) => `documents/${n.replace(/[^\w.-]+/g, '-')}.pdf`;
    const xmlName = (n: string) => pdfName(n).replace(/\.pdf$/, '.xml');
    const cancellation = storno.json().data;
    assert.deepEqual(
      names,
      [
        'book-2026-11.csv',
        'book-2026-11.xlsx',
        pdfName(a.invoiceNumber),
        xmlName(a.invoiceNumber),
        pdfName(b.invoiceNumber),
        xmlName(b.invoiceNumber),
        pdfName(cancellation.invoiceNumber),
        xmlName(cancellation.invoiceNumber),
        pdfName(consumer.invoiceNumber),
        'vat-2026-11.csv',
      ].sort(),
    );
    execFileSync('unzip', ['-q', '-o', file, '-d', dir]);
    const text = execFileSync('pdftotext', [path.join(dir, pdfName(a.invoiceNumber)), '-'], { encoding: 'utf8' });
    assert.ok(text.includes(a.invoiceNumber), 'the PDF is the invoice');
    for (const doc of [a, cancellation]) {
      const einvoice = await adminCall(t.app, d.adminToken, 'GET', `/sales/${doc.id}/e-invoice`);
      assert.equal(einvoice.statusCode, 200, einvoice.body);
      assert.equal(fs.readFileSync(path.join(dir, xmlName(doc.invoiceNumber)), 'utf8'), einvoice.body);
    }
    const book: string[][] = parse(fs.readFileSync(path.join(dir, 'book-2026-11.csv'), 'utf8'), {
      bom: true,
      delimiter: ';',
    });
    assert.equal(book.length, 5, 'a heading and four documents');
    const vat: string[][] = parse(fs.readFileSync(path.join(dir, 'vat-2026-11.csv'), 'utf8'), {
      bom: true,
      delimiter: ';',
    });
    const tax = (Number(a.totals.tax) + Number(consumer.totals.tax)).toFixed(2);
    assert.equal(vat[1]![5], tax.replace('.', ','), 'the storno nets the second invoice out');

    // Tenancy: another company's token does not see the job or its file.
    assertProblem(await adminCall(t.app, other.adminToken, 'GET', `/exports/${job.id}`), 404, 'not_found');
    assertProblem(await adminCall(t.app, other.adminToken, 'GET', `/exports/${job.id}/download`), 404, 'not_found');
  });

  test('a month is YYYY-MM; the file is a 409 until the archive is built', async () => {
    const d = await createTenant(t.c);
    const bad = await adminCall(t.app, d.adminToken, 'POST', '/exports/month', { month: '2026-13' });
    assertProblem(bad, 400, 'validation_failed');
    assert.ok(bad.json().details.month);
    const job = t.c.monthArchives.start(d.companyId, '2026-11', 'hr');
    assert.throws(() => t.c.monthArchives.file(d.companyId, job.id), { code: 'conflict' });
    await job.finished;
    assert.equal(t.c.monthArchives.find(d.companyId, job.id).status, 'done');
  });
});
