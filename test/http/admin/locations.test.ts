// test-engines: both
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTenant, createTestApp, type TestApp } from '../../support/test-app.ts';
import { assertProblem, hubPostHeaders, tokenForRole, userOfRole } from '../../support/http-helpers.ts';
import { adminCall } from '../../support/sales-helpers.ts';
import { pdfText } from '../../support/quote-helpers.ts';
import type { DemoCompany } from '../../../src/modules/demo/demo-company.ts';

/**
 * Locations as admins keep them (issue 32, item 5): added, renamed and re-addressed with their
 * business premises and device labels; the counter and new hub quotations choose one and
 * remember it per user; each document prints its issuing location's name, address and the
 * premises label its number carries; a label changed later never changes an issued number.
 */
describe('locations: added, renamed, re-addressed; chosen at the counter; printed', () => {
  let t: TestApp;
  let d: DemoCompany;
  let other: DemoCompany;

  before(async () => {
    t = await createTestApp();
    d = await createTenant(t.c, { passwords: true });
    other = await createTenant(t.c);
  });
  after(() => t.close());

  const sell = async (locationId: string) => {
    const p = d.products[0]!;
    const res = await adminCall(t.app, d.adminToken, 'POST', '/counter-sales', {
      lines: [{ productId: p.id, unitId: p.units[0]!.id, quantity: 1 }],
      paymentMethod: 'card',
      locationId,
    });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data;
  };
  const printed = async (saleId: string, layout: string) => {
    const res = await adminCall(t.app, d.adminToken, 'GET', `/sales/${saleId}?format=pdf&layout=${layout}`);
    assert.equal(res.statusCode, 200, res.body);
    return (await pdfText(res.rawPayload)).replace(/\s+/g, ' ');
  };

  test('an admin adds a location; bad fields are named and nothing is written', async () => {
    const before = (await adminCall(t.app, d.adminToken, 'GET', '/locations')).json().data.length;
    const bad = assertProblem(
      await adminCall(t.app, d.adminToken, 'POST', '/locations', {
        name: 'Varaždin',
        code: 'ZG1',
        fiscalPremises: 'V Z',
        fiscalDevice: '01',
      }),
      400,
      'validation_failed',
    );
    assert.deepEqual(Object.keys(bad.details).sort(), ['code', 'fiscalDevice', 'fiscalPremises']);
    assert.equal((await adminCall(t.app, d.adminToken, 'GET', '/locations')).json().data.length, before);

    const staff = await tokenForRole(t.c, d, 'staff');
    assert.equal(
      (await adminCall(t.app, staff, 'POST', '/locations', { name: 'X', code: 'X1' })).statusCode,
      403,
      'staff do not manage locations',
    );

    const made = await adminCall(t.app, d.adminToken, 'POST', '/locations', {
      name: 'Varaždin – Centar',
      code: 'vz1',
      address: 'Kapucinski trg 5, 42000 Varaždin',
      fiscalPremises: 'VZ1',
      fiscalDevice: '2',
    });
    assert.equal(made.statusCode, 201, made.body);
    const location = made.json().data;
    assert.equal(made.headers.location, `/api/v1/admin/locations/${location.id}`);
    assert.deepEqual(
      { ...location, id: undefined },
      {
        id: undefined,
        name: 'Varaždin – Centar',
        code: 'VZ1',
        address: 'Kapucinski trg 5, 42000 Varaždin',
        fiscalPremises: 'VZ1',
        fiscalDevice: '2',
      },
    );
    // Another company's location is not found.
    assertProblem(
      await adminCall(t.app, other.adminToken, 'PATCH', `/locations/${location.id}`, { name: 'Mine' }),
      404,
      'not_found',
    );
  });

  test("a document prints its location's name, address and premises; a later change keeps issued numbers", async () => {
    const location = (await adminCall(t.app, d.adminToken, 'GET', '/locations'))
      .json()
      .data.find((l: { code: string }) => l.code === 'VZ1');
    const sale = await sell(location.id);
    assert.equal(sale.invoiceNumber, '1/VZ1/2');
    for (const layout of ['a4', 'receipt']) {
      const text = await printed(sale.id, layout);
      assert.match(text, /Varaždin – Centar \(VZ1\)/, `${layout}:\n${text}`);
      assert.match(text, /Kapucinski trg 5, 42000 Varaždin/, layout);
      assert.doesNotMatch(text, /Zagreb – Ilica/, `${layout} does not print the first location`);
    }

    const renamed = await adminCall(t.app, d.adminToken, 'PATCH', `/locations/${location.id}`, {
      name: 'Varaždin – Kapucinski trg',
      address: 'Kapucinski trg 7, 42000 Varaždin',
      fiscalPremises: 'VZ2',
      fiscalDevice: '3',
    });
    assert.equal(renamed.statusCode, 200, renamed.body);
    assert.equal(renamed.json().data.name, 'Varaždin – Kapucinski trg');
    const again = (await adminCall(t.app, d.adminToken, 'GET', `/sales/${sale.id}`)).json().data;
    assert.equal(again.invoiceNumber, '1/VZ1/2', 'an issued number never changes');
    assert.match(await printed(sale.id, 'a4'), /\(VZ1\)/, 'the print names the premises the number was issued with');
    const next = await sell(location.id);
    // The location's counter runs on under its new labels (numbering is per location and year).
    assert.equal(next.invoiceNumber, '2/VZ2/3');
    assert.match(await printed(next.id, 'a4'), /Varaždin – Kapucinski trg \(VZ2\).*Kapucinski trg 7/);

    assertProblem(
      await adminCall(t.app, d.adminToken, 'PATCH', `/locations/${location.id}`, {
        name: ' ',
        address: 'x'.repeat(301),
      }),
      400,
      'validation_failed',
    );
  });

  test('a second till of one premises: a second location, same premises, another device; one run of numbers (mode P), a drawer and day report each', async () => {
    const shop = await createTenant(t.c);
    const till1 = shop.locations[0]!;
    const sellAt = async (locationId: string) => {
      const p = shop.products[0]!;
      const res = await adminCall(t.app, shop.adminToken, 'POST', '/counter-sales', {
        lines: [{ productId: p.id, unitId: p.units[0]!.id, quantity: 1 }],
        paymentMethod: 'cash',
        locationId,
      });
      assert.equal(res.statusCode, 201, res.body);
      return res.json().data as { invoiceNumber: string };
    };
    const made = await adminCall(t.app, shop.adminToken, 'POST', '/locations', {
      name: 'Zagreb – Ilica, blagajna 2',
      code: 'ZG1B',
      fiscalPremises: 'ZG1',
      fiscalDevice: '2',
    });
    assert.equal(made.statusCode, 201, made.body);
    const till2 = made.json().data.id as string;
    // The same till twice is refused at the device label, on adding and on relabelling.
    const twice = await adminCall(t.app, shop.adminToken, 'POST', '/locations', {
      name: 'Blagajna 3',
      code: 'ZG1C',
      fiscalPremises: 'ZG1',
      fiscalDevice: '2',
    });
    assertProblem(twice, 400, 'validation_failed');
    assert.match(twice.json().details.fiscalDevice[0], /Zagreb – Ilica, blagajna 2.*ZG1 \/ 2/);
    const relabel = await adminCall(t.app, shop.adminToken, 'PATCH', `/locations/${till2}`, { fiscalDevice: '1' });
    assertProblem(relabel, 400, 'validation_failed');
    assert.ok(relabel.json().details.fiscalDevice);

    const drawer = (id: string, path: string) => `/locations/${id}/drawer${path}`;
    for (const id of [till1.id, till2])
      assert.equal(
        (await adminCall(t.app, shop.adminToken, 'POST', drawer(id, '/open'), { float: '50.00' })).statusCode,
        201,
      );
    // One sequence for the premises across its devices (OznSlijed P).
    const numbers = [];
    for (const id of [till1.id, till2, till1.id, till2]) numbers.push((await sellAt(id)).invoiceNumber);
    assert.deepEqual(numbers, ['1/ZG1/1', '2/ZG1/2', '3/ZG1/1', '4/ZG1/2']);

    const closed = await adminCall(t.app, shop.adminToken, 'POST', drawer(till2, '/close'), { counted: '50.00' });
    assert.equal(closed.statusCode, 201, closed.body);
    const report = closed.json().data;
    assert.deepEqual([report.premises, report.device], ['ZG1', '2']);
    assert.deepEqual(report.documents, { first: '2/ZG1/2', last: '4/ZG1/2', count: 2 }, 'its own receipts only');
    const first = (await adminCall(t.app, shop.adminToken, 'GET', drawer(till1.id, ''))).json().data;
    assert.deepEqual([first.premises, first.device, first.documents.count], ['ZG1', '1', 2]);
  });

  test('the hub counter offers the locations and opens where this user last sold', async () => {
    const staff = userOfRole(d, 'staff');
    const headers = await hubPostHeaders(t.app, t.c, staff.email, staff.password!);
    const page = async () =>
      (await t.app.inject({ method: 'GET', url: '/hub/counter', headers: { cookie: headers.cookie! } })).body;
    const vz = (await adminCall(t.app, d.adminToken, 'GET', '/locations'))
      .json()
      .data.find((l: { code: string }) => l.code === 'VZ1');
    const first = await page();
    assert.match(first, /<select id="location" name="locationId">/);
    assert.match(first, new RegExp(`<option value="${d.locations[0]!.id}" selected>`), 'the first location at first');

    const p = d.products[0]!;
    const sold = await t.app.inject({
      method: 'POST',
      url: '/hub/counter',
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        locationId: vz.id,
        productId: p.id,
        unitId: p.units[0]!.id,
        quantity: '1',
        paymentMethod: 'cash',
        tendered: '',
      }).toString(),
    });
    assert.equal(sold.statusCode, 303, sold.body);
    const saleId = /\/hub\/sales\/([^?]+)/.exec(String(sold.headers.location))![1]!;
    const sale = (await adminCall(t.app, d.adminToken, 'GET', `/sales/${saleId}`)).json().data;
    assert.match(sale.invoiceNumber, /^\d+\/VZ2\/3$/);
    assert.match(await page(), new RegExp(`<option value="${vz.id}" selected>`), 'remembered for this user');
    const quotationForm = (
      await t.app.inject({ method: 'GET', url: '/hub/quotations/new', headers: { cookie: headers.cookie! } })
    ).body;
    assert.match(quotationForm, new RegExp(`<option value="${vz.id}" selected>`), 'new quotations open there too');
  });

  test('an admin adds and renames a location in the hub', async () => {
    const admin = userOfRole(d, 'admin');
    const headers = await hubPostHeaders(t.app, t.c, admin.email, admin.password!);
    const form = { ...headers, 'content-type': 'application/x-www-form-urlencoded' };
    const added = await t.app.inject({
      method: 'POST',
      url: '/hub/company/locations',
      headers: form,
      payload: new URLSearchParams({
        code: 'OS1',
        name: 'Osijek',
        address: 'Trg Ante Starčevića 1, 31000 Osijek',
        fiscalPremises: 'OS1',
        fiscalDevice: '1',
      }).toString(),
    });
    assert.equal(added.statusCode, 303, added.body);
    const os = (await adminCall(t.app, d.adminToken, 'GET', '/locations'))
      .json()
      .data.find((l: { code: string }) => l.code === 'OS1');
    assert.equal(os.address, 'Trg Ante Starčevića 1, 31000 Osijek');
    const bad = await t.app.inject({
      method: 'POST',
      url: `/hub/company/locations/${os.id}`,
      headers: form,
      payload: new URLSearchParams({
        name: 'Osijek – Centar',
        address: '',
        fiscalPremises: 'OS 1',
        fiscalDevice: '1',
      }).toString(),
    });
    assert.equal(bad.statusCode, 400);
    assert.match(bad.body, /role="alert"/);
    const renamed = await t.app.inject({
      method: 'POST',
      url: `/hub/company/locations/${os.id}`,
      headers: form,
      payload: new URLSearchParams({
        name: 'Osijek – Centar',
        address: '',
        fiscalPremises: 'OS1',
        fiscalDevice: '1',
      }).toString(),
    });
    assert.equal(renamed.statusCode, 303, renamed.body);
    const after = (await adminCall(t.app, d.adminToken, 'GET', '/locations'))
      .json()
      .data.find((l: { id: string }) => l.id === os.id);
    assert.deepEqual([after.name, after.address], ['Osijek – Centar', null]);
  });

  test('a Croatian quotation with payment data says OVO NIJE FISKALIZIRANI RAČUN (Zakon o fiskalizaciji čl. 29)', async () => {
    const made = await adminCall(t.app, d.adminToken, 'POST', '/quotations', {
      customer: { name: 'Ivana Perić' },
      lines: [{ productId: d.products[0]!.id, unitId: d.products[0]!.units[0]!.id, quantity: 1 }],
    });
    assert.equal(made.statusCode, 201, made.body);
    const pdf = await adminCall(t.app, d.adminToken, 'GET', `/quotations/${made.json().data.id}?format=pdf`);
    assert.equal(pdf.statusCode, 200, pdf.body);
    const text = (await pdfText(pdf.rawPayload)).replace(/\s+/g, ' ');
    assert.match(text, /OVO NIJE FISKALIZIRANI RAČUN/, text);
    assert.match(text, /IBAN/, 'it carries payment data');
  });
});
