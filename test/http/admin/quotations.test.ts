// test-engines: both
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, createTenant, type TestApp } from '../../support/test-app.ts';
import { assertProblem, tokenForRole } from '../../support/http-helpers.ts';
import { pdfText } from '../../support/quote-helpers.ts';
import { adminCall, assignCustomer, newQuotation } from '../../support/sales-helpers.ts';
import type { DemoCompany } from '../../../src/modules/demo/demo-company.ts';

/** Quotations in the hub: list, read (JSON or PDF), preview, convert into a sale, cancel. */
describe('admin quotations', () => {
  let t: TestApp;
  let demo: DemoCompany;
  let other: DemoCompany;
  let staff: string;
  let support: string;
  let now = Date.parse('2026-03-10T09:00:00.000Z');
  const later = (days: number) => {
    now += days * 86_400_000;
  };

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

  test('the list: newest first by cursor, filtered by status, location and q (number or folded name prefix), one company only', async () => {
    const made = [];
    for (const [i, name] of ['Đurđa Šimić', 'Ana Kovač', 'Anamarija Horvat', 'Ivo Ivić'].entries()) {
      made.push(await newQuotation(t.app, demo, { name, location: i % 2 }));
      later(0.001);
    }
    await newQuotation(t.app, other, { name: 'Ana Kovač' });
    const pages: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await adminCall(
        t.app,
        demo.adminToken,
        'GET',
        `/quotations?limit=3${cursor ? `&cursor=${cursor}` : ''}`,
      );
      assert.equal(res.statusCode, 200, res.body);
      pages.push(...res.json().data.map((q: { id: string }) => q.id));
      cursor = res.json().nextCursor;
    } while (cursor);
    assert.deepEqual(pages.slice(0, 4), made.map((q) => q.id).reverse(), "newest first, the other company's never");
    assert.equal(pages.length, new Set(pages).size);

    const ids = async (query: string, token = demo.adminToken) => {
      const res = await adminCall(t.app, token, 'GET', `/quotations?${query}`);
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data.map((q: { id: string }) => q.id);
    };
    assert.deepEqual(await ids('q=ana'), [made[2]!.id, made[1]!.id], 'a name prefix, folded');
    assert.deepEqual(await ids('q=ANA%20KOV'), [made[1]!.id]);
    assert.deepEqual(await ids('q=durda%20sim'), [made[0]!.id], 'diacritics folded');
    assert.deepEqual(await ids('q=kova'), [], 'a word in the middle is not a prefix');
    assert.deepEqual(await ids(`q=${made[3]!.number.toLowerCase()}`), [made[3]!.id], 'the number, case-insensitive');
    assert.deepEqual(await ids(`q=${encodeURIComponent('%_')}`), [], 'nothing searchable finds nothing');
    assert.deepEqual(await ids(`locationId=${demo.locations[1]!.id}&q=a`), [made[1]!.id]);
    assert.ok((await ids('status=approved')).length >= 4);
    assert.deepEqual(await ids('status=converted'), []);
    assert.deepEqual(await ids('q=ana', support), [made[2]!.id, made[1]!.id], 'support reads');
    assertProblem(
      await adminCall(t.app, demo.adminToken, 'GET', '/quotations?status=expired'),
      400,
      'validation_failed',
    );
    assertProblem(await adminCall(t.app, demo.adminToken, 'GET', '/quotations?cursor=nope'), 400, 'validation_failed');
  });

  test('one quotation as JSON with its state, or as the PDF (query or Accept), line notes in both', async () => {
    const q = await newQuotation(t.app, demo);
    const json = await adminCall(t.app, staff, 'GET', `/quotations/${q.id}`);
    assert.equal(json.statusCode, 200, json.body);
    const data = json.json().data;
    assert.equal(data.status, 'approved');
    assert.equal(data.expired, false);
    assert.equal(data.saleId, null);
    assert.equal(data.directoryCustomer, null);
    assert.equal(data.lines[0].note, 'Colour: RAL 9010 - Reinweiß');
    for (const res of [
      await adminCall(t.app, staff, 'GET', `/quotations/${q.id}?format=pdf`),
      await adminCall(t.app, staff, 'GET', `/quotations/${q.id}`, undefined, { accept: 'application/pdf' }),
    ]) {
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'application/pdf');
      const text = await pdfText(res.rawPayload);
      assert.match(text, new RegExp(`Ponuda ${q.number}`)); // the demo company prints in Croatian
      assert.match(text, /Colour: RAL 9010 - Reinweiß/);
    }
    assert.equal(
      (
        await adminCall(t.app, staff, 'GET', `/quotations/${q.id}?format=json`, undefined, {
          accept: 'application/pdf',
        })
      ).headers['content-type']
        ?.toString()
        .startsWith('application/json'),
      true,
    );
  });

  test('converting: customer required, then a sale with its own number, the lines, notes, tax and customer, linked both ways; read-only after', async () => {
    const q = await newQuotation(t.app, demo);
    assertProblem(await adminCall(t.app, staff, 'POST', `/quotations/${q.id}/convert`, {}), 409, 'customer_required');
    const customerId = await assignCustomer(t.app, demo, 'quotations', q.id);
    const listed = (await adminCall(t.app, staff, 'GET', `/quotations?q=${q.number}`)).json().data;
    assert.deepEqual(
      listed.map((x: { directoryCustomer: unknown }) => x.directoryCustomer),
      [{ id: customerId, name: 'Kovač obrt' }],
      'the list names the assigned customer',
    );
    const res = await adminCall(t.app, staff, 'POST', `/quotations/${q.id}/convert`, {});
    assert.equal(res.statusCode, 201, res.body);
    const sale = res.json().data;
    assert.equal(res.headers.location, `/api/v1/admin/sales/${sale.id}`);
    assert.match(sale.number, new RegExp(`^S-ZG1-2026-\\d{5}$`));
    assert.deepEqual(sale.source, { type: 'quotation', id: q.id, number: q.number });
    assert.equal(sale.status, 'unpaid');
    assert.equal(sale.customer.id, customerId);
    assert.equal(sale.customer.name, 'Kovač obrt');
    assert.match(sale.customer.taxId, /^\d{11}$/);
    assert.deepEqual(sale.customer.address, {
      street: 'Vlaška 12',
      postalCode: '10000',
      city: 'Zagreb',
      country: 'HR',
    });
    assert.equal(sale.note, 'Dostava u petak.');
    assert.equal(sale.totals.withTax, q.totals.withTax);
    assert.equal(sale.balance, q.totals.withTax);
    const quoted = (await adminCall(t.app, staff, 'GET', `/quotations/${q.id}`)).json().data;
    // A sale's line also carries its own id (issue 20: a credit note names the line it credits) and
    // what is left to credit of it: all of it, on a new invoice.
    assert.deepEqual(
      sale.lines.map((l: Record<string, unknown>) => l.creditable),
      sale.lines.map((l: Record<string, unknown>) => l.quantity),
    );
    assert.deepEqual(
      sale.lines.map(({ id: _id, creditable: _left, ...line }: Record<string, unknown>) => line),
      quoted.lines,
      'lines, notes and taxes copied exactly',
    );
    assert.equal(quoted.status, 'converted');
    assert.equal(quoted.saleId, sale.id);

    assertProblem(await adminCall(t.app, staff, 'POST', `/quotations/${q.id}/convert`, {}), 409, 'quotation_not_open');
    assertProblem(
      await adminCall(t.app, staff, 'POST', `/quotations/${q.id}/cancel`, { reason: 'too late' }),
      409,
      'quotation_not_open',
    );
    const put = await adminCall(t.app, staff, 'PUT', `/quotations/${q.id}/customer`, { customerId });
    assert.equal(put.statusCode, 409, `a converted quotation keeps its customer: ${put.body}`);
    const got = (await adminCall(t.app, support, 'GET', `/sales/${sale.id}`)).json().data;
    assert.deepEqual(got, sale);
  });

  test('support may read but not convert or cancel', async () => {
    const q = await newQuotation(t.app, demo);
    assertProblem(await adminCall(t.app, support, 'POST', `/quotations/${q.id}/convert`, {}), 403, 'forbidden');
    assertProblem(
      await adminCall(t.app, support, 'POST', `/quotations/${q.id}/cancel`, { reason: 'x' }),
      403,
      'forbidden',
    );
    assert.equal((await adminCall(t.app, support, 'GET', `/quotations/${q.id}/conversion`)).statusCode, 200);
  });

  test("expired: refused at stale prices; staff may not reprice; an admin reprices at today's prices; a removed product is named", async () => {
    const start = now;
    const q = await newQuotation(t.app, demo, { expiresAt: new Date(now + 86_400_000).toISOString() });
    const gone = await newQuotation(t.app, demo, { expiresAt: new Date(now + 86_400_000).toISOString() });
    await assignCustomer(t.app, demo, 'quotations', q.id);
    await assignCustomer(t.app, demo, 'quotations', gone.id);
    later(2);
    const view = (await adminCall(t.app, staff, 'GET', `/quotations/${q.id}`)).json().data;
    assert.equal(view.expired, true);
    assert.equal(view.status, 'approved', 'expiry is derived, not stored');
    assertProblem(await adminCall(t.app, staff, 'POST', `/quotations/${q.id}/convert`, {}), 409, 'quotation_expired');
    assertProblem(
      await adminCall(t.app, staff, 'POST', `/quotations/${q.id}/convert`, { reprice: true }),
      403,
      'forbidden',
    );
    assertProblem(
      await adminCall(t.app, demo.adminToken, 'POST', `/quotations/${q.id}/convert`, {}),
      409,
      'quotation_expired',
    );

    // Today's catalog: product 0's unit costs more, product 4 is deactivated.
    const unit0 = demo.products[0]!.units[0]!;
    assert.equal(
      (await adminCall(t.app, demo.adminToken, 'PATCH', `/units/${unit0.id}`, { price: '13.00' })).statusCode,
      200,
    );
    const preview = (await adminCall(t.app, staff, 'GET', `/quotations/${q.id}/conversion`)).json().data;
    assert.equal(preview.expired, true);
    assert.deepEqual(
      preview.lines.map(
        (l: { change: string; quotedUnitPrice: string; currentUnitPrice: string | null; note: string | null }) => [
          l.change,
          l.quotedUnitPrice,
          l.currentUnitPrice,
        ],
      ),
      [
        ['price_changed', '12.40', '13.00'],
        ['unchanged', '6.49', '6.49'],
      ],
    );
    assert.equal(preview.lines[0].note, 'Colour: RAL 9010 - Reinweiß');
    assert.equal(preview.quotedTotal, q.totals.withTax);
    // 13.00 × 2 = 26.00 + 25 % = 32.50; 6.49 × 1.5 = 9.735 → 9.74 + 2.435 → 2.44 = 12.18
    assert.equal(preview.currentTotal, '44.68');

    const res = await adminCall(t.app, demo.adminToken, 'POST', `/quotations/${q.id}/convert`, { reprice: true });
    assert.equal(res.statusCode, 201, res.body);
    const sale = res.json().data;
    assert.equal(sale.repriced, true);
    assert.equal(sale.totals.withTax, '44.68');
    assert.equal(sale.lines[0].unitPrice, '13.00');
    assert.equal(sale.lines[0].note, 'Colour: RAL 9010 - Reinweiß');

    assert.equal(
      (await adminCall(t.app, demo.adminToken, 'DELETE', `/products/${demo.products[4]!.id}`)).statusCode < 300,
      true,
    );
    const removed = (await adminCall(t.app, staff, 'GET', `/quotations/${gone.id}/conversion`)).json().data;
    assert.equal(removed.lines[1].change, 'product_removed');
    assert.equal(removed.lines[1].currentUnitPrice, null);
    assert.equal(removed.currentTotal, null);
    const refused = assertProblem(
      await adminCall(t.app, demo.adminToken, 'POST', `/quotations/${gone.id}/convert`, { reprice: true }),
      409,
      'conflict',
    );
    assert.deepEqual(Object.keys(refused.details), ['lines[1]']);
    assert.match(refused.details['lines[1]'][0], /Line 2 .*removed/);
    assert.equal(
      (await adminCall(t.app, staff, 'GET', `/quotations/${gone.id}`)).json().data.status,
      'approved',
      'nothing changed',
    );
    // Put the catalog back for the other tests.
    await adminCall(t.app, demo.adminToken, 'PATCH', `/units/${unit0.id}`, { price: unit0.price });
    await adminCall(t.app, demo.adminToken, 'PATCH', `/products/${demo.products[4]!.id}`, { active: true });
    now = start;
  });

  test('cancel: approved → cancelled with its reason; then read-only; a reason is required', async () => {
    const q = await newQuotation(t.app, demo);
    const bad = assertProblem(
      await adminCall(t.app, staff, 'POST', `/quotations/${q.id}/cancel`, {}),
      400,
      'validation_failed',
    );
    assert.ok(bad.details.reason);
    const res = await adminCall(t.app, staff, 'POST', `/quotations/${q.id}/cancel`, { reason: 'Kupac odustao.' });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.status, 'cancelled');
    assert.equal(res.json().data.cancellationReason, 'Kupac odustao.');
    assert.equal(res.json().data.cancelledAt, new Date(now).toISOString());
    assertProblem(
      await adminCall(t.app, staff, 'POST', `/quotations/${q.id}/cancel`, { reason: 'again' }),
      409,
      'quotation_not_open',
    );
    await assignCustomer(t.app, demo, 'quotations', q.id).catch(() => undefined);
    assertProblem(await adminCall(t.app, staff, 'POST', `/quotations/${q.id}/convert`, {}), 409, 'quotation_not_open');
  });

  test('Idempotency-Key: a retry returns the same sale; the same key on another quotation is a 422', async () => {
    const q = await newQuotation(t.app, demo);
    const q2 = await newQuotation(t.app, demo);
    await assignCustomer(t.app, demo, 'quotations', q.id);
    await assignCustomer(t.app, demo, 'quotations', q2.id);
    const key = { 'idempotency-key': `convert-${q.id}` };
    const first = await adminCall(t.app, staff, 'POST', `/quotations/${q.id}/convert`, {}, key);
    assert.equal(first.statusCode, 201, first.body);
    const again = await adminCall(t.app, staff, 'POST', `/quotations/${q.id}/convert`, {}, key);
    assert.equal(again.statusCode, 201, again.body);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.json().data.id, first.json().data.id);
    assertProblem(
      await adminCall(t.app, staff, 'POST', `/quotations/${q2.id}/convert`, {}, key),
      422,
      'idempotency_key_reused',
    );
    assert.equal((await adminCall(t.app, staff, 'GET', `/quotations/${q2.id}`)).json().data.status, 'approved');
  });

  test('two truly concurrent converts over HTTP make exactly one sale; the other gets 409', async () => {
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    for (let round = 0; round < 3; round++) {
      const q = await newQuotation(t.app, demo);
      await assignCustomer(t.app, demo, 'quotations', q.id);
      const convert = () =>
        fetch(`${address}/api/v1/admin/quotations/${q.id}/convert`, {
          method: 'POST',
          headers: { authorization: `Bearer ${demo.adminToken}`, 'content-type': 'application/json' },
          body: '{}',
          signal: AbortSignal.timeout(20_000),
        }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, any> }));
      const results = await Promise.all([convert(), convert(), convert()]);
      const statuses = results.map((r) => r.status).sort();
      assert.deepEqual(statuses, [201, 409, 409], JSON.stringify(results));
      for (const r of results) if (r.status === 409) assert.equal(r.body.code, 'quotation_not_open');
      const winner = results.find((r) => r.status === 201)!.body.data;
      const sales = (await adminCall(t.app, demo.adminToken, 'GET', `/sales?limit=100`))
        .json()
        .data.filter((s: { source: { id: string } }) => s.source.id === q.id);
      assert.deepEqual(
        sales.map((s: { id: string }) => s.id),
        [winner.id],
      );
    }
  });

  test('sale numbers are their own series per location and year, gap-free', async () => {
    const numbers = [];
    for (const location of [1, 1, 0]) {
      const q = await newQuotation(t.app, demo, { location });
      await assignCustomer(t.app, demo, 'quotations', q.id);
      numbers.push((await adminCall(t.app, staff, 'POST', `/quotations/${q.id}/convert`, {})).json().data.number);
    }
    assert.match(numbers[0], /^S-ST1-2026-\d{5}$/);
    const seq = (n: string) => Number(n.slice(-5));
    assert.equal(seq(numbers[1]), seq(numbers[0]) + 1);
    assert.match(numbers[2], /^S-ZG1-2026-/);
  });

  test("tenancy: another company's quotation is not found on every route", async () => {
    const q = await newQuotation(t.app, other);
    for (const [method, url, body] of [
      ['GET', `/quotations/${q.id}`],
      ['GET', `/quotations/${q.id}?format=pdf`],
      ['GET', `/quotations/${q.id}/conversion`],
      ['POST', `/quotations/${q.id}/convert`, {}],
      ['POST', `/quotations/${q.id}/cancel`, { reason: 'x' }],
    ] as const) {
      assertProblem(await adminCall(t.app, demo.adminToken, method, url, body), 404, 'not_found');
    }
    assert.equal(
      (await adminCall(t.app, other.adminToken, 'GET', `/quotations/${q.id}`)).json().data.status,
      'approved',
    );
  });
});
