// test-engines: both
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createTestApp, createTenant, bearer, type TestApp } from '../../support/test-app.ts';
import { adminCall, assignCustomer } from '../../support/sales-helpers.ts';
import { line } from '../../support/quote-helpers.ts';
import { hubPostHeaders } from '../../support/http-helpers.ts';
import type { DemoCompany } from '../../../src/modules/demo/demo-company.ts';

/**
 * Issue 37, item 5: test-mode invoices (`T-1/ZG1/1`) appeared in the book of issued invoices and
 * the month archive, their payments in the payments report, though the VAT report and the lists
 * left them out. Every report and export is walked with live data only, then again after test
 * data (a test invoice, its payment, a test storno) was added: each answers the same, byte for
 * byte, and none names a test document; the lists still show the test data behind `mode=test`.
 */
const REPORTS = ['sales', 'vat', 'book', 'payments', 'receivables'] as const;
const RANGE = 'from=2026-11-01&to=2026-11-30';

describe('test data stays out of every legal output', () => {
  let t: TestApp;
  let d: DemoCompany;
  let hub: Record<string, string>;
  const now = Date.parse('2026-11-03T09:00:00.000Z');

  before(async () => {
    t = await createTestApp({}, { clock: { now: () => new Date(now) } });
    d = await createTenant(t.c, { passwords: true });
    const admin = d.users.find((u) => u.role === 'admin')!;
    hub = await hubPostHeaders(t.app, t.c, admin.email, admin.password!);
  });
  after(() => t.close());

  const api = (method: 'GET' | 'POST', url: string, payload?: object) =>
    adminCall(t.app, d.adminToken, method, url, payload);

  async function sale(key: string, quantity: number) {
    const q = await t.app.inject({
      method: 'POST',
      url: '/api/v1/public/quotes',
      headers: bearer(key),
      payload: { format: 'json', customer: { name: 'Kupac d.o.o.' }, lines: [line(d, 0, quantity)] },
    });
    assert.equal(q.statusCode, 201, q.body);
    await assignCustomer(t.app, d, 'quotations', q.json().data.id);
    const res = await api('POST', `/quotations/${q.json().data.id}/convert`, {});
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data as { id: string; number: string; invoiceNumber: string };
  }

  /** Every report and export a company's data reaches, by name: its text (a zip as its entries' names and tables). */
  async function walk(): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const name of REPORTS) {
      if (name !== 'book') {
        const query = name === 'receivables' ? 'to=2026-11-30' : RANGE;
        for (const format of ['json', 'csv']) {
          const res = await api('GET', `/reports/${name}?${query}&format=${format}`);
          assert.equal(res.statusCode, 200, `${name} ${format}: ${res.body}`);
          out.set(`api ${name} ${format}`, res.body);
        }
      }
      const res = await t.app.inject({
        method: 'GET',
        url: `/hub/reports/export?report=${name}&${RANGE}&format=csv`,
        headers: { cookie: hub.cookie! },
      });
      assert.equal(res.statusCode, 200, `hub ${name}: ${res.body.slice(0, 200)}`);
      out.set(`hub ${name} csv`, res.body);
    }
    for (const list of ['sales', 'quotations']) {
      const res = await api('GET', `/${list}?format=csv`);
      assert.equal(res.statusCode, 200, res.body);
      out.set(`list ${list} csv`, res.body);
    }
    const started = await api('POST', '/exports/month', { month: '2026-11' });
    assert.equal(started.statusCode, 202, started.body);
    await t.c.monthArchives.find(d.companyId, started.json().data.id).finished;
    const zip = await api('GET', `/exports/${started.json().data.id}/download`);
    assert.equal(zip.statusCode, 200);
    const dir = fs.mkdtempSync(path.join(t.dir, 'archive-'));
    const file = path.join(dir, 'month.zip');
    fs.writeFileSync(file, zip.rawPayload);
    const names = execFileSync('zipinfo', ['-1', file], { encoding: 'utf8' }).trim().split('\n').sort();
    out.set('archive entries', names.join('\n'));
    execFileSync('unzip', ['-q', '-o', file, '-d', dir]);
    for (const table of names.filter((n) => n.endsWith('.csv')))
      out.set(`archive ${table}`, fs.readFileSync(path.join(dir, table), 'utf8'));
    return out;
  }

  test('every report and export answers the same with test data beside the live, and names none of it', async () => {
    const live = d.locations[0]!.apiKey;
    const keyRes = await api('POST', '/api-keys', { locationId: d.locations[0]!.id, name: 'Test', mode: 'test' });
    assert.equal(keyRes.statusCode, 201, keyRes.body);
    const testKey = keyRes.json().data.key;

    const paidLive = await sale(live, 1);
    assert.equal(
      (await api('POST', `/sales/${paidLive.id}/payments`, { method: 'cash', amount: '1.00' })).statusCode,
      201,
    );
    await sale(live, 2); // unpaid: a receivable
    const before = await walk();
    assert.ok(before.get('hub book csv')!.includes(paidLive.invoiceNumber), 'the book lists the live invoice');

    const testSale = await sale(testKey, 7);
    assert.match(testSale.invoiceNumber, /^T-1\//);
    assert.equal(
      (await api('POST', `/sales/${testSale.id}/payments`, { method: 'cash', amount: '3.00' })).statusCode,
      201,
    );
    const cancelled = await sale(testKey, 5);
    const storno = await api('POST', `/sales/${cancelled.id}/cancel`, { reason: 'Proba' });
    assert.equal(storno.statusCode, 201, storno.body);
    const testNumbers = [testSale, cancelled, storno.json().data].flatMap((s) => [s.number, s.invoiceNumber]);

    const afterTest = await walk();
    assert.deepEqual([...afterTest.keys()], [...before.keys()]);
    for (const [name, text] of afterTest) {
      for (const n of testNumbers) assert.ok(!text.includes(n), `${name} names the test document ${n}`);
      assert.equal(text, before.get(name), `${name} changed with test data`);
    }

    // Test mode still sees its own: the lists behind mode=test.
    const testList = (await api('GET', '/sales?mode=test')).json().data.map((s: { id: string }) => s.id);
    for (const s of [testSale, cancelled, storno.json().data])
      assert.ok(testList.includes(s.id), `mode=test lists ${s.number}`);
  });
});
