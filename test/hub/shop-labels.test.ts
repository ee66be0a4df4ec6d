// test-engines: sqlite
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, createTenant, type TestApp } from '../support/test-app.ts';
import { csrfOf } from '../support/http-helpers.ts';
import { adminCall } from '../support/sales-helpers.ts';
import type { DemoCompany } from '../../src/modules/demo/demo-company.ts';

const ORIGIN = 'http://localhost:80';

/** The small labels of issue 34, item 9, each as a Croatian owner reads it. */
describe('the labels a shop meets every hour', () => {
  let t: TestApp;
  let demo: DemoCompany;
  let cookie: string;
  let csrf: string;
  before(async () => {
    t = await createTestApp();
    demo = await createTenant(t.c, { passwords: true });
    const admin = demo.users.find((u) => u.role === 'admin')!;
    const { token } = await t.c.accounts.signIn(admin.email, admin.password!);
    const home = await t.app.inject({ method: 'GET', url: '/hub', headers: { cookie: `portico_session=${token}` } });
    const c = csrfOf(home);
    cookie = `portico_session=${token}; ${c.cookie}`;
    csrf = c.token;
  });
  after(async () => {
    await t.close();
  });

  const get = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url, headers: { cookie } });
    assert.equal(res.statusCode, 200, `${url}: ${res.body.slice(0, 300)}`);
    return res.body;
  };

  test('a wrong operator OIB is marked at its field, the typed value kept', async () => {
    const staff = demo.users.find((u) => u.role === 'staff')!;
    const res = await t.app.inject({
      method: 'POST',
      url: `/hub/team/${staff.id}/oib`,
      headers: { cookie, origin: ORIGIN, 'x-csrf-token': csrf, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'operatorOib=12345678901',
    });
    assert.equal(res.statusCode, 400);
    assert.match(res.body, /Ispravite označena polja\./);
    const input = res.body.match(new RegExp(`<input id="oib-${staff.id}"[^>]*>`))![0];
    assert.match(input, /value="12345678901"/, 'what was typed');
    assert.match(input, /aria-invalid="true"/, 'the field is marked');
    assert.match(res.body, new RegExp(`id="oib-${staff.id}-error">[^<]*OIB`), 'and says why');
  });

  test("the quotation form states the company's validity; the company page names its settings plainly", async () => {
    assert.equal(
      (await adminCall(t.app, demo.adminToken, 'PATCH', '/settings', { quotationValidityDays: 15 })).statusCode,
      200,
    );
    assert.match(await get('/hub/quotations/new'), /Vrijedi do \(prazno: 15 dana\)/);
    const company = await get('/hub/company');
    assert.doesNotMatch(company, />\s*PDV ID\s*</);
    assert.match(company, /U sustavu PDV-a/);
    assert.match(company, /<label for="sequence-mode">Brojčana oznaka računa određuje se<\/label>/);
    for (const page of [company, await get('/hub/developer/print'), await get('/hub/developer/fiscal')]) {
      const subnav = page.match(/<nav class="subnav" aria-label="Profil tvrtke">[\s\S]*?<\/nav>/);
      assert.ok(subnav, 'the company settings’ own navigation');
      assert.match(subnav[0], /Predložak ispisa i bankovni račun/);
      assert.match(subnav[0], /Fiskalizacija/);
    }
    assert.doesNotMatch(await get('/hub/developer'), /Predložak ispisa/, 'no longer among the developer settings');
  });

  test('a consumer sale shows no missing-OIB box; its storno offers the 80 mm receipt', async () => {
    const p = demo.products[0]!;
    const sale = await adminCall(t.app, demo.adminToken, 'POST', '/counter-sales', {
      lines: [{ productId: p.id, unitId: p.units[0]!.id, quantity: 1 }],
      paymentMethod: 'card',
    });
    assert.equal(sale.statusCode, 201, sale.body);
    const id = sale.json().data.id as string;
    assert.doesNotMatch(await get(`/hub/sales/${id}`), /bez OIB-a/);
    const storno = await adminCall(t.app, demo.adminToken, 'POST', `/sales/${id}/cancel`, { reason: 'Krivo.' });
    assert.equal(storno.statusCode, 201, storno.body);
    const stornoId = storno.json().data.id as string;
    assert.match(await get(`/hub/sales/${stornoId}`), new RegExp(`href="/hub/sales/${stornoId}/pdf\\?layout=receipt"`));
    const pdf = await t.app.inject({
      method: 'GET',
      url: `/hub/sales/${stornoId}/pdf?layout=receipt`,
      headers: { cookie },
    });
    assert.equal(pdf.statusCode, 200);
    assert.equal(pdf.headers['content-type'], 'application/pdf');
  });

  test('the payments report calls money received less voids what it is, not a tax base', async () => {
    const body = await get('/hub/reports?report=payments');
    assert.match(body, /<th scope="col" class="num">Neto primljeno<\/th>/);
    assert.doesNotMatch(body, />Osnovica</);
  });
});
