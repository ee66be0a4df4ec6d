// test-engines: both
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, createTenant, type TestApp } from '../../support/test-app.ts';
import { assertProblem, tokenForRole } from '../../support/http-helpers.ts';
import { pdfText } from '../../support/quote-helpers.ts';
import { adminCall, assignCustomer, newQuotation } from '../../support/sales-helpers.ts';
import type { DemoCompany } from '../../../src/modules/demo/demo-company.ts';

/** A problem+json refusal with its code, or a `details` entry at the field. */
function refused(
  res: Parameters<typeof assertProblem>[0],
  status: number,
  expect: { code?: string; detailsAt?: string },
): void {
  const body = assertProblem(res, status, expect.code);
  if (expect.detailsAt) assert.ok(body.details?.[expect.detailsAt], `details at ${expect.detailsAt}: ${res.body}`);
}

/** Quotations made and revised by staff (issue 22): the admin API the hub's pages share. */
describe('admin: quotations made by staff, and their revisions', () => {
  let t: TestApp;
  let demo: DemoCompany;
  let other: DemoCompany;
  let staff: string;
  let support: string;
  let now = Date.parse('2026-03-10T09:00:00.000Z');

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

  const line = (i: number, quantity: number, extra: object = {}) => {
    const p = demo.products[i]!;
    return { productId: p.id, unitId: p.units[0]!.id, quantity, ...extra };
  };

  test('made for a typed customer: priced with line discounts, numbered in the series, its maker recorded, quote.created', async () => {
    const plain = await adminCall(t.app, staff, 'POST', '/quotations', {
      customer: { name: 'Marko Marić', phone: '+385 91 111 2222' },
      note: 'Preuzimanje u trgovini.',
      lines: [line(0, 2, { note: 'Colour: RAL 9010 - Reinweiß' }), line(4, 1.5)],
    });
    assert.equal(plain.statusCode, 201, plain.body);
    const discounted = await adminCall(t.app, staff, 'POST', '/quotations', {
      customer: { name: 'Marko Marić' },
      lines: [line(0, 2, { note: 'Colour: RAL 9010 - Reinweiß', discountPercent: 10 }), line(4, 1.5)],
    });
    assert.equal(discounted.statusCode, 201, discounted.body);
    const a = plain.json().data;
    const b = discounted.json().data;
    assert.match(a.number, /^Q-[A-Z0-9]+-2026-\d{5}$/);
    assert.equal(b.lines[0].discountPercent, '10');
    assert.equal(a.lines[0].discountPercent, '0');
    assert.equal(b.lines[0].note, 'Colour: RAL 9010 - Reinweiß');
    // 10 % off the first line: its amount is 90 % of the undiscounted one, to the cent.
    const cents = (s: string) => Math.round(Number(s) * 100);
    const amount = (l: { net: string; total: string }) => cents(l.net);
    assert.ok(Math.abs(amount(b.lines[0]) - Math.round(amount(a.lines[0]) * 0.9)) <= 1);
    assert.equal(b.lines[1].net, a.lines[1].net);
    assert.equal(
      cents(b.totals.withTax),
      b.lines.reduce((s: number, l: { total: string }) => s + cents(l.total), 0),
    );
    assert.equal(b.createdBy !== null, true, 'the maker is recorded');
    assert.equal(b.revision, 1);
    assert.equal(b.status, 'approved');

    const pdf = await t.app.inject({
      method: 'GET',
      url: `/api/v1/admin/quotations/${b.id}?format=pdf`,
      headers: { authorization: `Bearer ${staff}` },
    });
    assert.equal(pdf.statusCode, 200);
    const text = await pdfText(pdf.rawPayload);
    assert.match(text, /RAL 9010/);
    assert.match(text, /10 ?%/, 'the discount printed');

    // The website reading it (its location's key) sees the discount where there is one, and nothing new elsewhere.
    const seen = await t.app.inject({
      method: 'GET',
      url: `/api/v1/public/quotes/${b.id}?format=json`,
      headers: { authorization: `Bearer ${demo.locations[0]!.apiKey}` },
    });
    assert.equal(seen.statusCode, 200, seen.body);
    assert.equal(seen.json().data.lines[0].discountPercent, '10');
    assert.equal('discountPercent' in seen.json().data.lines[1], false);
    assert.equal('createdBy' in seen.json().data, false, 'who made it stays in the back office');

    const events = await t.c.database.db
      .selectFrom('webhook_events')
      .select(['type', 'payload'])
      .where('company_id', '=', demo.companyId)
      .where('type', '=', 'quote.created')
      .execute();
    assert.ok(events.some((e) => JSON.parse(e.payload).data.quotationId === b.id));
  });

  test('made for a directory customer: assigned from the start, named from the directory', async () => {
    const customer = await adminCall(t.app, staff, 'POST', '/customers', {
      kind: 'person',
      name: 'Ivana Horvat',
      email: 'ivana@example.com',
    });
    assert.equal(customer.statusCode, 201, customer.body);
    const id = customer.json().data.id;
    const res = await adminCall(t.app, staff, 'POST', '/quotations', { customerId: id, lines: [line(1, 1)] });
    assert.equal(res.statusCode, 201, res.body);
    const q = res.json().data;
    assert.deepEqual(q.directoryCustomer, { id, name: 'Ivana Horvat' });
    assert.equal(q.customer.name, 'Ivana Horvat');
    assert.equal(q.customer.email, 'ivana@example.com');
  });

  test("refused: no customer, another company's customer, a discount out of range, support; nothing written", async () => {
    const before = await t.c.database.db
      .selectFrom('quotations')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('company_id', '=', demo.companyId)
      .executeTakeFirstOrThrow();
    refused(await adminCall(t.app, staff, 'POST', '/quotations', { lines: [line(0, 1)] }), 400, {
      detailsAt: 'customer',
    });
    const foreign = await adminCall(t.app, other.adminToken, 'POST', '/customers', { kind: 'person', name: 'Tuđi' });
    refused(
      await adminCall(t.app, staff, 'POST', '/quotations', { customerId: foreign.json().data.id, lines: [line(0, 1)] }),
      400,
      { detailsAt: 'customerId' },
    );
    refused(
      await adminCall(t.app, staff, 'POST', '/quotations', {
        customer: { name: 'X' },
        lines: [line(0, 1, { discountPercent: 120 })],
      }),
      400,
      { detailsAt: 'lines[0].discountPercent' },
    );
    refused(
      await adminCall(t.app, staff, 'POST', '/quotations', {
        customer: { name: 'X' },
        lines: [line(0, 1, { discountPercent: 12.345 })],
      }),
      400,
      { detailsAt: 'lines[0].discountPercent' },
    );
    assert.equal(
      (await adminCall(t.app, support, 'POST', '/quotations', { customer: { name: 'X' }, lines: [line(0, 1)] }))
        .statusCode,
      403,
    );
    const after = await t.c.database.db
      .selectFrom('quotations')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('company_id', '=', demo.companyId)
      .executeTakeFirstOrThrow();
    assert.equal(Number(after.n), Number(before.n));
  });

  test('a revision keeps the id, suffixes the number, keeps the earlier one readable and printable; quote.revised', async () => {
    const q = await newQuotation(t.app, demo, { name: 'Petra Perić' });
    const r2 = await adminCall(t.app, staff, 'PUT', `/quotations/${q.id}`, {
      customer: { name: 'Petra Perić', email: 'petra@example.com' },
      lines: [line(0, 5, { discountPercent: 5, note: 'Colour: RAL 7016 - Anthrazitgrau' })],
    });
    assert.equal(r2.statusCode, 200, r2.body);
    assert.equal(r2.json().data.id, q.id);
    assert.equal(r2.json().data.number, `${q.number}-2`);
    assert.equal(r2.json().data.revision, 2);
    assert.equal(r2.json().data.expiresAt, q.expiresAt, 'valid as long as before unless said');
    const r3 = await adminCall(t.app, demo.adminToken, 'PUT', `/quotations/${q.id}`, {
      customer: { name: 'Petra Perić' },
      lines: [line(0, 6)],
    });
    assert.equal(r3.json().data.number, `${q.number}-3`);

    const list = await adminCall(t.app, support, 'GET', `/quotations/${q.id}/revisions`);
    assert.equal(list.statusCode, 200, list.body);
    assert.deepEqual(
      list
        .json()
        .data.map((r: { revision: number; number: string; current: boolean }) => [r.revision, r.number, r.current]),
      [
        [1, q.number, false],
        [2, `${q.number}-2`, false],
        [3, `${q.number}-3`, true],
      ],
    );
    assert.equal(list.json().data[0].total, q.totals.withTax);

    const first = await adminCall(t.app, support, 'GET', `/quotations/${q.id}/revisions/1`);
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(first.json().data.lines.length, 2);
    assert.equal(first.json().data.totals.withTax, q.totals.withTax);
    const second = await adminCall(t.app, support, 'GET', `/quotations/${q.id}/revisions/2`);
    assert.equal(second.json().data.lines[0].discountPercent, '5');
    const pdf = await adminCall(t.app, support, 'GET', `/quotations/${q.id}/revisions/2?format=pdf`);
    assert.equal(pdf.statusCode, 200);
    const text = await pdfText(pdf.rawPayload);
    assert.match(text, new RegExp(`${q.number}-2`));
    assert.match(text, /RAL 7016/);
    // The newest shows where the id points.
    const current = await adminCall(t.app, support, 'GET', `/quotations/${q.id}`);
    assert.equal(current.json().data.number, `${q.number}-3`);
    const publicRead = await t.app.inject({
      method: 'GET',
      url: `/api/v1/public/quotes/${q.id}`,
      headers: { authorization: `Bearer ${demo.locations[0]!.apiKey}`, accept: 'application/json' },
    });
    if (publicRead.statusCode === 200) assert.equal(publicRead.json().data.number, `${q.number}-3`);

    assert.equal((await adminCall(t.app, support, 'GET', `/quotations/${q.id}/revisions/3`)).statusCode, 404);
    assert.equal((await adminCall(t.app, other.adminToken, 'GET', `/quotations/${q.id}/revisions`)).statusCode, 404);
    assert.equal((await adminCall(t.app, other.adminToken, 'GET', `/quotations/${q.id}/revisions/1`)).statusCode, 404);

    const events = await t.c.database.db
      .selectFrom('webhook_events')
      .select('payload')
      .where('company_id', '=', demo.companyId)
      .where('type', '=', 'quote.revised')
      .execute();
    const mine = events.map((e) => JSON.parse(e.payload).data).filter((d) => d.quotationId === q.id);
    assert.deepEqual(
      mine.map((d) => [d.revision, d.previousNumber]),
      [
        [2, q.number],
        [3, `${q.number}-2`],
      ],
    );
  });

  test("only an open quotation is revised: converted, cancelled, expired and another company's are refused", async () => {
    const body = { customer: { name: 'Z' }, lines: [line(0, 1)] };
    const converted = await newQuotation(t.app, demo);
    await assignCustomer(t.app, demo, 'quotations', converted.id, { name: 'Kupac d.o.o.' });
    assert.equal(
      (await adminCall(t.app, demo.adminToken, 'POST', `/quotations/${converted.id}/convert`, {})).statusCode,
      201,
    );
    refused(await adminCall(t.app, staff, 'PUT', `/quotations/${converted.id}`, body), 409, {
      code: 'quotation_not_open',
    });
    const cancelled = await newQuotation(t.app, demo);
    await adminCall(t.app, staff, 'POST', `/quotations/${cancelled.id}/cancel`, { reason: 'Kupac odustao' });
    refused(await adminCall(t.app, staff, 'PUT', `/quotations/${cancelled.id}`, body), 409, {
      code: 'quotation_not_open',
    });
    const expiring = await newQuotation(t.app, demo, { expiresAt: new Date(now + 86_400_000).toISOString() });
    now += 2 * 86_400_000;
    refused(await adminCall(t.app, staff, 'PUT', `/quotations/${expiring.id}`, body), 409, {
      code: 'quotation_expired',
    });
    const mine = await newQuotation(t.app, demo);
    assert.equal((await adminCall(t.app, other.adminToken, 'PUT', `/quotations/${mine.id}`, body)).statusCode, 404);
    assert.equal((await adminCall(t.app, support, 'PUT', `/quotations/${mine.id}`, body)).statusCode, 403);
    const unchanged = await adminCall(t.app, staff, 'GET', `/quotations/${mine.id}`);
    assert.equal(unchanged.json().data.revision, 1);
  });

  test('two revisions at once: one wins, the other is a 409, one snapshot', async () => {
    const q = await newQuotation(t.app, demo);
    const body = (n: number) => ({ customer: { name: 'Race' }, lines: [line(0, n)] });
    const [a, b] = await Promise.all([
      adminCall(t.app, staff, 'PUT', `/quotations/${q.id}`, body(2)),
      adminCall(t.app, staff, 'PUT', `/quotations/${q.id}`, body(3)),
    ]);
    const codes = [a.statusCode, b.statusCode].sort();
    assert.ok(
      (codes[0] === 200 && codes[1] === 409) || (codes[0] === 200 && codes[1] === 200),
      `${codes}: one wins, or they ran one after the other`,
    );
    const revisions = await adminCall(t.app, staff, 'GET', `/quotations/${q.id}/revisions`);
    const numbers = revisions.json().data.map((r: { number: string }) => r.number);
    assert.equal(new Set(numbers).size, numbers.length, 'no revision twice');
    assert.equal(numbers.length, codes.filter((c) => c === 200).length + 1);
  });

  test('a revision and a conversion at once: one consistent state, the sale copies the revision it names', async () => {
    for (let round = 0; round < 3; round++) {
      const q = await newQuotation(t.app, demo);
      await assignCustomer(t.app, demo, 'quotations', q.id, { name: `Kupac ${round} d.o.o.` });
      const [revised, converted] = await Promise.all([
        adminCall(t.app, staff, 'PUT', `/quotations/${q.id}`, { customer: { name: 'Ana' }, lines: [line(1, 7)] }),
        adminCall(t.app, staff, 'POST', `/quotations/${q.id}/convert`, {}),
      ]);
      assert.ok([200, 409].includes(revised.statusCode), revised.body);
      assert.ok([201, 409].includes(converted.statusCode), converted.body);
      const now = (await adminCall(t.app, staff, 'GET', `/quotations/${q.id}`)).json().data;
      if (converted.statusCode === 201) {
        const sale = converted.json().data;
        assert.equal(now.status, 'converted');
        assert.equal(sale.source.number, now.number, 'the sale names the revision it copied');
        assert.deepEqual(
          sale.lines.map((l: { productId: string; quantity: string }) => [l.productId, l.quantity]),
          now.lines.map((l: { productId: string; quantity: string }) => [l.productId, l.quantity]),
        );
      } else assert.equal(now.status, 'approved');
    }
  });
});
