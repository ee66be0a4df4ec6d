// test-engines: both
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, createTenant, type TestApp } from '../../support/test-app.ts';
import { assertProblem, hubPostHeaders } from '../../support/http-helpers.ts';
import { adminCall, assignCustomer } from '../../support/sales-helpers.ts';
import { failuresOf, validateEInvoices } from '../../support/einvoice-validation.ts';
import type { DemoCompany } from '../../../src/modules/demo/demo-company.ts';

/**
 * Issue 32 item 4: payment terms per customer with a company default. The days fix the invoice's
 * due date when it is issued (BT-9) and are stated in the e-invoice (BT-20), which still passes
 * EN 16931 and HR-CIUS.
 */
const first = (xml: string, name: string) => xml.match(new RegExp(`<${name}\\b[^>]*>([^<]*)</${name}>`))?.[1];

describe('payment terms: per customer, the company default otherwise', () => {
  let t: TestApp;
  let d: DemoCompany;

  before(async () => {
    t = await createTestApp({}, { clock: { now: () => new Date('2026-05-04T08:00:00.000Z') } });
    d = await createTenant(t.c);
  });
  after(async () => {
    await t.close();
  });

  async function invoiceFor(customer: Record<string, unknown>) {
    const q = await adminCall(t.app, d.adminToken, 'POST', '/quotations', {
      customer: { name: 'Kupac' },
      lines: [{ productId: d.products[0]!.id, unitId: d.products[0]!.units[0]!.id, quantity: 2 }],
    });
    assert.equal(q.statusCode, 201, q.body);
    const customerId = await assignCustomer(t.app, d, 'quotations', q.json().data.id, customer);
    const sale = await adminCall(t.app, d.adminToken, 'POST', `/quotations/${q.json().data.id}/convert`, {});
    assert.equal(sale.statusCode, 201, sale.body);
    const xml = async (syntax: string) =>
      (await adminCall(t.app, d.adminToken, 'GET', `/sales/${sale.json().data.id}/e-invoice?syntax=${syntax}`)).body;
    return { sale: sale.json().data, customerId, ubl: await xml('ubl'), cii: await xml('cii') };
  }

  test("15 days by default; a company default and a customer's own terms set the due date, BT-9 and BT-20", async () => {
    const settings = await adminCall(t.app, d.adminToken, 'GET', '/settings');
    assert.equal(settings.json().data.paymentTermsDays, 15);
    const before = await invoiceFor({});
    assert.equal(before.sale.dueDate, '2026-05-19');

    const patched = await adminCall(t.app, d.adminToken, 'PATCH', '/settings', { paymentTermsDays: 20 });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.equal(patched.json().data.paymentTermsDays, 20);
    const byDefault = await invoiceFor({});
    assert.equal(byDefault.sale.dueDate, '2026-05-24');
    const own = await invoiceFor({ paymentTermsDays: 30 });
    assert.equal(own.sale.dueDate, '2026-06-03');
    const customer = await adminCall(t.app, d.adminToken, 'GET', `/customers/${own.customerId}`);
    assert.equal(customer.json().data.paymentTermsDays, 30);

    // BT-9 and BT-20 in UBL and CII.
    assert.equal(first(own.ubl, 'cbc:DueDate'), '2026-06-03');
    assert.match(own.ubl, /<cac:PaymentTerms><cbc:Note>Rok plaćanja: 30 dana\.<\/cbc:Note><\/cac:PaymentTerms>/);
    assert.match(
      own.cii,
      /<ram:SpecifiedTradePaymentTerms><ram:Description>Rok plaćanja: 30 dana\.<\/ram:Description><ram:DueDateDateTime><udt:DateTimeString format="102">20260603</,
    );
    assert.match(byDefault.ubl, /<cbc:Note>Rok plaćanja: 20 dana\.<\/cbc:Note>/);

    // An invoice issued keeps its due date when the terms change later.
    const changed = await adminCall(t.app, d.adminToken, 'PATCH', `/customers/${own.customerId}`, {
      paymentTermsDays: 0,
    });
    assert.equal(changed.statusCode, 200, changed.body);
    assert.equal(changed.json().data.paymentTermsDays, 0);
    const again = await adminCall(t.app, d.adminToken, 'GET', `/sales/${own.sale.id}`);
    assert.equal(again.json().data.dueDate, '2026-06-03');

    const reports = await validateEInvoices([
      { name: 'own.ubl', xml: own.ubl },
      { name: 'own.cii', xml: own.cii },
      { name: 'default.ubl', xml: byDefault.ubl },
    ]);
    for (const report of reports) assert.ok(report.ok, `${report.file}:\n${failuresOf(report)}`);
    assert.deepEqual(reports[0]!.checks, ['xsd:ubl-2.1+hr', 'en16931-ubl', 'hr-cius']);
  });

  test('terms are whole days from 0 to 365: anything else is a 400 naming the field, nothing written', async () => {
    for (const paymentTermsDays of [-1, 366, 1.5]) {
      const bad = assertProblem(
        await adminCall(t.app, d.adminToken, 'POST', '/customers', { kind: 'business', name: 'X', paymentTermsDays }),
        400,
        'validation_failed',
      );
      assert.ok(bad.details.paymentTermsDays, JSON.stringify(bad));
      const settings = assertProblem(
        await adminCall(t.app, d.adminToken, 'PATCH', '/settings', { paymentTermsDays }),
        400,
        'validation_failed',
      );
      assert.ok(settings.details.paymentTermsDays, JSON.stringify(settings));
    }
    assert.equal((await adminCall(t.app, d.adminToken, 'GET', '/settings')).json().data.paymentTermsDays, 20);
    // The service bounds it too (the hub and the CLI call it without the API's schema).
    await assert.rejects(t.c.companies.updateSettings(d.companyId, { paymentTermsDays: 1000 }), /validation|invalid/i);
  });
});

describe('payment terms in the hub: the company page and the customer form', () => {
  let t: TestApp;
  let d: DemoCompany;
  let headers: Record<string, string>;
  const form = { 'content-type': 'application/x-www-form-urlencoded' };

  before(async () => {
    t = await createTestApp();
    d = await createTenant(t.c, { passwords: true });
    const admin = d.users.find((u) => u.role === 'admin')!;
    headers = await hubPostHeaders(t.app, t.c, admin.email, admin.password!);
  });
  after(async () => {
    await t.close();
  });

  test("labelled in the reader's language, saved, and refused in place when not whole days", async () => {
    const company = await t.app.inject({ method: 'GET', url: '/hub/company', headers });
    assert.match(
      company.body,
      /<label for="payment-terms">Rok plaćanja virmanom \(dana, ako kupac nema svoj\)<\/label>/,
    );
    assert.match(company.body, /name="paymentTermsDays"[^>]*value="15"/);
    const fresh = await t.app.inject({ method: 'GET', url: '/hub/customers/new', headers });
    assert.match(fresh.body, /Rok plaćanja \(dana; prazno: kao za tvrtku\)/);

    const saved = await t.app.inject({
      method: 'POST',
      url: '/hub/customers',
      headers: { ...headers, ...form },
      payload: 'kind=business&name=Gradnja+d.o.o.&paymentTermsDays=45',
    });
    assert.equal(saved.statusCode, 303, saved.body.slice(0, 300));
    const id = String(saved.headers.location).match(/customers\/(cus_\w+)/)![1]!;
    assert.equal((await t.c.customers.get(d.companyId, id)).paymentTermsDays, 45);

    const refused = await t.app.inject({
      method: 'POST',
      url: `/hub/customers/${id}`,
      headers: { ...headers, ...form },
      payload: 'kind=business&name=Gradnja+d.o.o.&paymentTermsDays=400',
    });
    assert.equal(refused.statusCode, 400);
    assert.match(
      refused.body,
      /aria-invalid="true"[^>]*name="paymentTermsDays"|name="paymentTermsDays"[^>]*aria-invalid="true"/,
    );
    assert.equal((await t.c.customers.get(d.companyId, id)).paymentTermsDays, 45);
  });
});
