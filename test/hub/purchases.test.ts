// test-engines: sqlite
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTenant, createTestApp, type TestApp } from '../support/test-app.ts';
import { hubPostHeaders } from '../support/http-helpers.ts';
import { until } from '../support/fiscal-helpers.ts';
import { startFakeEracun, type FakeEracun } from '../support/fake-eracun.ts';
import type { DemoCompany } from '../../src/modules/demo/demo-company.ts';

const HR_UBL = fs.readFileSync(new URL('../fixtures/purchase/hr-cius-eracun-pdv25.xml', import.meta.url));
const CII = fs.readFileSync(new URL('../fixtures/purchase/cii-business-example-01.xml', import.meta.url));

/** The hub's received invoices and exchange settings: forms, the readable view, who may do what. */
describe('hub: e-invoice exchange and purchase invoices', () => {
  let t: TestApp;
  let fake: FakeEracun;
  let d: DemoCompany;
  let admin: Record<string, string>;
  let staff: Record<string, string>;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hub-purchases-'));
  before(async () => {
    fake = await startFakeEracun({ dir });
    t = await createTestApp({ EINVOICE_EXCHANGE_CA: fake.caFile, EINVOICE_POLL_SECONDS: '1' }, { startWorkers: true });
    d = await createTenant(t.c, { passwords: true });
    const user = (role: string) => d.users.find((u) => u.role === role)!;
    admin = await hubPostHeaders(t.app, t.c, user('admin').email, user('admin').password!);
    staff = await hubPostHeaders(t.app, t.c, user('staff').email, user('staff').password!);
  });
  after(async () => {
    await t.close();
    await fake.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const get = (headers: Record<string, string>, url: string) => t.app.inject({ method: 'GET', url, headers });
  const post = (headers: Record<string, string>, url: string, form: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(form).toString(),
    });

  test('the list says plainly that nothing is collected without an exchange; the settings form stores it, the password never shown', async () => {
    const list = await get(admin, '/hub/purchases');
    assert.equal(list.statusCode, 200);
    assert.match(list.body, /<h1>Ulazni računi<\/h1>/);
    assert.match(list.body, /Razmjena eRačuna nije postavljena/);

    const bad = await post(admin, '/hub/developer/einvoice-exchange', {
      provider: 'moj-eracun',
      username: fake.credentials.username,
      companyId: '12',
      softwareId: fake.credentials.softwareId,
      baseUrl: fake.url,
    });
    assert.equal(bad.statusCode, 400);
    assert.match(bad.body, /id="exchange-companyId"[^>]*aria-invalid="true"/);
    assert.match(bad.body, /OIB: 11 znamenki/);

    const saved = await post(admin, '/hub/developer/einvoice-exchange', {
      provider: 'moj-eracun',
      username: fake.credentials.username,
      password: fake.credentials.password,
      companyId: fake.credentials.companyId,
      softwareId: fake.credentials.softwareId,
      baseUrl: fake.url,
    });
    assert.equal(saved.statusCode, 303, saved.body);
    const page = await get(admin, '/hub/developer/einvoice-exchange');
    assert.match(page.body, /Postavljeno: moj-eRačun/);
    assert.doesNotMatch(page.body, new RegExp(fake.credentials.password));
    const check = await post(admin, '/hub/developer/einvoice-exchange/check', {});
    assert.match(check.body, /Posrednik je prihvatio podatke za prijavu/);
    assert.equal((await get(staff, '/hub/developer/einvoice-exchange')).statusCode, 403);
  });

  test('a received invoice is listed and readable: lines with KPD names, VAT, the original XML; staff read and decide (accept, reject with a reason), admins record payments', async () => {
    fake.deliver(HR_UBL);
    const id = await until('the invoice filed', async () => (await t.c.purchaseInvoices.list(d.companyId, {}))[0]?.id);
    const list = await get(staff, '/hub/purchases');
    assert.match(list.body, /TVRTKA A d\.o\.o\./);
    assert.match(list.body, /Učitaj eRačun/, 'staff upload what came another way');
    const view = await get(staff, `/hub/purchases/${id}`);
    assert.equal(view.statusCode, 200);
    assert.match(view.body, /<code>62\.20\.20<\/code> <small class="muted">[^<]+<\/small>/);
    assert.match(view.body, /HRXXXXXXXXXXXXXXXX/);
    assert.match(view.body, /reject-reason/, 'staff see the rejection form');
    assert.doesNotMatch(view.body, /pay-amount/, 'staff record no payment');
    assert.equal(
      (await post(staff, `/hub/purchases/${id}/payments`, { amount: '1.00', date: '2026-01-05', method: 'T' }))
        .statusCode,
      403,
    );
    const xml = await get(staff, `/hub/purchases/${id}/original.xml`);
    assert.ok(xml.rawPayload.equals(HR_UBL));

    const empty = await post(staff, `/hub/purchases/${id}/reject`, { type: 'U', reason: '' });
    assert.equal(empty.statusCode, 400);
    assert.match(empty.body, /id="reject-reason"[^>]*aria-invalid="true"/);
    const rejected = await post(staff, `/hub/purchases/${id}/reject`, { type: 'U', reason: 'Kriva cijena.' });
    assert.equal(rejected.statusCode, 303);
    await until('reported', async () => fake.rejections.length === 1);
    const after = await get(admin, `/hub/purchases/${id}`);
    assert.match(after.body, /Odbijen \(U\): Kriva cijena\./);
    assert.match(after.body, /Odbijanje je prijavljeno preko posrednika/);
  });

  test('an upload by hand, its embedded PDF served as a download, a payment recorded', async () => {
    const boundary = 'portico-purchase-boundary';
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="invoice.xml"\r\nContent-Type: application/xml\r\n\r\n`,
      ),
      CII,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/hub/purchases',
      headers: { ...admin, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    assert.equal(res.statusCode, 303, res.body);
    const location = String(res.headers.location);
    const page = await get(admin, location);
    assert.match(page.body, /Salescompany ltd\./);
    const pdf = await get(admin, `${location}/attachments/0`);
    assert.equal(pdf.statusCode, 200);
    assert.match(String(pdf.headers['content-disposition']), /^attachment/);
    const accepted = await post(admin, `${location}/accept`, {});
    assert.equal(accepted.statusCode, 303);
    const paid = await post(admin, `${location}/payments`, {
      amount: '801.78',
      date: '2026-01-15',
      method: 'bank_transfer',
    });
    assert.equal(paid.statusCode, 303, paid.body);
    assert.match((await get(admin, location)).body, /Transakcijski račun/);
  });
});
