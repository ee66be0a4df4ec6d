// test-engines: both
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, createTenant, type TestApp } from '../../support/test-app.ts';
import { assertProblem, tokenForRole } from '../../support/http-helpers.ts';
import { pdfText } from '../../support/quote-helpers.ts';
import { adminCall } from '../../support/sales-helpers.ts';
import type { DemoCompany } from '../../../src/modules/demo/demo-company.ts';

/** Counter sales (issue 22): the invoice issued and paid in one request, the change computed. */
describe('admin: counter sales', () => {
  let t: TestApp;
  let demo: DemoCompany;
  let other: DemoCompany;
  let staff: string;
  let support: string;

  before(async () => {
    t = await createTestApp();
    demo = await createTenant(t.c);
    other = await createTenant(t.c);
    staff = await tokenForRole(t.c, demo, 'staff');
    support = await tokenForRole(t.c, demo, 'support');
  });
  after(async () => {
    await t.close();
  });

  const line = (i: number, quantity: number, extra: object = {}) => {
    const p = demo.products[i]!;
    return { productId: p.id, unitId: p.units[0]!.id, quantity, ...extra };
  };
  const cents = (s: string) => Math.round(Number(s) * 100);
  const count = async (table: 'sales' | 'sale_payments') =>
    Number(
      (
        await t.c.database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .where('company_id', '=', demo.companyId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  test('a walk-in pays cash: the invoice issued and paid, the change computed, sale.created and payment.recorded', async () => {
    const res = await adminCall(t.app, staff, 'POST', '/counter-sales', {
      lines: [line(0, 2, { discountPercent: 10 }), line(4, 1)],
      paymentMethod: 'cash',
      tendered: '50.00',
    });
    assert.equal(res.statusCode, 201, res.body);
    const sale = res.json().data;
    assert.equal(sale.kind, 'invoice');
    assert.ok(sale.invoiceNumber, 'a legal number');
    assert.equal(sale.status, 'paid');
    assert.equal(sale.balance, '0.00');
    assert.equal(sale.paymentMethod, 'cash');
    assert.equal(sale.source.type, 'counter');
    assert.equal(sale.source.id, sale.id);
    assert.equal(sale.customer.kind, 'walk_in');
    assert.equal(sale.lines[0].discountPercent, '10');
    assert.equal(sale.tendered, '50.00');
    assert.equal(cents(sale.change), 5000 - cents(sale.totals.withTax));
    assert.equal(sale.payments.length, 1);
    assert.equal(sale.payments[0].amount, sale.totals.withTax);
    assert.ok(sale.operator, 'the operator is the user');
    assert.equal(res.headers.location, `/api/v1/admin/sales/${sale.id}`);

    const events = await t.c.database.db
      .selectFrom('webhook_events')
      .select(['type', 'payload'])
      .where('company_id', '=', demo.companyId)
      .execute();
    const mine = events
      .map((e) => ({ type: e.type, data: JSON.parse(e.payload).data }))
      .filter((e) => e.data.saleId === sale.id);
    assert.deepEqual(mine.map((e) => e.type).sort(), ['payment.recorded', 'sale.created']);
    assert.equal(mine.find((e) => e.type === 'sale.created')!.data.source.type, 'counter');

    const pdf = await adminCall(t.app, staff, 'GET', `/sales/${sale.id}?format=pdf`);
    assert.equal(pdf.statusCode, 200);
    const text = await pdfText(pdf.rawPayload);
    assert.match(text, /Račun/);
    assert.match(text, /Popust 10/);
  });

  test('card, and a directory customer: paid, no change', async () => {
    const customer = await adminCall(t.app, staff, 'POST', '/customers', { kind: 'person', name: 'Ana Kovač' });
    const res = await adminCall(t.app, staff, 'POST', '/counter-sales', {
      lines: [line(1, 1)],
      paymentMethod: 'card',
      customerId: customer.json().data.id,
    });
    assert.equal(res.statusCode, 201, res.body);
    const sale = res.json().data;
    assert.equal(sale.status, 'paid');
    assert.equal(sale.customer.name, 'Ana Kovač');
    assert.equal(sale.change, null);
  });

  test("refused, with nothing written: too little cash, tendered with a card, another company's customer, a bad line, support", async () => {
    const [sales, payments] = [await count('sales'), await count('sale_payments')];
    const short = assertProblem(
      await adminCall(t.app, staff, 'POST', '/counter-sales', {
        lines: [line(0, 10)],
        paymentMethod: 'cash',
        tendered: '1.00',
      }),
      400,
    );
    assert.ok(short.details.tendered, JSON.stringify(short));
    const card = assertProblem(
      await adminCall(t.app, staff, 'POST', '/counter-sales', {
        lines: [line(0, 1)],
        paymentMethod: 'card',
        tendered: '100',
      }),
      400,
    );
    assert.ok(card.details.tendered);
    const foreign = await adminCall(t.app, other.adminToken, 'POST', '/customers', { kind: 'person', name: 'Tuđi' });
    const res = await adminCall(t.app, staff, 'POST', '/counter-sales', {
      lines: [line(0, 1)],
      paymentMethod: 'cash',
      customerId: foreign.json().data.id,
    });
    assert.equal(res.statusCode, 404, res.body);
    const bad = assertProblem(
      await adminCall(t.app, staff, 'POST', '/counter-sales', {
        lines: [{ productId: 'prd_nope', unitId: 'unt_nope', quantity: 1 }],
        paymentMethod: 'cash',
      }),
      400,
    );
    assert.ok(Object.keys(bad.details).some((k) => k.startsWith('lines[0]')));
    assertProblem(await adminCall(t.app, staff, 'POST', '/counter-sales', { lines: [], paymentMethod: 'cash' }), 400);
    assert.equal(
      (await adminCall(t.app, support, 'POST', '/counter-sales', { lines: [line(0, 1)], paymentMethod: 'cash' }))
        .statusCode,
      403,
    );
    assert.deepEqual([await count('sales'), await count('sale_payments')], [sales, payments]);
  });

  test('an Idempotency-Key retry answers the same sale, with its change, and sells once', async () => {
    const body = { lines: [line(0, 1)], paymentMethod: 'cash', tendered: '20' };
    const headers = { 'idempotency-key': 'counter-1' };
    const a = await adminCall(t.app, staff, 'POST', '/counter-sales', body, headers);
    const b = await adminCall(t.app, staff, 'POST', '/counter-sales', body, headers);
    assert.equal(a.statusCode, 201, a.body);
    assert.equal(b.json().data.id, a.json().data.id);
    assert.equal(b.json().data.change, a.json().data.change);
  });
});
