// test-engines: both
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, createTenant, type TestApp } from '../../support/test-app.ts';
import { assertProblem, tokenForRole } from '../../support/http-helpers.ts';
import { pdfText } from '../../support/quote-helpers.ts';
import { adminCall, assignCustomer, newOib, newOrder, newQuotation } from '../../support/sales-helpers.ts';
import type { DemoCompany } from '../../../src/modules/demo/demo-company.ts';

/** Events of the given types the outbox holds for a company, oldest first, as `type:data.saleId`. */
async function events(t: TestApp, companyId: string, types: readonly string[]) {
  const rows = await t.c.database.db
    .selectFrom('webhook_events')
    .select(['type', 'payload'])
    .where('company_id', '=', companyId)
    .where('type', 'in', types)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ type: r.type, data: JSON.parse(r.payload).data as Record<string, string> }));
}

const cents = (amount: string) => Math.round(Number(amount) * 100);

/** Issue 20: the sale is an invoice with a legal number; corrected only by storno, credit note or a payment void. */
describe('invoices', () => {
  let t: TestApp;
  let demo: DemoCompany;
  let staff: string;
  let support: string;
  const now = Date.parse('2026-05-04T08:00:00.000Z');

  async function invoice(d: DemoCompany, body: Record<string, unknown> = {}, opts: { location?: number } = {}) {
    const q = await newQuotation(t.app, d, { location: opts.location });
    await assignCustomer(t.app, d, 'quotations', q.id);
    const res = await adminCall(t.app, d.adminToken, 'POST', `/quotations/${q.id}/convert`, body);
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data;
  }

  before(async () => {
    t = await createTestApp({}, { clock: { now: () => new Date(now) } });
    demo = await createTenant(t.c);
    staff = await tokenForRole(t.c, demo, 'staff');
    support = await tokenForRole(t.c, demo, 'support');
  });
  after(async () => {
    await t.close();
  });

  test('converting issues an invoice: legal number, dates, payment method, operator, fiscal status', async () => {
    const sale = await invoice(demo, { paymentMethod: 'card' });
    assert.equal(sale.kind, 'invoice');
    assert.match(sale.invoiceNumber, /^\d+\/ZG1\/1$/);
    assert.match(sale.number, /^S-ZG1-2026-\d{5}$/);
    assert.equal(sale.issuedAt, '2026-05-04T08:00:00.000Z');
    assert.equal(sale.deliveryDate, '2026-05-04');
    assert.equal(sale.dueDate, '2026-05-04');
    assert.equal(sale.paymentMethod, 'card');
    assert.equal(sale.operator.name, 'Ana Kovač');
    assert.deepEqual(sale.fiscal, { status: 'not_required', zki: null, jir: null, verifyUrl: null });
    assert.equal(typeof sale.lines[0].id, 'string');

    const o = await newOrder(t.app, demo);
    await assignCustomer(t.app, demo, 'orders', o.id);
    assert.equal((await adminCall(t.app, demo.adminToken, 'POST', `/orders/${o.id}/accept`)).statusCode, 200);
    const converted = await adminCall(t.app, demo.adminToken, 'POST', `/orders/${o.id}/convert`);
    assert.equal(converted.statusCode, 201, converted.body);
    const fromOrder = converted.json().data;
    assert.equal(fromOrder.paymentMethod, 'bank_transfer', 'the default when the body names none');
    assert.equal(fromOrder.dueDate, '2026-05-19', 'a bank transfer is given 15 days');
    assert.equal(
      Number(fromOrder.invoiceNumber.split('/')[0]),
      Number(sale.invoiceNumber.split('/')[0]) + 1,
      'one series per premises',
    );
    assertProblem(
      await adminCall(t.app, demo.adminToken, 'POST', `/orders/${o.id}/convert`, { paymentMethod: 'cheque' }),
      400,
      'validation_failed',
    );
  });

  test('numbering under concurrency: gap-free per premises and year, per device in mode N', async () => {
    const d = await createTenant(t.c);
    const [zagreb, split] = d.locations;
    const patched = await adminCall(t.app, d.adminToken, 'PATCH', `/locations/${zagreb!.id}`, {
      fiscalPremises: 'POSL7',
      fiscalDevice: '2',
    });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.deepEqual([patched.json().data.fiscalPremises, patched.json().data.fiscalDevice], ['POSL7', '2']);
    for (const bad of [{ fiscalPremises: 'ZG 1' }, { fiscalDevice: '01' }]) {
      const problem = assertProblem(
        await adminCall(t.app, d.adminToken, 'PATCH', `/locations/${zagreb!.id}`, bad),
        400,
        'validation_failed',
      );
      assert.ok(problem.details[Object.keys(bad)[0]!], JSON.stringify(problem.details));
    }
    const listed = await adminCall(t.app, d.adminToken, 'GET', '/locations');
    assert.equal(listed.json().data.length, 2);

    // Quotations first (their own numbers), then every conversion at once.
    const quotations = [];
    for (let i = 0; i < 8; i++) {
      const q = await newQuotation(t.app, d, { location: i % 4 === 3 ? 1 : 0 });
      await assignCustomer(t.app, d, 'quotations', q.id);
      quotations.push(q);
    }
    const results = await Promise.all(
      quotations.map((q) => adminCall(t.app, d.adminToken, 'POST', `/quotations/${q.id}/convert`, {})),
    );
    for (const r of results) assert.equal(r.statusCode, 201, r.body);
    const numbers = results.map((r) => r.json().data.invoiceNumber as string);
    const zg = numbers.filter((n) => n.endsWith('/POSL7/2')).map((n) => Number(n.split('/')[0]));
    const st = numbers.filter((n) => n.endsWith('/ST1/1')).map((n) => Number(n.split('/')[0]));
    assert.deepEqual(
      zg.sort((a, b) => a - b),
      [1, 2, 3, 4, 5, 6],
    );
    assert.deepEqual(
      st.sort((a, b) => a - b),
      [1, 2],
    );
    assert.ok(split);

    // Mode N: each device of the premises has its own series.
    const mode = await adminCall(t.app, d.adminToken, 'PATCH', '/settings', { fiscal: { sequenceMode: 'device' } });
    assert.equal(mode.statusCode, 200, mode.body);
    assert.equal(mode.json().data.fiscal.sequenceMode, 'device');
    // Its numbers 1-6 were used in mode P this year: a number is never issued twice.
    const q = await newQuotation(t.app, d);
    await assignCustomer(t.app, d, 'quotations', q.id);
    assertProblem(await adminCall(t.app, d.adminToken, 'POST', `/quotations/${q.id}/convert`, {}), 409, 'conflict');
    await adminCall(t.app, d.adminToken, 'PATCH', `/locations/${zagreb!.id}`, { fiscalDevice: '3' });
    const next = await adminCall(t.app, d.adminToken, 'POST', `/quotations/${q.id}/convert`, {});
    assert.equal(next.statusCode, 201, next.body);
    assert.equal(next.json().data.invoiceNumber, '1/POSL7/3', 'a new device starts its own series');
  });

  test('storno: every line negated, totals the negation, own number in the series, the original cancelled', async () => {
    const original = await invoice(demo);
    const res = await adminCall(t.app, demo.adminToken, 'POST', `/sales/${original.id}/cancel`, {
      reason: 'Issued to the wrong customer.',
    });
    assert.equal(res.statusCode, 201, res.body);
    const storno = res.json().data;
    assert.equal(storno.kind, 'cancellation');
    assert.equal(storno.correctsSaleId, original.id);
    assert.equal(storno.correctionReason, 'Issued to the wrong customer.');
    assert.deepEqual(storno.source, { type: 'sale', id: original.id, number: original.invoiceNumber });
    assert.equal(Number(storno.invoiceNumber.split('/')[0]), Number(original.invoiceNumber.split('/')[0]) + 1);
    assert.equal(storno.lines.length, original.lines.length);
    storno.lines.forEach((line: Record<string, string>, i: number) => {
      const was = original.lines[i];
      assert.equal(cents(line.total!), -cents(was.total), `line ${i} total`);
      assert.equal(Number(line.quantity), -Number(was.quantity), `line ${i} quantity`);
    });
    for (const field of ['net', 'tax', 'withTax'])
      assert.equal(cents(storno.totals[field]), -cents(original.totals[field]), field);
    assert.equal(storno.balance, '0.00');
    assert.equal(storno.deliveryDate, original.deliveryDate, "a storno takes back the original's supply");
    assert.equal(storno.note, null, "the original's note is not repeated");

    const after = (await adminCall(t.app, demo.adminToken, 'GET', `/sales/${original.id}`)).json().data;
    assert.equal(after.status, 'cancelled');
    assert.equal(after.balance, '0.00');
    assert.deepEqual(after.corrections, [{ id: storno.id, kind: 'cancellation', invoiceNumber: storno.invoiceNumber }]);
    assertProblem(
      await adminCall(t.app, demo.adminToken, 'POST', `/sales/${original.id}/cancel`, { reason: 'again' }),
      409,
      'conflict',
    );
    assertProblem(
      await adminCall(t.app, demo.adminToken, 'POST', `/sales/${storno.id}/cancel`, { reason: 'a storno of a storno' }),
      409,
      'conflict',
    );
    assertProblem(
      await adminCall(t.app, staff, 'POST', `/sales/${original.id}/payments`, { method: 'cash', amount: '1.00' }),
      400,
      'validation_failed',
    );
    const cancelled = await events(t, demo.companyId, ['sale.cancelled']);
    assert.ok(cancelled.some((e) => e.data.saleId === original.id && e.data.cancellationId === storno.id));
  });

  test('a paid invoice cancelled: what was paid is owed back (a negative balance)', async () => {
    const paid = await invoice(demo);
    const pay = await adminCall(t.app, staff, 'POST', `/sales/${paid.id}/payments`, {
      method: 'cash',
      amount: '10.00',
    });
    assert.equal(pay.statusCode, 201, pay.body);
    const res = await adminCall(t.app, demo.adminToken, 'POST', `/sales/${paid.id}/cancel`, { reason: 'Wrong goods.' });
    assert.equal(res.statusCode, 201, res.body);
    const after = (await adminCall(t.app, demo.adminToken, 'GET', `/sales/${paid.id}`)).json().data;
    assert.equal(after.status, 'cancelled');
    assert.equal(after.balance, '-10.00');
    // The invoice stays as issued; its account statement says what is owed back.
    const pdf = await adminCall(t.app, demo.adminToken, 'GET', `/sales/${paid.id}/statement?format=pdf`);
    const text = (await pdfText(pdf.rawPayload)).replace(/\s+/g, ' ');
    assert.match(text, /Za povrat 10,00 €/, 'the statement says what is owed back');
    assert.match(text, /Stornirano storno računom br\. \d+\/\w+\/\d+ od/);
    assert.doesNotMatch(text, /IBAN/);
  });

  test('credit notes: partial, never more than invoiced less earlier credits; the last one credits exactly the rest', async () => {
    const original = await invoice(demo);
    const line = original.lines[0]; // quantity 2
    const first = await adminCall(t.app, demo.adminToken, 'POST', `/sales/${original.id}/credit-notes`, {
      // A JSON number, as every quantity of the API may be sent (or a decimal string, below).
      lines: [{ lineId: line.id, quantity: 0.5 }],
      reason: 'Half a tin returned.',
    });
    assert.equal(first.statusCode, 201, first.body);
    const note = first.json().data;
    assert.equal(note.kind, 'credit_note');
    assert.equal(note.lines.length, 1);
    assert.equal(note.lines[0].quantity, '-0.5');
    assert.ok(cents(note.totals.withTax) < 0);
    const left = (await adminCall(t.app, demo.adminToken, 'GET', `/sales/${original.id}`)).json().data;
    assert.equal(left.lines[0].creditable, '1.5', 'what is left to credit of the line');
    assert.equal(left.lines[1].creditable, original.lines[1].quantity);
    assert.equal(note.lines[0].creditable, null, 'nothing to credit on a credit note');
    // The statement names the credit note; the invoice's own print stays as issued.
    const reprint = await adminCall(t.app, demo.adminToken, 'GET', `/sales/${original.id}/statement?format=pdf`);
    const reprinted = (await pdfText(reprint.rawPayload)).replace(/\s+/g, ' ');
    const minus = `−${(-cents(note.totals.withTax) / 100).toFixed(2).replace('.', ',')} €`;
    assert.ok(
      reprinted.includes(`Odobrenje br. ${note.invoiceNumber} od`) && reprinted.includes(minus),
      `the invoice names its credit note and what it took off:\n${reprinted}`,
    );
    assert.match(reprinted, new RegExp(`Odobreno \\(povrat robe\\) ${minus}`));

    const tooMuch = assertProblem(
      await adminCall(t.app, demo.adminToken, 'POST', `/sales/${original.id}/credit-notes`, {
        lines: [{ lineId: line.id, quantity: '1.501' }],
        reason: 'More than is left.',
      }),
      400,
      'validation_failed',
    );
    assert.match(tooMuch.details['lines[0].quantity'][0], /more than is left to credit.*1\.5/);
    for (const quantity of ['1,5', '-1', 1.0005, true, null])
      assert.deepEqual(
        Object.keys(
          assertProblem(
            await adminCall(t.app, demo.adminToken, 'POST', `/sales/${original.id}/credit-notes`, {
              lines: [{ lineId: line.id, quantity }],
              reason: 'Not a quantity.',
            }),
            400,
            'validation_failed',
          ).details,
        ),
        ['lines[0].quantity'],
        String(quantity),
      );
    const unknown = assertProblem(
      await adminCall(t.app, demo.adminToken, 'POST', `/sales/${original.id}/credit-notes`, {
        lines: [{ lineId: 'sln_nope', quantity: '1' }],
        reason: 'No such line.',
      }),
      400,
      'validation_failed',
    );
    assert.ok(unknown.details['lines[0].lineId']);

    const rest = await adminCall(t.app, demo.adminToken, 'POST', `/sales/${original.id}/credit-notes`, {
      lines: [{ lineId: line.id, quantity: '1.5' }],
      reason: 'The rest returned.',
    });
    assert.equal(rest.statusCode, 201, rest.body);
    const credited = cents(note.totals.withTax) + cents(rest.json().data.totals.withTax);
    assert.equal(credited, -cents(line.total), 'the credits add up to the line exactly');
    const after = (await adminCall(t.app, demo.adminToken, 'GET', `/sales/${original.id}`)).json().data;
    assert.equal(cents(after.credited), -credited);
    assert.equal(cents(after.balance), cents(original.totals.withTax) + credited);
    assert.equal(after.corrections.length, 2);
    assertProblem(
      await adminCall(t.app, demo.adminToken, 'POST', `/sales/${original.id}/credit-notes`, {
        lines: [{ lineId: line.id, quantity: '0.001' }],
        reason: 'Nothing left.',
      }),
      400,
      'validation_failed',
    );
    // A partly credited invoice is not cancelled whole.
    assertProblem(
      await adminCall(t.app, demo.adminToken, 'POST', `/sales/${original.id}/cancel`, { reason: 'x' }),
      409,
      'conflict',
    );
    const notes = await events(t, demo.companyId, ['credit_note.created']);
    assert.equal(notes.filter((e) => e.data.saleId === original.id).length, 2, 'a refused credit note wrote no event');
  });

  test('a payment void: kept with who, when and why; balance and status recomputed; announced', async () => {
    const sale = await invoice(demo);
    const paid = await adminCall(t.app, staff, 'POST', `/sales/${sale.id}/payments`, {
      method: 'cash',
      amount: sale.totals.withTax,
    });
    assert.equal(paid.statusCode, 201, paid.body);
    assert.equal(paid.json().data.status, 'paid');
    const payment = paid.json().data.payments[0];
    assertProblem(
      await adminCall(t.app, support, 'POST', `/sales/${sale.id}/payments/${payment.id}/void`, { reason: 'x' }),
      403,
      'forbidden',
    );
    const voided = await adminCall(t.app, staff, 'POST', `/sales/${sale.id}/payments/${payment.id}/void`, {
      reason: 'Recorded twice.',
    });
    assert.equal(voided.statusCode, 200, voided.body);
    const data = voided.json().data;
    assert.equal(data.status, 'unpaid');
    assert.equal(data.paid, '0.00');
    assert.equal(data.balance, sale.totals.withTax);
    assert.equal(data.payments.length, 1, 'kept, never deleted');
    assert.equal(data.payments[0].voided.reason, 'Recorded twice.');
    assert.equal(data.payments[0].voided.at, '2026-05-04T08:00:00.000Z');
    assert.ok(data.payments[0].voided.by);
    assertProblem(
      await adminCall(t.app, staff, 'POST', `/sales/${sale.id}/payments/${payment.id}/void`, { reason: 'again' }),
      409,
      'conflict',
    );
    assertProblem(
      await adminCall(t.app, staff, 'POST', `/sales/${sale.id}/payments/pay_nope/void`, { reason: 'x' }),
      404,
      'not_found',
    );
    const announced = (await events(t, demo.companyId, ['payment.recorded', 'payment.voided'])).filter(
      (e) => e.data.saleId === sale.id,
    );
    assert.deepEqual(
      announced.map((e) => [e.type, e.data.balance]),
      [
        ['payment.recorded', '0.00'],
        ['payment.voided', sale.totals.withTax],
      ],
    );
  });

  test("roles: credit notes for admins only; staff cancel no invoice of another user's (their own: roles.test.ts); void for admin and staff", async () => {
    const sale = await invoice(demo);
    for (const token of [staff, support]) {
      assertProblem(
        await adminCall(t.app, token, 'POST', `/sales/${sale.id}/cancel`, { reason: 'x' }),
        403,
        'forbidden',
      );
      assertProblem(
        await adminCall(t.app, token, 'POST', `/sales/${sale.id}/credit-notes`, {
          lines: [{ lineId: sale.lines[0].id, quantity: '1' }],
          reason: 'x',
        }),
        403,
        'forbidden',
      );
    }
    const other = await createTenant(t.c);
    assertProblem(
      await adminCall(t.app, other.adminToken, 'POST', `/sales/${sale.id}/cancel`, { reason: 'x' }),
      404,
      'not_found',
    );
  });

  test('operator OIB: checked, shown on the invoice; the print reads as a Croatian R-1 invoice following the money', async () => {
    const users = (await adminCall(t.app, demo.adminToken, 'GET', '/users')).json().data;
    const admin = users.find((u: { role: string }) => u.role === 'admin');
    const bad = assertProblem(
      await adminCall(t.app, demo.adminToken, 'PATCH', `/users/${admin.id}`, { operatorOib: '12345678901' }),
      400,
      'validation_failed',
    );
    assert.ok(bad.details.operatorOib);
    const oib = newOib();
    const set = await adminCall(t.app, demo.adminToken, 'PATCH', `/users/${admin.id}`, { operatorOib: oib });
    assert.equal(set.statusCode, 200, set.body);
    assert.equal(set.json().data.operatorOib, oib);

    const sale = await invoice(demo);
    assert.deepEqual(sale.operator, { name: 'Ana Kovač', oib });
    const pdf = async (id: string) => {
      const res = await adminCall(t.app, demo.adminToken, 'GET', `/sales/${id}?format=pdf`);
      assert.equal(res.statusCode, 200, res.body);
      return (await pdfText(res.rawPayload)).replace(/\s+/g, ' ');
    };
    const unpaid = await pdf(sale.id);
    assert.match(unpaid, new RegExp(`Račun ${sale.invoiceNumber.replaceAll('/', '\\/')}`));
    assert.match(unpaid, /OIB: 12345678903/);
    assert.doesNotMatch(unpaid, /OIB: HR/);
    assert.match(unpaid, /PDV ID: HR12345678903/);
    assert.ok(!unpaid.includes(sale.number), 'one number: the internal one is not printed');
    assert.match(unpaid, /Kovač obrt/);
    assert.match(unpaid, /Vlaška 12, 10000 Zagreb/);
    assert.match(unpaid, new RegExp(`OIB: ${sale.customer.taxId.replace(/^HR/, '')}`));
    assert.match(unpaid, /Datum i vrijeme/);
    assert.match(unpaid, /Datum isporuke/);
    assert.match(unpaid, /Način plaćanja Uplata na račun/);
    // The operator's label (the name when none is set), never the OIB (Zakon o fiskalizaciji čl. 8).
    assert.match(unpaid, /Operater Ana Kovač/);
    assert.doesNotMatch(unpaid, new RegExp(`OIB operatera|${oib}`));
    assert.match(unpaid, /Preostalo za platiti/);
    assert.match(unpaid, /IBAN/);
    assert.match(
      unpaid,
      new RegExp(`Račun ${sale.invoiceNumber.replaceAll('/', '\\/')}.*Poziv na broj: HR00`),
      'the transfer names the legal number',
    );
    assert.doesNotMatch(unpaid, /JIR|ZKI/, 'nothing fiscal when fiscalisation is not required');

    const half = (cents(sale.totals.withTax) / 2 / 100).toFixed(2);
    await adminCall(t.app, staff, 'POST', `/sales/${sale.id}/payments`, { method: 'cash', amount: half });
    // The money shows on the account statement; the invoice stays as issued.
    const statement = async (id: string) => {
      const res = await adminCall(t.app, demo.adminToken, 'GET', `/sales/${id}/statement?format=pdf`);
      assert.equal(res.statusCode, 200, res.body);
      return (await pdfText(res.rawPayload)).replace(/\s+/g, ' ');
    };
    assert.equal(await pdf(sale.id), unpaid, 'the invoice reprints as issued');
    const partly = await statement(sale.id);
    assert.match(partly, /Primljene uplate/);
    assert.match(partly, /Preostalo za platiti/);

    const rest = ((cents(sale.totals.withTax) - cents(half)) / 100).toFixed(2);
    await adminCall(t.app, staff, 'POST', `/sales/${sale.id}/payments`, { method: 'card', amount: rest });
    const paid = await statement(sale.id);
    assert.match(paid, /Plaćeno u cijelosti/);
    assert.doesNotMatch(paid, /IBAN|Preostalo za platiti/, 'no payment instructions or codes on a paid invoice');

    const storno = (
      await adminCall(t.app, demo.adminToken, 'POST', `/sales/${sale.id}/cancel`, { reason: 'Kriva stavka.' })
    ).json().data;
    const stornoText = await pdf(storno.id);
    assert.match(stornoText, new RegExp(`Storno račun ${storno.invoiceNumber.replaceAll('/', '\\/')}`));
    assert.match(stornoText, new RegExp(`Stornira račun br. ${sale.invoiceNumber.replaceAll('/', '\\/')}`));
    assert.match(stornoText, /Razlog: Kriva stavka\./);
    assert.doesNotMatch(stornoText, /IBAN/);

    // Cash or card at the counter, not yet taken: the balance is shown, no bank transfer asked for.
    const q = await newQuotation(t.app, demo);
    await assignCustomer(t.app, demo, 'quotations', q.id);
    const byCard = (
      await adminCall(t.app, demo.adminToken, 'POST', `/quotations/${q.id}/convert`, { paymentMethod: 'card' })
    ).json().data;
    const cardText = await pdf(byCard.id);
    assert.match(cardText, /Način plaćanja Kartica/);
    assert.match(cardText, /Preostalo za platiti/);
    assert.doesNotMatch(cardText, /IBAN|Poziv na broj/);
  });
  test('Germany: "Rechnung" numbered per company and year, USt-IdNr., a "Stornorechnung" naming the original', async () => {
    const d = await createTenant(t.c);
    const vatId = `DE${withCheckDigit('13669597')}`;
    const changed = await adminCall(t.app, d.adminToken, 'PATCH', '/settings', {
      country: 'DE',
      taxId: vatId,
      locale: 'de-DE',
    });
    assert.equal(changed.statusCode, 200, changed.body);
    const sale = await invoice(d, { paymentMethod: 'cash' }, { location: 1 });
    assert.equal(sale.invoiceNumber, '2026-1');
    const storno = (
      await adminCall(t.app, d.adminToken, 'POST', `/sales/${sale.id}/cancel`, { reason: 'Falscher Kunde.' })
    ).json().data;
    assert.equal(storno.invoiceNumber, '2026-2', 'the same series');
    const text = async (id: string) =>
      (await pdfText((await adminCall(t.app, d.adminToken, 'GET', `/sales/${id}?format=pdf`)).rawPayload)).replace(
        /\s+/g,
        ' ',
      );
    const printed = await text(sale.id);
    assert.match(printed, /Rechnung 2026-1/);
    assert.match(printed, new RegExp(`USt-IdNr.: ${vatId}`));
    assert.match(printed, /Leistungsdatum 04\.05\.2026/);
    const stornoText = await text(storno.id);
    assert.match(stornoText, /Stornorechnung 2026-2/);
    assert.match(stornoText, /Storno zur Rechnung Nr. 2026-1 vom/);
    assert.match(stornoText, /Grund: Falscher Kunde\./);
  });
});

/** Eight digits and their ISO 7064 MOD 11,10 check digit (a German VAT id's nine). */
function withCheckDigit(digits: string): string {
  let a = 10;
  for (const ch of digits) {
    a = (a + Number(ch)) % 10;
    if (a === 0) a = 10;
    a = (a * 2) % 11;
  }
  return `${digits}${(11 - a) % 10}`;
}
