// test-engines: both
import { after, before, describe, test } from 'node:test';
import { readWorkbook } from '../support/xlsx.ts';
import assert from 'node:assert/strict';
import { createTestApp, createTenant, type TestApp } from '../support/test-app.ts';
import { adminCall, newOib, newOrder, newQuotation } from '../support/sales-helpers.ts';
import type { DemoCompany } from '../../src/modules/demo/demo-company.ts';

/**
 * Find and export (issue 34, item 7): the sales list searched by number, customer, OIB, amount and
 * period, as counter staff type them, and the export of exactly what is shown, CSV and XLSX.
 */
describe('the sales list: search and export', () => {
  let t: TestApp;
  let demo: DemoCompany;
  let cookie: string;
  const sales: Array<{ id: string; invoiceNumber: string; number: string; total: string }> = [];
  let oib: string;

  before(async () => {
    t = await createTestApp();
    demo = await createTenant(t.c, { passwords: true });
    const staff = demo.users.find((u) => u.role === 'staff')!;
    const { token } = await t.c.accounts.signIn(staff.email, staff.password!);
    cookie = `portico_session=${token}`;
    oib = newOib();
    const made = await adminCall(t.app, demo.adminToken, 'POST', '/customers', {
      kind: 'business',
      name: 'Ličilački obrt Šimić',
      taxId: oib,
      address: { street: 'Ilica 1', postalCode: '10000', city: 'Zagreb', country: 'HR' },
    });
    assert.equal(made.statusCode, 201, made.body);
    const p = demo.products[0]!;
    for (const [quantity, customerId] of [
      [1, made.json().data.id],
      [2, undefined],
      [3, undefined],
    ] as const) {
      const res = await adminCall(t.app, demo.adminToken, 'POST', '/counter-sales', {
        lines: [{ productId: p.id, unitId: p.units[0]!.id, quantity }],
        paymentMethod: 'card',
        ...(customerId ? { customerId } : {}),
      });
      assert.equal(res.statusCode, 201, res.body);
      const s = res.json().data;
      sales.push({ id: s.id, invoiceNumber: s.invoiceNumber, number: s.number, total: s.totals.withTax });
    }
  });
  after(async () => {
    await t.close();
  });

  const shown = async (query: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/hub/sales?${query}`, headers: { cookie } });
    assert.equal(res.statusCode, 200, res.body.slice(0, 500));
    return sales.filter((s) => res.body.includes(`/hub/sales/${s.id}"`)).map((s) => s.id);
  };

  test('by OIB digits, a part of the name in any case, the number, the legal number, the amount, the day', async () => {
    assert.deepEqual(await shown(`q=${oib.slice(2, 9)}`), [sales[0]!.id], 'seven digits of the OIB');
    assert.deepEqual(await shown(`q=${encodeURIComponent('OBRT ŠIMIĆ'.toLowerCase())}`), [sales[0]!.id], 'the name');
    assert.deepEqual(await shown(`q=${encodeURIComponent(sales[1]!.number.toLowerCase())}`), [sales[1]!.id]);
    assert.deepEqual(await shown(`q=${encodeURIComponent(sales[2]!.invoiceNumber)}`), [sales[2]!.id]);
    const amount = sales[2]!.total.replace('.', ',');
    assert.deepEqual(
      await shown(`amount=${encodeURIComponent(amount)}`),
      [sales[2]!.id],
      'the gross total, typed with a comma',
    );
    const today = new Date().toISOString().slice(0, 10);
    assert.equal((await shown(`from=${today}&to=${today}`)).length, 3);
    assert.deepEqual(await shown('from=2020-01-01&to=2020-01-31'), []);
    assert.deepEqual(await shown('q=50%25'), [], 'a LIKE wildcard is text');
    const bad = await t.app.inject({ method: 'GET', url: '/hub/sales?amount=12%2C345', headers: { cookie } });
    assert.equal(bad.statusCode, 400);
    assert.match(bad.body, /id="amount"[^>]*aria-invalid="true"/);
    assert.match(bad.body, /value="12,345"/, 'what was typed stays');
  });

  test('quotations: by amount and period, and the export of what is shown', async () => {
    const a = await newQuotation(t.app, demo, { name: 'Ana Horvat' });
    const b = await newQuotation(t.app, demo, { name: 'Ivo Babić' });
    const shownQ = async (query: string) => {
      const res = await t.app.inject({ method: 'GET', url: `/hub/quotations?${query}`, headers: { cookie } });
      assert.equal(res.statusCode, 200, res.body.slice(0, 300));
      return [a, b].filter((x) => res.body.includes(`>${x.number}</a>`)).map((x) => x.number);
    };
    assert.equal(a.totals.withTax, b.totals.withTax, 'the same basket');
    assert.deepEqual(await shownQ(`amount=${a.totals.withTax.replace('.', ',')}&q=ivo`), [b.number]);
    assert.deepEqual(await shownQ('amount=0,01'), []);
    assert.deepEqual(await shownQ('from=2020-01-01&to=2020-12-31'), []);
    const csv = await t.app.inject({ method: 'GET', url: '/hub/quotations?q=ana%20h&format=csv', headers: { cookie } });
    assert.equal(csv.statusCode, 200);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    assert.equal(lines.length, 2, csv.body);
    assert.ok(lines[1]!.startsWith(a.number));
  });

  test('web orders: by amount and period, and the export of what is shown', async () => {
    const o = await newOrder(t.app, demo, { name: 'Marija Orač' });
    const res = await t.app.inject({
      method: 'GET',
      url: `/hub/orders?amount=${o.totals.withTax.replace('.', ',')}`,
      headers: { cookie },
    });
    assert.equal(res.statusCode, 200);
    assert.ok(res.body.includes(`>${o.number}</a>`));
    const none = await t.app.inject({
      method: 'GET',
      url: '/hub/orders?from=2020-01-01&to=2020-01-02',
      headers: { cookie },
    });
    assert.ok(!none.body.includes(`>${o.number}</a>`));
    const csv = await t.app.inject({ method: 'GET', url: '/hub/orders?q=marija&format=csv', headers: { cookie } });
    assert.equal(csv.statusCode, 200);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    assert.equal(lines.length, 2, csv.body);
    assert.ok(lines[1]!.startsWith(o.number));
  });

  test('customers: the directory as searched, exported', async () => {
    const csv = await t.app.inject({ method: 'GET', url: `/hub/customers?q=${oib}&format=csv`, headers: { cookie } });
    assert.equal(csv.statusCode, 200);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    assert.equal(lines.length, 2, csv.body);
    assert.match(lines[1]!, /Ličilački obrt Šimić/);
    assert.ok(lines[1]!.includes(oib));
  });

  test('the export holds exactly the rows shown: CSV in Croatian conventions, XLSX with numbers', async () => {
    const csv = await t.app.inject({
      method: 'GET',
      url: `/hub/sales?q=${oib.slice(0, 6)}&format=csv`,
      headers: { cookie },
    });
    assert.equal(csv.statusCode, 200);
    assert.match(String(csv.headers['content-type']), /^text\/csv/);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    assert.equal(lines.length, 2, csv.body);
    assert.match(lines[0]!, /;/, 'Croatian CSV: fields split by a semicolon');
    assert.ok(lines[1]!.includes(sales[0]!.invoiceNumber));
    assert.ok(lines[1]!.includes(sales[0]!.total.replace('.', ',')));

    const xlsx = await t.app.inject({ method: 'GET', url: '/hub/sales?format=xlsx', headers: { cookie } });
    assert.equal(xlsx.statusCode, 200);
    const { rows: sheet } = await readWorkbook(xlsx.rawPayload);
    assert.equal(sheet.length, 1 + sales.length);
    const header = sheet[0]!.map(String);
    const gross = header.indexOf('Ukupno');
    assert.ok(gross > 0, `a gross column in ${header.join(' | ')}`);
    const totals = sheet.slice(1).map((row) => row[gross]);
    assert.ok(
      totals.every((v) => typeof v === 'number'),
      'numbers, not text',
    );
    assert.deepEqual(
      totals.map(Number).sort(),
      sales.map((s) => Number(s.total)).sort(),
      'the gross totals, as numbers a spreadsheet adds up',
    );
  });
});
