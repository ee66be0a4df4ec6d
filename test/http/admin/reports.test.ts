// test-engines: both
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { readWorkbook } from '../../support/xlsx.ts';
import { createTestApp, createTenant, type TestApp } from '../../support/test-app.ts';
import { assertProblem, tokenForRole } from '../../support/http-helpers.ts';
import { adminCall, assignCustomer, newQuotation } from '../../support/sales-helpers.ts';
import type { DemoCompany } from '../../../src/modules/demo/demo-company.ts';
import { formatMoney } from '../../../src/lib/money.ts';

const cents = (amount: string) => Math.round(Number(amount) * 100);
/** Reports answer money as the rest of the API does: decimal strings, two places. */
const money = (sum: number) => formatMoney(sum);
const DAY = 86_400_000;
/** 2026-10-01 09:00 in Zagreb (CEST). */
const BASE = Date.parse('2026-10-01T07:00:00.000Z');
/** The calendar date in Zagreb of an instant (the demo company's zone). */
const zagrebDate = (iso: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Zagreb' }).format(new Date(iso));

interface Op {
  day: number;
  hour: number;
  location: 0 | 1;
  pay: 'none' | 'cash' | 'card';
  voidPay: boolean;
  correction: 'none' | 'cancel' | 'credit';
}

const opArb: fc.Arbitrary<Op> = fc.record({
  day: fc.integer({ min: 0, max: 60 }),
  // Late evening hours too: 23:30 UTC is the next day in Zagreb.
  hour: fc.constantFrom(0, 8, 15, 22.5),
  location: fc.constantFrom(0 as const, 1 as const),
  pay: fc.constantFrom('none' as const, 'cash' as const, 'card' as const),
  voidPay: fc.boolean(),
  correction: fc.constantFrom('none' as const, 'cancel' as const, 'credit' as const),
});

/** Issue 23: reports are sums of the documents' own printed figures, in the company's days. */
describe('reports', () => {
  let t: TestApp;
  let now = BASE;

  before(async () => {
    t = await createTestApp({}, { clock: { now: () => new Date(now) } });
  });
  after(async () => {
    await t.close();
  });

  async function invoice(d: DemoCompany, location: number, name = 'Ana Kovač') {
    const q = await newQuotation(t.app, d, { location, name });
    await assignCustomer(t.app, d, 'quotations', q.id, { name });
    const res = await adminCall(t.app, d.adminToken, 'POST', `/quotations/${q.id}/convert`, { paymentMethod: 'cash' });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data;
  }

  async function apply(d: DemoCompany, ops: Op[]): Promise<void> {
    for (const op of ops.toSorted((a, b) => a.day - b.day || a.hour - b.hour)) {
      now = BASE + op.day * DAY + op.hour * 3_600_000;
      const sale = await invoice(d, op.location);
      if (op.pay !== 'none') {
        const paid = await adminCall(t.app, d.adminToken, 'POST', `/sales/${sale.id}/payments`, {
          method: op.pay,
          amount: (Math.floor(cents(sale.totals.withTax) / 2) / 100).toFixed(2),
        });
        assert.equal(paid.statusCode, 201, paid.body);
        if (op.voidPay) {
          now += 3_600_000;
          const pid = paid.json().data.payments[0].id;
          const voided = await adminCall(t.app, d.adminToken, 'POST', `/sales/${sale.id}/payments/${pid}/void`, {
            reason: 'Krivi iznos',
          });
          assert.equal(voided.statusCode, 200, voided.body);
        }
      }
      if (op.correction === 'cancel') {
        const res = await adminCall(t.app, d.adminToken, 'POST', `/sales/${sale.id}/cancel`, {
          reason: 'Kupac odustao',
        });
        assert.ok([201, 409].includes(res.statusCode), res.body);
      } else if (op.correction === 'credit') {
        const res = await adminCall(t.app, d.adminToken, 'POST', `/sales/${sale.id}/credit-notes`, {
          lines: [{ lineId: sale.lines[0].id, quantity: '1' }],
          reason: 'Vraćena jedna limenka',
        });
        assert.ok([201, 409].includes(res.statusCode), res.body);
      }
    }
  }

  /** Every document of the company as its own JSON shows it. */
  async function documents(d: DemoCompany) {
    const list = await adminCall(t.app, d.adminToken, 'GET', '/sales?limit=100');
    assert.equal(list.statusCode, 200, list.body);
    const out = [];
    for (const s of list.json().data) {
      const one = await adminCall(t.app, d.adminToken, 'GET', `/sales/${s.id}`);
      out.push(one.json().data);
    }
    return out;
  }

  test('every report equals the sum of the documents’ own figures (random data, property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 5 }), async (ops) => {
        const d = await createTenant(t.c);
        await apply(d, ops);
        const docs = await documents(d);
        const range = 'from=2026-10-01&to=2026-11-30';

        // Sales per month: net, VAT, gross and counts per kind.
        const sales = (await adminCall(t.app, d.adminToken, 'GET', `/reports/sales?${range}&groupBy=month`)).json()
          .data;
        for (const p of sales.periods) {
          const mine = docs.filter((x) => zagrebDate(x.issuedAt).startsWith(p.key));
          assert.equal(p.total.net, money(mine.reduce((a, x) => a + cents(x.totals.net), 0)));
          assert.equal(p.total.tax, money(mine.reduce((a, x) => a + cents(x.totals.tax), 0)));
          assert.equal(p.total.gross, money(mine.reduce((a, x) => a + cents(x.totals.withTax), 0)));
          assert.equal(p.kinds.invoice.count, mine.filter((x) => x.kind === 'invoice').length);
          assert.equal(p.kinds.cancellation.count, mine.filter((x) => x.kind === 'cancellation').length);
          assert.equal(p.kinds.credit_note.count, mine.filter((x) => x.kind === 'credit_note').length);
        }
        const inRange = docs.filter((x) => zagrebDate(x.issuedAt) <= '2026-11-30');
        assert.equal(sales.total.gross, money(inRange.reduce((a, x) => a + cents(x.totals.withTax), 0)));
        assert.equal(
          money(sales.rows.reduce((a: number, r: { total: { gross: string } }) => a + cents(r.total.gross), 0)),
          sales.total.gross,
        );

        // A range of part months, by month (whole months and days read alike) and by week.
        const partly = docs.filter(
          (x) => zagrebDate(x.issuedAt) >= '2026-10-10' && zagrebDate(x.issuedAt) <= '2026-11-20',
        );
        for (const groupBy of ['month', 'week', 'day']) {
          const r = (
            await adminCall(
              t.app,
              d.adminToken,
              'GET',
              `/reports/sales?from=2026-10-10&to=2026-11-20&groupBy=${groupBy}`,
            )
          ).json().data;
          assert.deepEqual(
            [r.total.count, r.total.net, r.total.gross],
            [
              partly.length,
              money(partly.reduce((a, x) => a + cents(x.totals.net), 0)),
              money(partly.reduce((a, x) => a + cents(x.totals.withTax), 0)),
            ],
            groupBy,
          );
        }

        // VAT per rate: the printed tax summaries, netted.
        const vat = (await adminCall(t.app, d.adminToken, 'GET', `/reports/vat?${range}`)).json().data;
        const printed = new Map<number, { base: number; tax: number }>();
        for (const x of inRange)
          for (const row of x.totals.taxes) {
            const bp = Math.round(Number(row.rate) * 100);
            const sum = printed.get(bp) ?? { base: 0, tax: 0 };
            sum.base += cents(row.base);
            sum.tax += cents(row.tax);
            printed.set(bp, sum);
          }
        assert.deepEqual(
          vat.rates.map((r: { rateBp: number; base: string; tax: string }) => [r.rateBp, r.base, r.tax]),
          [...printed].sort((a, b) => b[0] - a[0]).map(([bp, s]) => [bp, money(s.base), money(s.tax)]),
        );

        // The book: one entry per document, each with its own totals.
        const book = (await adminCall(t.app, d.adminToken, 'GET', `/reports/vat?${range}&view=book`)).json().data;
        assert.equal(book.entries.length, inRange.length);
        for (const e of book.entries) {
          const x = docs.find((y) => y.id === e.saleId)!;
          assert.deepEqual([e.base, e.tax, e.gross], [x.totals.net, x.totals.tax, x.totals.withTax]);
        }

        // Payments: received on the day recorded, voided on the day voided.
        const pays = (await adminCall(t.app, d.adminToken, 'GET', `/reports/payments?${range}`)).json().data;
        const payments = docs.flatMap((x) => x.payments);
        const inside = (iso: string) => zagrebDate(iso) <= '2026-11-30';
        assert.equal(
          pays.total.received,
          money(payments.filter((p) => inside(p.createdAt)).reduce((a, p) => a + cents(p.amount), 0)),
        );
        assert.equal(
          pays.total.voided,
          money(payments.filter((p) => p.voided && inside(p.voided.at)).reduce((a, p) => a + cents(p.amount), 0)),
        );
        for (const p of pays.periods)
          assert.equal(
            p.received,
            money(payments.filter((x) => zagrebDate(x.createdAt) === p.key).reduce((a, x) => a + cents(x.amount), 0)),
          );

        // Receivables: the invoices' balances still owed (a refund the shop owes is not one).
        const rec = (await adminCall(t.app, d.adminToken, 'GET', '/reports/receivables?to=2026-12-31')).json().data;
        assert.equal(
          rec.total,
          money(docs.filter((x) => x.kind === 'invoice').reduce((a, x) => a + Math.max(0, cents(x.balance)), 0)),
        );
        assert.equal(
          rec.total,
          money(Object.values(rec.ages as Record<string, string>).reduce((a, b) => a + cents(b), 0)),
        );
      }),
      { numRuns: 4 },
    );
  });

  test('the previous period is the month before; a day ends at midnight in the company’s zone', async () => {
    const d = await createTenant(t.c);
    now = Date.parse('2026-10-15T10:00:00.000Z');
    const october = await invoice(d, 0);
    // 23:30 UTC on 30 November is 1 December in Zagreb.
    now = Date.parse('2026-11-30T23:30:00.000Z');
    const december = await invoice(d, 0);
    const res = await adminCall(t.app, d.adminToken, 'GET', '/reports/sales?from=2026-11-01&to=2026-11-30');
    assert.equal(res.statusCode, 200, res.body);
    const r = res.json().data;
    assert.equal(r.total.count, 0);
    assert.deepEqual([r.previous.from, r.previous.to], ['2026-10-01', '2026-10-31']);
    assert.equal(r.previous.total.gross, october.totals.withTax);
    const dec = (
      await adminCall(t.app, d.adminToken, 'GET', '/reports/sales?from=2026-12-01&to=2026-12-01&groupBy=day')
    ).json().data;
    assert.equal(dec.total.gross, december.totals.withTax);
  });

  test('tenancy: another company’s documents never count, its location is refused', async () => {
    const a = await createTenant(t.c);
    const b = await createTenant(t.c);
    now = Date.parse('2026-10-10T10:00:00.000Z');
    await invoice(a, 0);
    const res = await adminCall(t.app, b.adminToken, 'GET', '/reports/sales?from=2026-10-01&to=2026-10-31');
    assert.equal(res.json().data.total.count, 0);
    const vat = await adminCall(t.app, b.adminToken, 'GET', '/reports/vat?from=2026-10-01&to=2026-10-31');
    assert.deepEqual(vat.json().data.rates, []);
    const foreign = await adminCall(
      t.app,
      b.adminToken,
      'GET',
      `/reports/payments?from=2026-10-01&to=2026-10-31&locationId=${a.locations[0]!.id}`,
    );
    assertProblem(foreign, 400, 'validation_failed');
    assert.ok(foreign.json().details.locationId);
  });

  test('bad ranges are 400s naming the field; only admins read reports', async () => {
    const d = await createTenant(t.c);
    const reversed = await adminCall(t.app, d.adminToken, 'GET', '/reports/sales?from=2026-10-31&to=2026-10-01');
    assertProblem(reversed, 400, 'validation_failed');
    assert.ok(reversed.json().details.to);
    const long = await adminCall(
      t.app,
      d.adminToken,
      'GET',
      '/reports/sales?from=2020-01-01&to=2026-10-01&groupBy=day',
    );
    assertProblem(long, 400, 'validation_failed');
    assert.ok(long.json().details.groupBy);
    const bad = await adminCall(t.app, d.adminToken, 'GET', '/reports/vat?from=2026-02-30&to=2026-03-01');
    assert.equal(bad.statusCode, 400);
    for (const role of ['staff', 'support'] as const) {
      const token = await tokenForRole(t.c, d, role);
      const res = await adminCall(t.app, token, 'GET', '/reports/sales?from=2026-10-01&to=2026-10-31');
      assertProblem(res, 403, 'forbidden');
    }
  });

  test('CSV for Croatian and German Excel: BOM, `;`, decimal comma, local dates, formulas neutralised', async () => {
    const d = await createTenant(t.c);
    now = Date.parse('2026-10-05T09:00:00.000Z');
    const sale = await invoice(d, 0, '=HYPERLINK("http://evil.example","klik")');
    const res = await adminCall(
      t.app,
      d.adminToken,
      'GET',
      '/reports/vat?from=2026-10-01&to=2026-10-31&view=book&format=csv',
    );
    assert.equal(res.statusCode, 200, res.body);
    assert.match(res.headers['content-type'] as string, /^text\/csv/);
    assert.match(
      res.headers['content-disposition'] as string,
      /^attachment; filename="book-2026-10-01-2026-10-31.csv"/,
    );
    assert.ok(res.body.startsWith('\uFEFF'), 'UTF-8 BOM');
    const rows: string[][] = parse(res.body, { bom: true, delimiter: ';' });
    // Obrazac I-RA's columns in its order: 1–6, the ten not-taxable and exempt columns (7–16), 0 %
    // (17), then base and VAT per rate (5, 13, 25 % always for a Croatian company); the kind last.
    assert.deepEqual(rows[0]!.slice(0, 7), [
      'Red. br.',
      'Broj računa',
      'Datum',
      'Kupac',
      'Adresa (sjedište) kupca',
      'OIB kupca',
      'Iznos (s PDV-om)',
    ]);
    assert.equal(rows[0]![7], 'Ne podliježe: tuzemni prijenos porezne obveze');
    assert.equal(rows[0]![14], 'Oslobođeno: u tuzemstvu');
    assert.equal(rows[0]![17], '0 %: vrijednost isporuke');
    assert.deepEqual(rows[0]!.slice(18), [
      'Porezna osnovica 5 %',
      'PDV 5 %',
      'Porezna osnovica 13 %',
      'PDV 13 %',
      'Porezna osnovica 25 %',
      'PDV 25 %',
      'Vrsta',
    ]);
    const entry = rows[1]!;
    assert.equal(entry[2], '05.10.2026.');
    assert.equal(entry[1], sale.invoiceNumber);
    assert.equal(entry[3], `'=HYPERLINK("http://evil.example","klik")`);
    assert.equal(entry[6], sale.totals.withTax.replace('.', ','));
    assert.equal(entry[22], sale.totals.net.replace('.', ','), 'the 25 % base');
    assert.equal(entry[23], sale.totals.tax.replace('.', ','), 'the 25 % VAT');

    const de = await adminCall(
      t.app,
      d.adminToken,
      'GET',
      '/reports/sales?from=2026-10-01&to=2026-10-31&format=csv&locale=de',
    );
    const deRows: string[][] = parse(de.body, { bom: true, delimiter: ';' });
    assert.deepEqual(deRows[0]!.slice(-3), ['Netto', 'USt', 'Brutto']);
    assert.equal(deRows[1]!.at(-1), sale.totals.withTax.replace('.', ','));

    // A cancellation's negative amounts stay numbers, not neutralised text.
    now += 3_600_000;
    await adminCall(t.app, d.adminToken, 'POST', `/sales/${sale.id}/cancel`, { reason: 'Greška' });
    const en = await adminCall(
      t.app,
      d.adminToken,
      'GET',
      '/reports/vat?from=2026-10-01&to=2026-10-31&view=book&format=csv&locale=en',
    );
    const enRows: string[][] = parse(en.body, { bom: true, delimiter: ',' });
    assert.equal(enRows[2]![6], `-${sale.totals.withTax}`);
    assert.equal(enRows[2]![2], '2026-10-05');
  });

  test('XLSX read back by the library: numbers, dates, and text that is never a formula', async () => {
    const d = await createTenant(t.c);
    now = Date.parse('2026-10-06T09:00:00.000Z');
    const sale = await invoice(d, 0, '@SUM(1+1)');
    const res = await adminCall(
      t.app,
      d.adminToken,
      'GET',
      '/reports/vat?from=2026-10-01&to=2026-10-31&view=book',
      undefined,
      {
        accept: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      },
    );
    assert.equal(res.statusCode, 200, res.body);
    const book = await readWorkbook(res.rawPayload);
    const [header, row] = book.rows;
    assert.equal(header![3], 'Kupac');
    // Text that reads as a formula is a string cell, and the sheet holds no formula at all.
    assert.equal(row![3], '@SUM(1+1)');
    assert.equal(book.formulas, 0);
    assert.equal(row![1], sale.invoiceNumber);
    assert.deepEqual(row![2], new Date('2026-10-06T00:00:00.000Z'));
    assert.equal(row![6], Number(sale.totals.withTax));
    // Amounts are numbers a spreadsheet can sum, not text.
    assert.equal(typeof row![6], 'number');
  });

  test('the lists export whole: sales, customers and quotations as CSV and XLSX', async () => {
    const d = await createTenant(t.c);
    now = Date.parse('2026-10-07T09:00:00.000Z');
    const sale = await invoice(d, 0, '+385 trick');
    await newQuotation(t.app, d, { name: '-1+1' });
    const sales = await adminCall(t.app, d.adminToken, 'GET', '/sales?format=csv&limit=1');
    assert.equal(sales.statusCode, 200, sales.body);
    assert.ok(sales.body.startsWith('\uFEFF'));
    const rows: string[][] = parse(sales.body, { bom: true, delimiter: ';' });
    assert.equal(rows.length, 2, 'every sale, not a page');
    assert.deepEqual(rows[1]!.slice(0, 6), [
      sale.invoiceNumber,
      'Račun',
      'Neplaćena',
      '07.10.2026.',
      '07.10.2026.',
      "'+385 trick",
    ]);
    assert.equal(rows[1]![9], sale.totals.withTax.replace('.', ','));

    const customers = await adminCall(t.app, d.adminToken, 'GET', '/customers?format=xlsx');
    assert.equal(customers.statusCode, 200, customers.body);
    const workbook = await readWorkbook(customers.rawPayload);
    const names = workbook.rows.slice(1).map((r) => r[0]);
    assert.ok(names.includes('+385 trick'), String(names));
    assert.equal(workbook.formulas, 0);

    const quotations = await adminCall(t.app, d.adminToken, 'GET', '/quotations?format=csv&locale=de');
    const q: string[][] = parse(quotations.body, { bom: true, delimiter: ';' });
    assert.deepEqual(q[0]!.slice(0, 5), ['Nummer', 'Status', 'Erstellt', 'Gültig bis', 'Kunde']);
    assert.ok(
      q.some((r) => r[4] === "'-1+1"),
      'a name starting with - is neutralised',
    );

    const json = await adminCall(t.app, d.adminToken, 'GET', '/sales?limit=1');
    assert.equal(json.json().data.length, 1);
  });
});
