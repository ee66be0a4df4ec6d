// test-engines: both
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, createTenant, type TestApp } from '../../support/test-app.ts';
import { assertProblem, tokenForRole } from '../../support/http-helpers.ts';
import { pdfText } from '../../support/quote-helpers.ts';
import { adminCall, assignCustomer, newOrder, newQuotation } from '../../support/sales-helpers.ts';
import type { DemoCompany } from '../../../src/modules/demo/demo-company.ts';

/** Sales: the list and its filters, one as JSON or PDF, payments up to paid and not past it. */
describe('admin sales', () => {
  let t: TestApp;
  let demo: DemoCompany;
  let other: DemoCompany;
  let staff: string;
  let support: string;
  let now = Date.parse('2026-05-04T08:00:00.000Z');

  async function saleFromQuotation(d: DemoCompany, opts: { location?: number; taxId?: string } = {}) {
    const q = await newQuotation(t.app, d, { location: opts.location });
    const customerId = await assignCustomer(t.app, d, 'quotations', q.id);
    const res = await adminCall(t.app, d.adminToken, 'POST', `/quotations/${q.id}/convert`, {});
    assert.equal(res.statusCode, 201, res.body);
    return { sale: res.json().data, quotation: q, customerId };
  }

  before(async () => {
    t = await createTestApp({}, { clock: { now: () => new Date(now) } });
    demo = await createTenant(t.c);
    other = await createTenant(t.c);
    staff = await tokenForRole(t.c, demo, 'staff');
    support = await tokenForRole(t.c, demo, 'support');
  });
  after(async () => {
    await t.close();
  });

  test('payments: unpaid → partially_paid → paid, exact to the cent; overpaying is a 400 naming amount', async () => {
    const { sale } = await saleFromQuotation(demo);
    assert.equal(sale.status, 'unpaid');
    const total = sale.totals.withTax as string;
    const cents = Math.round(Number(total) * 100);
    const first = await adminCall(t.app, staff, 'POST', `/sales/${sale.id}/payments`, {
      method: 'cash',
      amount: '10.01',
    });
    assert.equal(first.statusCode, 201, first.body);
    assert.equal(first.json().data.status, 'partially_paid');
    assert.equal(first.json().data.paid, '10.01');
    const rest = ((cents - 1001) / 100).toFixed(2);
    assert.equal(first.json().data.balance, rest);

    const over = assertProblem(
      await adminCall(t.app, staff, 'POST', `/sales/${sale.id}/payments`, {
        method: 'card',
        amount: ((cents - 1000) / 100).toFixed(2),
      }),
      400,
      'validation_failed',
    );
    // The amount is written the English way in the API's text (grouped, two decimals); the key carries the number.
    const written = new Intl.NumberFormat('en', { minimumFractionDigits: 2 }).format(Number(rest));
    assert.ok(over.details.amount[0].includes(`balance of ${written} EUR.`), over.details.amount[0]);
    // Beside the English text, each message's key and parameters, for saying it in another language.
    assert.deepEqual(over.detailKeys, {
      amount: [{ key: 'error.payment.overBalance', params: { balance: Number(rest), currency: 'EUR' } }],
    });
    assert.deepEqual(over.detailKey, { key: 'error.payment.overBalanceSummary', params: {} });
    for (const amount of ['0', '0.00', '1.234', '-5', 'abc', '']) {
      const bad = assertProblem(
        await adminCall(t.app, staff, 'POST', `/sales/${sale.id}/payments`, { method: 'cash', amount }),
        400,
        'validation_failed',
      );
      assert.ok(bad.details.amount, amount);
    }
    assertProblem(
      await adminCall(t.app, staff, 'POST', `/sales/${sale.id}/payments`, { method: 'cheque', amount: '1.00' }),
      400,
      'validation_failed',
    );

    const paid = await adminCall(t.app, staff, 'POST', `/sales/${sale.id}/payments`, {
      method: 'bank_transfer',
      amount: rest,
    });
    assert.equal(paid.statusCode, 201, paid.body);
    const data = paid.json().data;
    assert.equal(data.status, 'paid');
    assert.equal(data.paid, total);
    assert.equal(data.balance, '0.00');
    assert.deepEqual(
      data.payments.map((p: { method: string; amount: string }) => [p.method, p.amount]),
      [
        ['cash', '10.01'],
        ['bank_transfer', rest],
      ],
    );
    const none = assertProblem(
      await adminCall(t.app, staff, 'POST', `/sales/${sale.id}/payments`, { method: 'cash', amount: '0.01' }),
      400,
      'validation_failed',
    );
    assert.match(none.details.amount[0], /paid in full/);
    assertProblem(
      await adminCall(t.app, support, 'POST', `/sales/${sale.id}/payments`, { method: 'cash', amount: '0.01' }),
      403,
      'forbidden',
    );
  });

  test('concurrent payments never pay more than the total', async () => {
    const { sale } = await saleFromQuotation(demo);
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const half = ((Math.round(Number(sale.totals.withTax) * 100) / 100) * 0.6).toFixed(2);
    const pay = () =>
      fetch(`${address}/api/v1/admin/sales/${sale.id}/payments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${staff}`, 'content-type': 'application/json' },
        body: JSON.stringify({ method: 'card', amount: half }),
        signal: AbortSignal.timeout(20_000),
      }).then((r) => r.status);
    assert.deepEqual((await Promise.all([pay(), pay()])).sort(), [201, 400]);
    const got = (await adminCall(t.app, staff, 'GET', `/sales/${sale.id}`)).json().data;
    assert.equal(got.paid, half);
    assert.equal(got.payments.length, 1);
  });

  test('the list: newest first, filtered by status, location, customer and date range; keyset pages', async () => {
    const a = await saleFromQuotation(demo, { location: 1 });
    now += 3_600_000;
    const b = await saleFromQuotation(demo);
    await adminCall(t.app, staff, 'POST', `/sales/${b.sale.id}/payments`, { method: 'cash', amount: '1.00' });
    const o = await newOrder(t.app, demo);
    await adminCall(t.app, staff, 'POST', `/orders/${o.id}/accept`);
    await assignCustomer(t.app, demo, 'orders', o.id);
    now += 3_600_000;
    const c = (await adminCall(t.app, staff, 'POST', `/orders/${o.id}/convert`)).json().data;
    const ids = async (query: string) => {
      const res = await adminCall(t.app, support, 'GET', `/sales?${query}`);
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data.map((s: { id: string }) => s.id);
    };
    assert.deepEqual(await ids('limit=3'), [c.id, b.sale.id, a.sale.id]);
    const page1 = (await adminCall(t.app, support, 'GET', '/sales?limit=2')).json();
    const page2 = (await adminCall(t.app, support, 'GET', `/sales?limit=2&cursor=${page1.nextCursor}`)).json();
    assert.deepEqual(
      [...page1.data, ...page2.data].slice(0, 3).map((s: { id: string }) => s.id),
      [c.id, b.sale.id, a.sale.id],
    );
    assert.ok((await ids('status=partially_paid')).includes(b.sale.id));
    assert.ok(!(await ids('status=unpaid')).includes(b.sale.id));
    assert.deepEqual(await ids(`locationId=${demo.locations[1]!.id}`), [a.sale.id]);
    assert.deepEqual(await ids(`customerId=${b.customerId}`), [b.sale.id]);
    const from = new Date(Date.parse(b.sale.createdAt)).toISOString();
    const to = new Date(Date.parse(c.createdAt)).toISOString();
    assert.deepEqual(await ids(`from=${from}&to=${to}`), [b.sale.id], 'from inclusive, to exclusive');
    assertProblem(await adminCall(t.app, support, 'GET', '/sales?from=yesterday'), 400, 'validation_failed');
    assertProblem(await adminCall(t.app, support, 'GET', '/sales?status=open'), 400, 'validation_failed');
  });

  test("the PDF: the quotation's layout titled as a sale, naming its source, with its lines and notes", async () => {
    const { sale, quotation } = await saleFromQuotation(demo);
    for (const res of [
      await adminCall(t.app, support, 'GET', `/sales/${sale.id}?format=pdf`),
      await adminCall(t.app, support, 'GET', `/sales/${sale.id}`, undefined, { accept: 'application/pdf' }),
    ]) {
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'application/pdf');
      assert.match(String(res.headers['content-disposition']), new RegExp(sale.number));
      const text = await pdfText(res.rawPayload);
      // The demo company prints in Croatian: a sale is issued as a "Račun" (issue 20), "Izvorni dokument" its source.
      assert.match(text, new RegExp(`Račun ${sale.invoiceNumber.replaceAll('/', '\\/')}`));
      assert.match(text, new RegExp(`Izvorni dokument: ${quotation.number}`));
      assert.match(text, /Kovač obrt/);
      assert.match(text, /Colour: RAL 9010 - Reinweiß/);
      assert.doesNotMatch(text, /Vrijedi do/, 'a sale has no validity');
      // Issue 20: the "poziv na broj" of the text is the one the HUB-3 barcode carries.
      const reference = /Poziv na broj: (HR00 [\d-]+)/.exec(text.replace(/\s+/g, ' '));
      assert.ok(reference, text);
      assert.match(text.replace(/\s+/g, ' '), new RegExp(`poziv na broj: ${reference[1]}\\.`));
    }
  });

  test("tenancy: another company's sale is not found, and never listed", async () => {
    const { sale } = await saleFromQuotation(other);
    assertProblem(await adminCall(t.app, demo.adminToken, 'GET', `/sales/${sale.id}`), 404, 'not_found');
    assertProblem(await adminCall(t.app, demo.adminToken, 'GET', `/sales/${sale.id}?format=pdf`), 404, 'not_found');
    assertProblem(
      await adminCall(t.app, demo.adminToken, 'POST', `/sales/${sale.id}/payments`, { method: 'cash', amount: '1.00' }),
      404,
      'not_found',
    );
    assert.ok(
      !(await adminCall(t.app, demo.adminToken, 'GET', '/sales?limit=100'))
        .json()
        .data.some((s: { id: string }) => s.id === sale.id),
    );
    assert.equal((await adminCall(t.app, other.adminToken, 'GET', `/sales/${sale.id}`)).json().data.paid, '0.00');
  });
});
