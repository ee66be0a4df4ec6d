// test-engines: both
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { createTenant, createTestApp, type TestApp } from '../../support/test-app.ts';
import { assertProblem, hubPostHeaders, userOfRole } from '../../support/http-helpers.ts';
import { adminCall, newOib } from '../../support/sales-helpers.ts';
import type { DemoCompany } from '../../../src/modules/demo/demo-company.ts';

/**
 * VAT and wording (issue 32, item 7): a new product takes the company's standard rate, never a
 * 0 % one by accident; a 0 % rate needs its exemption reason; German exports call a credit note
 * "Rechnungskorrektur", never "Gutschrift", and never call an OIB "USt-IdNr."; the book of issued
 * invoices carries the buyer's address and the exempt amounts in columns of their own.
 */
describe('VAT rates, the book of issued invoices, German wording', () => {
  let t: TestApp;
  let d: DemoCompany;
  let exemptRateId: string;

  before(async () => {
    t = await createTestApp();
    d = await createTenant(t.c, { passwords: true });
  });
  after(() => t.close());

  test('a 0 % rate needs its exemption reason, on creation and on change', async () => {
    const bad = assertProblem(
      await adminCall(t.app, d.adminToken, 'POST', '/tax-rates', { name: 'Nula', rate: '0' }),
      400,
      'validation_failed',
    );
    assert.ok(bad.details.exemptionReason, JSON.stringify(bad.details));
    const rates = (await adminCall(t.app, d.adminToken, 'GET', '/tax-rates')).json().data;
    const reduced = rates.find((r: { rate: string }) => r.rate === '5');
    assertProblem(
      await adminCall(t.app, d.adminToken, 'PATCH', `/tax-rates/${reduced.id}`, { rate: '0' }),
      400,
      'validation_failed',
    );
    const made = await adminCall(t.app, d.adminToken, 'POST', '/tax-rates', {
      name: 'Oslobođeno',
      rate: '0',
      exemptionReason: 'Oslobođeno PDV-a prema čl. 39. st. 1. t. g) Zakona o PDV-u',
    });
    assert.equal(made.statusCode, 201, made.body);
    exemptRateId = made.json().data.id;
  });

  test("a new product without a rate takes the company's standard rate, not the 0 % one listed first", async () => {
    const rates = (await adminCall(t.app, d.adminToken, 'GET', '/tax-rates')).json().data;
    assert.equal(rates[0].rate, '0', 'the 0 % rate is listed first');
    const made = await adminCall(t.app, d.adminToken, 'POST', '/products', {
      name: 'Valjak za boju 25 cm',
      units: [{ name: 'kom', price: '12.00' }],
    });
    assert.equal(made.statusCode, 201, made.body);
    const product = (await adminCall(t.app, d.adminToken, 'GET', `/products/${made.json().data.id}`)).json().data;
    assert.equal(product.taxRate, '25');

    // The hub's new-product form preselects the same rate.
    const admin = userOfRole(d, 'admin');
    const headers = await hubPostHeaders(t.app, t.c, admin.email, admin.password!);
    const form = await t.app.inject({
      method: 'GET',
      url: '/hub/catalog/products/new',
      headers: { cookie: headers.cookie! },
    });
    assert.equal(form.statusCode, 200);
    const standard = rates.find((r: { rate: string }) => r.rate === '25');
    assert.match(form.body, new RegExp(`<option value="${standard.id}" selected`), 'the 25 % rate is preselected');
    assert.doesNotMatch(form.body, new RegExp(`<option value="${exemptRateId}" selected`));
  });

  test('the book lists buyer address and exempt amounts; in German a credit note is a Rechnungskorrektur', async () => {
    const course = await adminCall(t.app, d.adminToken, 'POST', '/products', {
      name: 'Tečaj bojanja',
      taxRateId: exemptRateId,
      units: [{ name: 'sat', price: '40.00' }],
    });
    assert.equal(course.statusCode, 201, course.body);
    const customer = await adminCall(t.app, d.adminToken, 'POST', '/customers', {
      kind: 'business',
      name: 'Kovač obrt',
      taxId: newOib(),
      address: { street: 'Vlaška 12', postalCode: '10000', city: 'Zagreb', country: 'HR' },
    });
    assert.equal(customer.statusCode, 201, customer.body);
    const p = d.products[0]!;
    const sold = await adminCall(t.app, d.adminToken, 'POST', '/counter-sales', {
      customerId: customer.json().data.id,
      lines: [
        { productId: p.id, unitId: p.units[0]!.id, quantity: 1 },
        { productId: course.json().data.id, unitId: await unitOf(course.json().data.id), quantity: 2 },
      ],
      paymentMethod: 'card',
    });
    assert.equal(sold.statusCode, 201, sold.body);
    const sale = sold.json().data;
    const credited = await adminCall(t.app, d.adminToken, 'POST', `/sales/${sale.id}/credit-notes`, {
      lines: [{ lineId: sale.lines[1].id, quantity: '1' }],
      reason: 'Jedan sat otkazan.',
    });
    assert.equal(credited.statusCode, 201, credited.body);

    const day = sale.issuedAt.slice(0, 10);
    const range = `from=${day}&to=${day}`;
    const book = (await adminCall(t.app, d.adminToken, 'GET', `/reports/vat?${range}&view=book`)).json().data;
    const entry = book.entries.find((e: { saleId: string }) => e.saleId === sale.id);
    assert.equal(entry.customerAddress, 'Vlaška 12, 10000 Zagreb, HR');
    assert.equal(entry.exempt, '80.00', 'two hours of the exempt course, as the API writes money');

    const hr = await adminCall(t.app, d.adminToken, 'GET', `/reports/vat?${range}&view=book&format=csv`);
    const rows: string[][] = parse(hr.body, { bom: true, delimiter: ';' });
    const head = rows[0]!;
    for (const column of [
      'Red. br.',
      'Datum',
      'Broj računa',
      'Kupac',
      'Adresa (sjedište) kupca',
      'OIB kupca',
      'Oslobođeno: u tuzemstvu',
    ])
      assert.ok(head.includes(column), `the book has "${column}": ${head.join(' | ')}`);
    assert.ok(head.indexOf('Porezna osnovica 5 %') < head.indexOf('Porezna osnovica 25 %'), head.join(' | '));
    assert.ok(
      !head.some((h) => /^(Porezna osnovica|PDV) 0 %/.test(h)),
      'no base and VAT pair for the 0 % rate: its lines are the exempt column',
    );
    const row = rows.find((r) => r[head.indexOf('Broj računa')] === sale.invoiceNumber)!;
    assert.equal(row[head.indexOf('Adresa (sjedište) kupca')], 'Vlaška 12, 10000 Zagreb, HR');
    assert.equal(row[head.indexOf('Oslobođeno: u tuzemstvu')], '80,00');

    const de = await adminCall(t.app, d.adminToken, 'GET', `/reports/vat?${range}&view=book&format=csv&locale=de`);
    assert.equal(de.statusCode, 200, de.body);
    assert.doesNotMatch(de.body, /Gutschrift/);
    assert.doesNotMatch(de.body, /USt-IdNr/, 'the column of OIBs is not called USt-IdNr.');
    assert.match(de.body, /Rechnungskorrektur/);
    const sales = await adminCall(t.app, d.adminToken, 'GET', `/reports/sales?${range}&format=csv&locale=de`);
    assert.doesNotMatch(sales.body, /Gutschrift/);
  });

  async function unitOf(productId: string): Promise<string> {
    return (await adminCall(t.app, d.adminToken, 'GET', `/products/${productId}`)).json().data.units[0].id;
  }
});
