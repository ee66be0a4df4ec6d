// test-engines: sqlite
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, createTenant, type TestApp } from '../support/test-app.ts';
import { hubPostHeaders } from '../support/http-helpers.ts';
import { adminCall } from '../support/sales-helpers.ts';
import { pdfText } from '../support/quote-helpers.ts';
import type { DemoCompany } from '../../src/modules/demo/demo-company.ts';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** The drawer in the hub, as counter staff use it (issue 34): open, cash out, close by denomination, the day report. */
describe('hub: the cash drawer', () => {
  let t: TestApp;
  let demo: DemoCompany;
  let staff: Record<string, string>;
  let admin: Record<string, string>;
  before(async () => {
    t = await createTestApp();
    demo = await createTenant(t.c, { passwords: true });
    const of = (role: string) => demo.users.find((u) => u.role === role)!;
    staff = await hubPostHeaders(t.app, t.c, of('staff').email, of('staff').password!);
    admin = await hubPostHeaders(t.app, t.c, of('admin').email, of('admin').password!);
  });
  after(async () => {
    await t.close();
  });

  const post = (headers: Record<string, string>, url: string, fields: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { ...headers, ...FORM },
      payload: new URLSearchParams({ _csrf: headers['x-csrf-token']!, ...fields }).toString(),
    });
  const get = (headers: Record<string, string>, url: string) =>
    t.app.inject({ method: 'GET', url, headers: { cookie: headers.cookie! } });

  test('staff open, take cash out, close counting notes and coins; the report and its prints', async () => {
    const location = demo.locations[0]!.id;
    const page = await get(staff, `/hub/drawer?locationId=${location}`);
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /Blagajna nije otvorena/);
    assert.match(page.body, /<a[^>]+href="\/hub\/drawer"/, 'the menu names the drawer');
    assert.doesNotMatch(page.body, /Sve otvorene blagajne/, 'staff do not see every drawer');

    // A float typed the Croatian way; a bad one names its field.
    const bad = await post(staff, '/hub/drawer/open', { locationId: location, float: 'sto' });
    assert.equal(bad.statusCode, 400);
    assert.match(bad.body, /aria-invalid="true"/);
    const opened = await post(staff, '/hub/drawer/open', { locationId: location, float: '100,00' });
    assert.equal(opened.statusCode, 303, opened.body);

    const p = demo.products[0]!;
    const sale = await adminCall(t.app, demo.adminToken, 'POST', '/counter-sales', {
      lines: [{ productId: p.id, unitId: p.units[0]!.id, quantity: 1 }],
      paymentMethod: 'cash',
      tendered: '100.00',
      locationId: location,
    });
    assert.equal(sale.statusCode, 201, sale.body);
    const total = sale.json().data.totals.withTax as string;

    const out = await post(staff, '/hub/drawer/movements', {
      locationId: location,
      kind: 'out',
      amount: '30,00',
      reason: 'Dostava',
    });
    assert.equal(out.statusCode, 303, out.body);
    const open = await get(staff, `/hub/drawer?locationId=${location}`);
    assert.match(open.body, /Dostava/);
    const expectedCents = 10000 - 3000 + Math.round(Number(total) * 100);
    // Count: the expected cash exactly, in 1-cent coins past the 10 € notes.
    const tens = Math.floor(expectedCents / 1000);
    const closed = await post(staff, '/hub/drawer/close', {
      locationId: location,
      'd-1000': String(tens),
      'd-1': String(expectedCents - tens * 1000),
    });
    assert.equal(closed.statusCode, 303, closed.body);
    const after = await get(staff, `/hub/drawer?locationId=${location}`);
    assert.match(after.body, /Danas zaključena/);
    const link = /href="(\/hub\/drawer\/days\/[^"]+)"/.exec(after.body)![1]!;
    const report = await get(staff, link);
    assert.equal(report.statusCode, 200);
    assert.match(report.body, /data-difference[^>]*><strong>0,00/);
    for (const layout of ['', '?layout=receipt']) {
      const pdf = await get(staff, `${link}/pdf${layout}`);
      assert.equal(pdf.statusCode, 200);
      assert.match(await pdfText(pdf.rawPayload), /Dnevni izvještaj blagajne/);
    }
    // The storno's page says what was refunded, never the original's cash received and change.
    const storno = await adminCall(t.app, demo.adminToken, 'POST', `/sales/${sale.json().data.id}/cancel`, {
      reason: 'Krivi artikl',
      refund: { method: 'cash' },
    });
    assert.equal(storno.statusCode, 201, storno.body);
    const stornoPage = await get(staff, `/hub/sales/${storno.json().data.id}`);
    assert.match(stornoPage.body, /Vraćeno kupcu<\/dt><dd data-refund>[^<]*Gotovina/);
    assert.doesNotMatch(stornoPage.body, /Primljeno gotovinom|Za vratiti/);
    const invoicePage = await get(staff, `/hub/sales/${sale.json().data.id}`);
    assert.match(invoicePage.body, /data-refund/);

    // Admins see every drawer open now.
    const adminPage = await get(admin, '/hub/drawer');
    assert.match(adminPage.body, /Sve otvorene blagajne/);
  });
});
