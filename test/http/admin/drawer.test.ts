// test-engines: both
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createTestApp, createTenant, type TestApp } from '../../support/test-app.ts';
import { assertProblem, tokenForRole } from '../../support/http-helpers.ts';
import { pdfText } from '../../support/quote-helpers.ts';
import { adminCall, assignCustomer, newQuotation } from '../../support/sales-helpers.ts';
import type { DemoCompany } from '../../../src/modules/demo/demo-company.ts';

const cents = (s: string) => {
  const negative = s.startsWith('-');
  const [w, f = ''] = (negative ? s.slice(1) : s).split('.');
  const v = Number(w) * 100 + Number(f.padEnd(2, '0'));
  return negative ? -v : v;
};
const money = (c: number) =>
  `${c < 0 ? '-' : ''}${Math.floor(Math.abs(c) / 100)}.${String(Math.abs(c) % 100).padStart(2, '0')}`;

/**
 * A day at the counter (issue 34): the drawer opened with a float, twenty cash and card sales, a
 * storno with its cash given back, a credit note refunded to the card, cash taken to the bank,
 * the close with a counted difference. The day report equals the documents to the cent.
 */
describe('admin: the cash drawer and refunds', () => {
  let t: TestApp;
  let demo: DemoCompany;
  let other: DemoCompany;
  let staff: string;
  let support: string;
  let location: string;

  before(async () => {
    t = await createTestApp();
    demo = await createTenant(t.c);
    other = await createTenant(t.c);
    staff = await tokenForRole(t.c, demo, 'staff');
    support = await tokenForRole(t.c, demo, 'support');
    location = demo.locations[0]!.id;
  });
  after(async () => {
    await t.close();
  });

  const line = (i: number, quantity: number, extra: object = {}) => {
    const p = demo.products[i % demo.products.length]!;
    return { productId: p.id, unitId: p.units[0]!.id, quantity, ...extra };
  };
  const drawer = (path: string) => `/locations/${location}/drawer${path}`;

  test('a day at the counter: the report equals the documents to the cent, expected = float + in − out + cash sales − cash refunds', async () => {
    // Nothing open yet: 404 on the open day, 409 on a movement or a close.
    assertProblem(await adminCall(t.app, staff, 'GET', drawer('')), 404, 'not_found');
    assertProblem(
      await adminCall(t.app, staff, 'POST', drawer('/movements'), { kind: 'out', amount: '1.00', reason: 'x' }),
      409,
      'conflict',
    );
    const opened = await adminCall(t.app, staff, 'POST', drawer('/open'), { float: '100.00' });
    assert.equal(opened.statusCode, 201, opened.body);
    assert.equal(opened.json().data.float, '100.00');
    assert.equal(opened.json().data.expected, '100.00');
    assertProblem(await adminCall(t.app, staff, 'POST', drawer('/open'), { float: '50.00' }), 409, 'conflict');

    const sales: Array<{ id: string; method: string; total: number; number: string; lines: Array<{ id: string }> }> =
      [];
    for (let i = 0; i < 20; i++) {
      const method = i % 3 === 0 ? 'card' : 'cash';
      const res = await adminCall(t.app, staff, 'POST', '/counter-sales', {
        lines: [line(i, 1 + (i % 3), i % 4 === 0 ? { discountPercent: 10 } : {}), line(i + 3, 1)],
        paymentMethod: method,
        ...(method === 'cash' ? { tendered: '1000.00' } : {}),
        locationId: location,
      });
      assert.equal(res.statusCode, 201, res.body);
      const s = res.json().data;
      sales.push({ id: s.id, method, total: cents(s.totals.withTax), number: s.invoiceNumber, lines: s.lines });
    }

    // Staff cancel their own cash receipt; the cash goes back from the drawer.
    const cashSale = sales.find((s) => s.method === 'cash')!;
    const storno = await adminCall(t.app, staff, 'POST', `/sales/${cashSale.id}/cancel`, {
      reason: 'Krivi artikl',
      refund: { method: 'cash' },
    });
    assert.equal(storno.statusCode, 201, storno.body);
    const stornoView = storno.json().data;
    assert.equal(stornoView.kind, 'cancellation');
    // Never the original's tendered amount: the storno says what was refunded.
    assert.equal(stornoView.tendered, null);
    assert.equal(stornoView.change, null);
    assert.equal(stornoView.refunds.length, 1);
    assert.equal(stornoView.refunds[0].method, 'cash');
    assert.equal(stornoView.refunds[0].amount, money(cashSale.total));
    assert.ok(stornoView.refunds[0].givenBy, 'who gave it');
    const cancelled = (await adminCall(t.app, staff, 'GET', `/sales/${cashSale.id}`)).json().data;
    assert.equal(cancelled.balance, '0.00', 'refunded: nothing owed back any more');
    assert.equal(cancelled.paid, '0.00');
    assert.equal(cancelled.refunds.length, 1);
    const receipt = await adminCall(t.app, staff, 'GET', `/sales/${stornoView.id}?format=pdf&layout=receipt`);
    assert.equal(receipt.statusCode, 200);
    const receiptText = await pdfText(receipt.rawPayload);
    assert.match(receiptText, /Vraćeno kupcu/);
    assert.doesNotMatch(receiptText, /Za vratiti|Primljeno gotovinom/);

    // A credit note of a card sale: one unit back, refunded to the card (admins).
    const cardSale = sales.find((s) => s.method === 'card')!;
    const credit = await adminCall(t.app, demo.adminToken, 'POST', `/sales/${cardSale.id}/credit-notes`, {
      lines: [{ lineId: cardSale.lines[1]!.id, quantity: '1' }],
      reason: 'Povrat',
      refund: { method: 'card' },
    });
    assert.equal(credit.statusCode, 201, credit.body);
    const creditView = credit.json().data;
    assert.equal(creditView.refunds.length, 1);
    assert.equal(creditView.refunds[0].method, 'card');
    assert.equal(cents(creditView.refunds[0].amount), -cents(creditView.totals.withTax));

    // Bad movements name their field; a good one is kept.
    const bad = await adminCall(t.app, staff, 'POST', drawer('/movements'), { kind: 'out', amount: '-5', reason: 'x' });
    assert.ok(assertProblem(bad, 400, 'validation_failed').details.amount, bad.body);
    const out = await adminCall(t.app, staff, 'POST', drawer('/movements'), {
      kind: 'out',
      amount: '50.00',
      reason: 'Polog u banku',
    });
    assert.equal(out.statusCode, 201, out.body);
    const into = await adminCall(t.app, staff, 'POST', drawer('/movements'), {
      kind: 'in',
      amount: '20.00',
      reason: 'Sitniš',
    });
    assert.equal(into.statusCode, 201, into.body);

    const cashSales = sales.filter((s) => s.method === 'cash').reduce((sum, s) => sum + s.total, 0);
    const cashRefunds = cashSale.total;
    const expected = 10000 + 2000 - 5000 + cashSales - cashRefunds;
    const soFar = (await adminCall(t.app, staff, 'GET', drawer(''))).json().data;
    assert.equal(soFar.expected, money(expected));
    assert.equal(soFar.closedAt, null);

    // Close with 2.00 missing, counted by denomination and as a sum that agree.
    assert.ok(
      assertProblem(await adminCall(t.app, staff, 'POST', drawer('/close'), {}), 400, 'validation_failed').details
        .counted,
    );
    assert.match(
      assertProblem(
        await adminCall(t.app, staff, 'POST', drawer('/close'), { denominations: { '3.00': 1 } }),
        400,
        'validation_failed',
      ).details.denominations[0],
      /3\.00/,
    );
    const counted = expected - 200;
    const notes = Math.floor(counted / 5000);
    const rest = counted - notes * 5000;
    const denominations: Record<string, number> = { '50.00': notes, '0.01': rest };
    const closed = await adminCall(t.app, staff, 'POST', drawer('/close'), { counted: money(counted), denominations });
    assert.equal(closed.statusCode, 201, closed.body);
    const report = closed.json().data;
    assert.equal(report.float, '100.00');
    assert.equal(report.cashIn, '20.00');
    assert.equal(report.cashOut, '50.00');
    assert.equal(report.cashSales, money(cashSales));
    assert.equal(report.cashRefunds, money(cashRefunds));
    assert.equal(report.expected, money(expected));
    assert.equal(report.counted, money(counted));
    assert.equal(report.difference, '-2.00');
    assert.equal(
      cents(report.expected),
      cents(report.float) +
        cents(report.cashIn) -
        cents(report.cashOut) +
        cents(report.cashSales) -
        cents(report.cashRefunds),
    );
    const cardSales = sales.filter((s) => s.method === 'card').reduce((sum, s) => sum + s.total, 0);
    assert.deepEqual(report.byMethod, [
      { method: 'card', sales: money(cardSales), refunds: money(-cents(creditView.totals.withTax)) },
      { method: 'cash', sales: money(cashSales), refunds: money(cashRefunds) },
    ]);
    // The documents: 20 invoices, the storno and the credit note, first to last.
    assert.deepEqual(report.documents, { first: sales[0]!.number, last: creditView.invoiceNumber, count: 22 });
    assert.deepEqual(report.cancellations, { count: 1, total: money(-cashSale.total) });
    assert.deepEqual(report.creditNotes, { count: 1, total: creditView.totals.withTax });
    // Per rate: the sums of every document's printed tax rows.
    const perRate = new Map<string, { base: number; tax: number }>();
    for (const id of [...sales.map((s) => s.id), stornoView.id, creditView.id]) {
      const doc = (await adminCall(t.app, staff, 'GET', `/sales/${id}`)).json().data;
      for (const r of doc.totals.taxes) {
        const key = (Number(r.rate) * 100).toFixed(0);
        const sum = perRate.get(key) ?? { base: 0, tax: 0 };
        sum.base += cents(r.base);
        sum.tax += cents(r.tax);
        perRate.set(key, sum);
      }
    }
    assert.equal(report.byRate.length, perRate.size);
    for (const r of report.byRate) {
      const key = (Number(r.rate) * 100).toFixed(0);
      assert.equal(cents(r.tax), perRate.get(key)!.tax, `tax at ${r.rate}`);
      assert.equal(cents(r.total) - cents(r.tax), cents(r.net), `net + tax = total at ${r.rate}`);
    }
    const totalOfDocuments =
      sales.reduce((sum, s) => sum + s.total, 0) - cashSale.total + cents(creditView.totals.withTax);
    assert.equal(
      report.byRate.reduce((sum: number, r: { total: string }) => sum + cents(r.total), 0),
      totalOfDocuments,
    );
    assert.equal(report.denominations[0].value, '50.00');

    // Closed: kept as written, nothing more goes in, the day is not opened again.
    const read = await adminCall(t.app, staff, 'GET', drawer(`/days/${report.date}`));
    assert.deepEqual(read.json().data, report);
    assertProblem(
      await adminCall(t.app, staff, 'POST', drawer('/movements'), { kind: 'in', amount: '1.00', reason: 'x' }),
      409,
      'conflict',
    );
    assertProblem(await adminCall(t.app, staff, 'POST', drawer('/open'), { float: '1.00' }), 409, 'conflict');
    assertProblem(await adminCall(t.app, staff, 'GET', drawer('')), 404, 'not_found');

    // The database refuses a change of the closed day whatever code runs it.
    const db = t.c.database.db;
    await assert.rejects(
      db.updateTable('drawer_days').set({ counted_minor: 0 }).where('company_id', '=', demo.companyId).execute(),
      /closed drawer day/,
    );
    const day = await db
      .selectFrom('drawer_days')
      .select('id')
      .where('company_id', '=', demo.companyId)
      .executeTakeFirstOrThrow();
    await assert.rejects(
      db
        .insertInto('drawer_movements')
        .values({
          id: 'drm_x',
          company_id: demo.companyId,
          day_id: day.id,
          kind: 'in',
          amount_minor: 1,
          reason: 'x',
          recorded_by: null,
          created_at: new Date().toISOString(),
        })
        .execute(),
      /closed drawer day/,
    );
    await assert.rejects(
      sql`update drawer_movements set amount_minor = 1 where company_id = ${demo.companyId}`.execute(db),
      /drawer/,
    );

    // The events: drawer.closed with the figures, refund.recorded twice.
    const events = await db
      .selectFrom('webhook_events')
      .select(['type', 'payload'])
      .where('company_id', '=', demo.companyId)
      .where('type', 'in', ['drawer.closed', 'refund.recorded'])
      .execute();
    const closedEvent = events.find((e) => e.type === 'drawer.closed');
    assert.ok(closedEvent);
    assert.equal(JSON.parse(closedEvent.payload).data.difference, '-2.00');
    assert.deepEqual(
      events
        .filter((e) => e.type === 'refund.recorded')
        .map((e) => JSON.parse(e.payload).data.method)
        .sort(),
      ['card', 'cash'],
    );

    // Printed on A4 and on the 80 mm roll.
    for (const layout of ['a4', 'receipt']) {
      const pdf = await adminCall(t.app, staff, 'GET', drawer(`/days/${report.date}?format=pdf&layout=${layout}`));
      assert.equal(pdf.statusCode, 200, pdf.body.slice(0, 200));
      assert.equal(pdf.headers['content-type'], 'application/pdf');
      const text = await pdfText(pdf.rawPayload);
      assert.match(text, /Dnevni izvještaj blagajne/);
      assert.match(text, /Polog u banku/);
      assert.match(text, /Razlika/);
      assert.match(text, /-2,00|−2,00/);
      assert.doesNotMatch(text, /Kupac/);
      // Which till, then opening before closing, both in the same numeric style (the closing
      // time was printed first, and on the roll as "28. stu 2026.").
      assert.match(text, /Prostor \/ uređaj\s+ZG1 \/ 1/);
      assert.ok(text.indexOf('Otvoreno') < text.indexOf('Zaključeno'), `${layout}: opening first`);
      assert.doesNotMatch(
        text,
        /\d\.\s*(sij|velj|ožu|tra|svi|lip|srp|kol|ruj|lis|stu|pro)\b/,
        `${layout}: numeric dates`,
      );
      const times = [...text.matchAll(/(Otvoreno|Zaključeno)\s+(\d{1,2}\.\s?\d{1,2}\.\s?\d{4}\.?,?\s+\d{1,2}:\d{2})/g)];
      assert.deepEqual(
        times.map((m) => m[1]),
        ['Otvoreno', 'Zaključeno'],
        `${layout}: both times numeric, in order:\n${text}`,
      );
    }
    assert.equal(report.premises, 'ZG1');
    assert.equal(report.device, '1');

    // Today's takings: what was taken less what was given back.
    const trend = await t.c.reports.today(demo.companyId);
    assert.equal(
      trend.days.at(-1)!.takings,
      cashSales + cardSales - cashRefunds + cents(creditView.totals.withTax),
      'takings net of refunds',
    );

    // The reports: JSON, CSV and XLSX of the closed days.
    const q = `from=${report.date}&to=${report.date}`;
    const json = await adminCall(t.app, demo.adminToken, 'GET', `/reports/drawers?${q}`);
    assert.equal(json.statusCode, 200, json.body);
    assert.deepEqual(json.json().data, [report]);
    const csv = await adminCall(t.app, demo.adminToken, 'GET', `/reports/drawers?${q}&format=csv&locale=hr`);
    assert.equal(csv.statusCode, 200, csv.body);
    assert.match(csv.body, /Razlika/);
    assert.match(
      csv.body,
      new RegExp(`;${money(expected).replace('.', ',')};${money(counted).replace('.', ',')};-2,00;`),
    );
    const xlsx = await adminCall(t.app, demo.adminToken, 'GET', `/reports/drawers?${q}&format=xlsx`);
    assert.equal(xlsx.statusCode, 200);
    assert.equal(xlsx.rawPayload.subarray(0, 2).toString(), 'PK');
    assertProblem(await adminCall(t.app, staff, 'GET', `/reports/drawers?${q}`), 403, 'forbidden');

    // The month archive carries the day as closed (JSON), printed, and the table.
    const started = await adminCall(t.app, demo.adminToken, 'POST', '/exports/month', {
      month: report.date.slice(0, 7),
    });
    assert.equal(started.statusCode, 202, started.body);
    await t.c.monthArchives.find(demo.companyId, started.json().data.id).finished;
    const zip = await adminCall(t.app, demo.adminToken, 'GET', `/exports/${started.json().data.id}/download`);
    assert.equal(zip.statusCode, 200);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'drawer-'));
    try {
      const file = path.join(dir, 'month.zip');
      fs.writeFileSync(file, zip.rawPayload);
      const names = execFileSync('zipinfo', ['-1', file], { encoding: 'utf8' }).trim().split('\n');
      const code = demo.locations[0]!.code;
      for (const name of [
        `drawers-${report.date.slice(0, 7)}.csv`,
        `drawers-${report.date.slice(0, 7)}.xlsx`,
        `drawers/${code}-${report.date}.json`,
        `drawers/${code}-${report.date}.pdf`,
      ])
        assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
      execFileSync('unzip', ['-q', '-o', file, '-d', dir]);
      assert.deepEqual(
        JSON.parse(fs.readFileSync(path.join(dir, `drawers/${code}-${report.date}.json`), 'utf8')),
        report,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }

    // Admins see every drawer; staff and support do not list them.
    const all = await adminCall(t.app, demo.adminToken, 'GET', `/drawers?from=${report.date}&to=${report.date}`);
    assert.equal(all.statusCode, 200, all.body);
    assert.equal(all.json().data.closed.length, 1);
    assertProblem(await adminCall(t.app, staff, 'GET', '/drawers'), 403, 'forbidden');
    assertProblem(await adminCall(t.app, support, 'POST', drawer('/open'), { float: '1.00' }), 403, 'forbidden');
    // Another company's location is not found.
    assertProblem(await adminCall(t.app, other.adminToken, 'GET', drawer(`/days/${report.date}`)), 404, 'not_found');
    assertProblem(
      await adminCall(t.app, other.adminToken, 'POST', drawer('/open'), { float: '1.00' }),
      404,
      'not_found',
    );
  });

  test('a refund given later than its correction: owed back after a storno or a credit note, given in parts, never more; cash out of the drawer', async () => {
    const shop = await createTenant(t.c);
    const shopStaff = await tokenForRole(t.c, shop, 'staff');
    const shopSupport = await tokenForRole(t.c, shop, 'support');
    const till = `/locations/${shop.locations[0]!.id}/drawer`;
    assert.equal((await adminCall(t.app, shopStaff, 'POST', `${till}/open`, { float: '50.00' })).statusCode, 201);
    /** A converted invoice, `paid` of it paid by transfer. */
    const invoice = async (paid?: string) => {
      const q = await newQuotation(t.app, shop);
      await assignCustomer(t.app, shop, 'quotations', q.id);
      const inv = (await adminCall(t.app, shop.adminToken, 'POST', `/quotations/${q.id}/convert`, {})).json().data;
      const pay = await adminCall(t.app, shop.adminToken, 'POST', `/sales/${inv.id}/payments`, {
        method: 'bank_transfer',
        amount: paid ?? inv.totals.withTax,
      });
      assert.equal(pay.statusCode, 201, pay.body);
      return inv as { id: string; totals: { withTax: string }; lines: Array<{ id: string }> };
    };

    // Cancelled before the money went back: 10.00 owed back.
    const stornoed = await invoice('10.00');
    const storno = await adminCall(t.app, shop.adminToken, 'POST', `/sales/${stornoed.id}/cancel`, {
      reason: 'Kupac odustao',
    });
    assert.equal(storno.statusCode, 201, storno.body);
    const refunds = `/sales/${stornoed.id}/refunds`;
    assertProblem(await adminCall(t.app, shopSupport, 'POST', refunds, { method: 'cash' }), 403, 'forbidden');
    const over = await adminCall(t.app, shopStaff, 'POST', refunds, { method: 'cash', amount: '10.01' });
    assertProblem(over, 400, 'validation_failed');
    assert.ok(over.json().details.amount, 'names amount');
    assertProblem(await adminCall(t.app, shopStaff, 'POST', refunds, { method: 'cheque' }), 400, 'validation_failed');
    assert.equal((await adminCall(t.app, shopStaff, 'GET', `/sales/${stornoed.id}`)).json().data.balance, '-10.00');

    // 4.00 in cash from the drawer now, the rest by transfer.
    const cash = await adminCall(t.app, shopStaff, 'POST', refunds, { method: 'cash', amount: '4.00' });
    assert.equal(cash.statusCode, 201, cash.body);
    assert.equal(cash.json().data.balance, '-6.00');
    const rest = await adminCall(t.app, shop.adminToken, 'POST', refunds, { method: 'bank_transfer' });
    assert.equal(rest.statusCode, 201, rest.body);
    const after = rest.json().data;
    assert.equal(after.balance, '0.00');
    assert.deepEqual(
      after.refunds.map((r: { method: string; amount: string; saleId?: string }) => [r.method, r.amount]),
      [
        ['cash', '4.00'],
        ['bank_transfer', '6.00'],
      ],
    );
    assertProblem(await adminCall(t.app, shopStaff, 'POST', refunds, { method: 'cash' }), 409, 'conflict');
    // Money arriving after the storno is not taken: nothing is due on a cancelled invoice.
    assertProblem(
      await adminCall(t.app, shopStaff, 'POST', `/sales/${stornoed.id}/payments`, { method: 'cash', amount: '1.00' }),
      400,
      'validation_failed',
    );

    // Paid in full, then one unit credited with no refund asked: what the note took off is owed back.
    const credited = await invoice();
    const note = await adminCall(t.app, shop.adminToken, 'POST', `/sales/${credited.id}/credit-notes`, {
      lines: [{ lineId: credited.lines[0]!.id, quantity: '1' }],
      reason: 'Povrat robe',
    });
    assert.equal(note.statusCode, 201, note.body);
    const owed = (await adminCall(t.app, shopStaff, 'GET', `/sales/${credited.id}`)).json().data.balance as string;
    assert.equal(cents(owed), cents(note.json().data.totals.withTax), 'the note’s total is owed back');
    const back = await adminCall(t.app, shopStaff, 'POST', `/sales/${credited.id}/refunds`, { method: 'card' });
    assert.equal(back.statusCode, 201, back.body);
    assert.equal(back.json().data.balance, '0.00');
    // A sale with no correction owes nothing back.
    const plain = await invoice();
    assertProblem(
      await adminCall(t.app, shopStaff, 'POST', `/sales/${plain.id}/refunds`, { method: 'cash' }),
      409,
      'conflict',
    );

    // The cash came out of the drawer; each refund told, against its correction.
    const day = (await adminCall(t.app, shopStaff, 'GET', till)).json().data;
    assert.equal(day.cashRefunds, '4.00');
    assert.equal(day.expected, '46.00');
    const events = await t.c.database.db
      .selectFrom('webhook_events')
      .select('payload')
      .where('company_id', '=', shop.companyId)
      .where('type', '=', 'refund.recorded')
      .execute();
    const told = events.map((e) => JSON.parse(e.payload).data);
    assert.deepEqual(
      told.map((d) => [d.saleId, d.correctionId, d.method, d.amount]).sort(),
      [
        [stornoed.id, storno.json().data.id, 'bank_transfer', '6.00'],
        [stornoed.id, storno.json().data.id, 'cash', '4.00'],
        [credited.id, note.json().data.id, 'card', cents(owed) < 0 ? money(-cents(owed)) : owed],
      ].sort(),
    );
  });

  test('refunds: a counter sale’s goes back as it was paid when unasked; another invoice’s stays owed back unless asked; an unpaid one refunds nothing', async () => {
    const paid = await adminCall(t.app, demo.adminToken, 'POST', '/counter-sales', {
      lines: [line(1, 1)],
      paymentMethod: 'card',
      locationId: demo.locations[1]!.id,
    });
    assert.equal(paid.statusCode, 201, paid.body);
    const storno = await adminCall(t.app, demo.adminToken, 'POST', `/sales/${paid.json().data.id}/cancel`, {
      reason: 'Greška',
    });
    assert.equal(storno.statusCode, 201, storno.body);
    assert.equal(storno.json().data.refunds[0].method, 'card');
    const bad = await adminCall(t.app, demo.adminToken, 'POST', `/sales/${paid.json().data.id}/cancel`, {
      reason: 'Greška',
      refund: { method: 'cheque' },
    });
    assertProblem(bad, 400, 'validation_failed');
    // An unpaid invoice (converted, paid by transfer later) is cancelled with no refund.
    const q = await newQuotation(t.app, demo);
    await assignCustomer(t.app, demo, 'quotations', q.id);
    const unpaid = (await adminCall(t.app, demo.adminToken, 'POST', `/quotations/${q.id}/convert`, {})).json().data;
    const plain = await adminCall(t.app, demo.adminToken, 'POST', `/sales/${unpaid.id}/cancel`, {
      reason: 'Greška',
      refund: { method: 'cash' },
    });
    assert.equal(plain.statusCode, 201, plain.body);
    assert.deepEqual(plain.json().data.refunds, []);

    // A converted invoice paid later: unasked, what was paid stays owed back; asked, it is refunded.
    const paidLater = async () => {
      const q2 = await newQuotation(t.app, demo);
      await assignCustomer(t.app, demo, 'quotations', q2.id);
      const inv = (await adminCall(t.app, demo.adminToken, 'POST', `/quotations/${q2.id}/convert`, {})).json().data;
      const pay = await adminCall(t.app, demo.adminToken, 'POST', `/sales/${inv.id}/payments`, {
        method: 'bank_transfer',
        amount: '10.00',
      });
      assert.equal(pay.statusCode, 201, pay.body);
      return inv.id as string;
    };
    const owed = await paidLater();
    const unasked = await adminCall(t.app, demo.adminToken, 'POST', `/sales/${owed}/cancel`, { reason: 'Greška' });
    assert.deepEqual(unasked.json().data.refunds, []);
    assert.equal((await adminCall(t.app, demo.adminToken, 'GET', `/sales/${owed}`)).json().data.balance, '-10.00');
    const asked = await paidLater();
    const refunded = await adminCall(t.app, demo.adminToken, 'POST', `/sales/${asked}/cancel`, {
      reason: 'Greška',
      refund: { method: 'bank_transfer' },
    });
    assert.equal(refunded.json().data.refunds[0].amount, '10.00');
    assert.equal((await adminCall(t.app, demo.adminToken, 'GET', `/sales/${asked}`)).json().data.balance, '0.00');
  });
});
