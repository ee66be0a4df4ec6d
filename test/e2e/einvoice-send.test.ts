// test-engines: both
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createTenant, createTestApp, type TestApp } from '../support/test-app.ts';
import { fiscalRig, uploadCertificate, until, type FakeCis } from '../support/fiscal-helpers.ts';
import { adminCall, assignCustomer, newOib, newQuotation } from '../support/sales-helpers.ts';
import { exchangeSettings, startFakeEracun, type FakeEracun } from '../support/fake-eracun.ts';
import { failuresOf, validateEInvoice } from '../support/einvoice-validation.ts';
import type { DemoCompany } from '../../src/modules/demo/demo-company.ts';

/**
 * Fiskalizacija 2.0, outbound (issue 33): a Croatian VAT payer with an e-invoice exchange issues
 * an invoice to a Croatian business paying by transfer. The issuing transaction queues the
 * HR-CIUS UBL (which passes EN 16931 and HR-CIUS); no receipt goes to CIS; the worker sends it to
 * the (fake) moj-eRačun, follows its delivery and fiscalisation, reports each payment and void,
 * hears of a rejection, and tells the admins of refusals. A business paying cash at the counter
 * gets a receipt with its OIB instead.
 */
describe('B2B invoices sent as e-invoices through the exchange', () => {
  let t: TestApp;
  let cis: FakeCis;
  let fake: FakeEracun;
  let d: DemoCompany;
  let dir: string;

  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'einvoice-send-'));
    const rig = await fiscalRig(dir);
    cis = rig.cis;
    fake = await startFakeEracun({ dir });
    t = await createTestApp(
      {
        ...rig.env,
        FISCAL_WAIT_MS: '2000',
        FISCAL_RETRY_DELAYS_MS: '100',
        EINVOICE_EXCHANGE_CA: fake.caFile,
        EINVOICE_POLL_SECONDS: '1',
        EINVOICE_RETRY_DELAYS_MS: '200',
      },
      { startWorkers: true },
    );
    d = await createTenant(t.c);
    await uploadCertificate(t.app, d.adminToken, rig.ca);
    const put = await adminCall(t.app, d.adminToken, 'PUT', '/einvoice/exchange', exchangeSettings(fake));
    assert.equal(put.statusCode, 200, put.body);
  });
  after(async () => {
    await t.close();
    await cis.close();
    await fake.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  async function convert(paymentMethod: string, customer: Record<string, unknown> = {}) {
    const q = await newQuotation(t.app, d);
    await assignCustomer(t.app, d, 'quotations', q.id, customer);
    const res = await adminCall(t.app, d.adminToken, 'POST', `/quotations/${q.id}/convert`, { paymentMethod });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data;
  }
  const sale = async (id: string) => (await adminCall(t.app, d.adminToken, 'GET', `/sales/${id}`)).json().data;
  const sentFor = (number: string) => fake.sent.filter((s) => s.number === number);

  test('issued by transfer to a Croatian business: the UBL is queued with the invoice, sent once, valid, and no receipt goes to CIS', async () => {
    const receipts = cis.received.length;
    const issued = await convert('bank_transfer');
    assert.equal(issued.fiscal.status, 'not_required', 'no RacunZahtjev for an e-invoice');
    assert.equal(issued.exchange.status, 'queued');
    const sent = await until('the e-invoice sent', async () => sentFor(issued.invoiceNumber)[0]);
    const view = await until('sent, fiscalised', async () => {
      const v = await sale(issued.id);
      return v.exchange.status === 'sent' && v.exchange.fiscalisation === 'fiscalised' ? v : null;
    });
    assert.equal(view.exchange.documentId, String(sent.electronicId));
    assert.equal(cis.received.length, receipts, 'CIS heard nothing of it');

    // What was sent is the issued e-invoice, byte for byte, and passes the official rules.
    const stored = await adminCall(t.app, d.adminToken, 'GET', `/sales/${issued.id}/e-invoice`);
    assert.equal(stored.statusCode, 200);
    assert.equal(stored.body, sent.xml.toString('utf8'));
    const report = await validateEInvoice(`${issued.number}.xml`, sent.xml.toString('utf8'));
    assert.deepEqual(report.checks, ['xsd:ubl-2.1+hr', 'en16931-ubl', 'hr-cius'], report.file);
    assert.ok(report.ok, failuresOf(report));

    // Delivered: the status follows, with its event.
    sent.statusId = 40;
    await until('delivered', async () => (await sale(issued.id)).exchange.status === 'delivered');
    const events = await t.c.database.db
      .selectFrom('webhook_events')
      .select(['type', 'payload'])
      .where('company_id', '=', d.companyId)
      .where('type', '=', 'einvoice.delivered')
      .execute();
    assert.equal(events.length, 1);
    assert.equal(JSON.parse(events[0]!.payload).data.documentId, String(sent.electronicId));

    // Each payment and each void is reported (EvidentirajNaplatu), the void as a negative amount.
    const paid = await adminCall(t.app, d.adminToken, 'POST', `/sales/${issued.id}/payments`, {
      method: 'bank_transfer',
      amount: '10.00',
    });
    assert.equal(paid.statusCode, 201, paid.body);
    const paymentId = paid.json().data.payments[0].id;
    const voided = await adminCall(t.app, d.adminToken, 'POST', `/sales/${issued.id}/payments/${paymentId}/void`, {
      reason: 'Knjiženo dvaput.',
    });
    assert.equal(voided.statusCode, 200, voided.body);
    const reported = await until('both reported', async () => {
      const mine = fake.payments.filter((p) => p.electronicId === sent.electronicId);
      return mine.length === 2 ? mine : null;
    });
    assert.deepEqual(
      reported.map((p) => [p.amount, p.method]),
      [
        ['10.00', 'T'],
        ['-10.00', 'T'],
      ],
    );
    assert.match(reported[0]!.date, /^\d{4}-\d{2}-\d{2}$/);
    const after = await until('the view shows them reported', async () => {
      const v = await sale(issued.id);
      return v.exchange.payments.every((p: { status: string }) => p.status === 'reported') ? v : null;
    });
    assert.deepEqual(
      after.exchange.payments.map((p: { amount: string }) => p.amount),
      ['10.00', '-10.00'],
    );

    // A credit note follows its invoice: sent as a UBL CreditNote, no receipt.
    const credit = await adminCall(t.app, d.adminToken, 'POST', `/sales/${issued.id}/credit-notes`, {
      reason: 'Vraćena roba.',
      lines: [{ lineId: issued.lines[0].id, quantity: '1' }],
    });
    assert.equal(credit.statusCode, 201, credit.body);
    const note = credit.json().data;
    assert.equal(note.fiscal.status, 'not_required');
    assert.equal(note.exchange.status, 'queued');
    const sentNote = await until('the credit note sent', async () => sentFor(note.invoiceNumber)[0]);
    assert.match(sentNote.xml.toString('utf8').slice(0, 400), /<CreditNote /);
    const noteReport = await validateEInvoice(`${note.number}.xml`, sentNote.xml.toString('utf8'));
    assert.ok(noteReport.ok, failuresOf(noteReport));
    assert.equal(cis.received.length, receipts, 'CIS heard nothing of the credit note either');
  });

  test('a line whose KPD code is not in KPD 2025: the conversion is refused, naming the line; nothing issued or sent', async () => {
    const product = d.products[6]!; // the demo's 58.11.19, not in KPD 2025
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/public/quotes',
      headers: { authorization: `Bearer ${d.locations[0]!.apiKey}` },
      payload: {
        format: 'json',
        customer: { name: 'Gradnja d.o.o.', email: 'ured@gradnja.example' },
        lines: [{ productId: product.id, unitId: product.units[0]!.id, quantity: 1 }],
      },
    });
    assert.equal(res.statusCode, 201, res.body);
    const q = res.json().data;
    await assignCustomer(t.app, d, 'quotations', q.id);
    const sent = fake.sent.length;
    const refused = await adminCall(t.app, d.adminToken, 'POST', `/quotations/${q.id}/convert`, {
      paymentMethod: 'bank_transfer',
    });
    assert.equal(refused.statusCode, 409, refused.body);
    assert.match(JSON.stringify(refused.json().details), /lines\[0\]\.classificationCode/);
    assert.match(refused.json().details['lines[0].classificationCode'][0], /58\.11\.19/);
    const still = await adminCall(t.app, d.adminToken, 'GET', `/quotations/${q.id}`);
    assert.notEqual(still.json().data.status, 'converted', 'nothing issued');
    assert.equal(fake.sent.length, sent);
  });

  test('the buyer rejects one: the reason shows, the event fires, the admins are told', async () => {
    const issued = await convert('bank_transfer');
    const sent = await until('sent', async () => sentFor(issued.invoiceNumber)[0]);
    fake.rejections.push({ electronicId: sent.electronicId, date: '2026-11-28', type: 'U', reason: 'Kriva cijena.' });
    const view = await until('rejected', async () => {
      const v = await sale(issued.id);
      return v.exchange.status === 'rejected' ? v : null;
    });
    // The rejection as the sale's JSON carries it: the buyer's type (art. 52: N, U or O), the
    // reason and when, as the intermediary's outbox reports them.
    assert.equal(view.exchange.rejection.reason, 'Kriva cijena.');
    assert.equal(view.exchange.rejection.type, 'U');
    assert.ok(!Number.isNaN(Date.parse(view.exchange.rejection.at)), view.exchange.rejection.at);
    const notes = await t.c.database.db
      .selectFrom('notifications')
      .select(['kind', 'subject_id'])
      .where('company_id', '=', d.companyId)
      .where('kind', '=', 'einvoice.rejected')
      .execute();
    assert.deepEqual(
      notes.map((n) => n.subject_id),
      [issued.id],
    );
    const events = await t.c.database.db
      .selectFrom('webhook_events')
      .select('payload')
      .where('company_id', '=', d.companyId)
      .where('type', '=', 'einvoice.rejected')
      .execute();
    assert.equal(JSON.parse(events[0]!.payload).data.reason, 'Kriva cijena.');
    assert.equal(JSON.parse(events[0]!.payload).data.type, 'U');
  });

  test('statuses are polled in one outbox query per company, not one per document', async () => {
    const issued: Array<{ id: string; invoiceNumber: string }> = [];
    for (let i = 0; i < 4; i++) issued.push(await convert('bank_transfer'));
    await until(
      'all sent and fiscalised',
      async () => {
        const views = await Promise.all(issued.map((s) => sale(s.id)));
        return views.every((v) => v.exchange.status === 'sent' && v.exchange.fiscalisation === 'fiscalised');
      },
      90_000,
    );
    const open = fake.sent.filter((d) => d.statusId !== 40).length;
    assert.ok(open >= 4, `${open} documents on their way`);
    const mark = fake.calls.length;
    const outboxQueries = () =>
      fake.calls.slice(mark).filter((c) => c.path === '/apis/v2/queryDocumentProcessStatusOutbox');
    await until('three polls', async () => outboxQueries().length >= 3, 60_000);
    for (const call of outboxQueries()) {
      assert.equal(call.body.ElectronicId, undefined, 'never asked per document');
      assert.match(String(call.body.DateFrom), /^\d{4}-\d{2}-\d{2}T/);
      assert.equal(call.body.ByUpdateDate, true);
    }
    // The fiscalisation is known for all of them, so nothing is asked per document any more.
    assert.deepEqual(
      fake.calls.slice(mark).filter((c) => c.path === '/api/fiscalization/statusOutbox'),
      [],
    );
    // And a status that changes still reaches its own sale from the shared answer.
    fake.sent.find((d) => d.number === issued[2]!.invoiceNumber)!.statusId = 40;
    await until('delivered', async () => (await sale(issued[2]!.id)).exchange.status === 'delivered', 60_000);
    assert.equal((await sale(issued[1]!.id)).exchange.status, 'sent');
  });

  test('the exchange down for a while: the invoice is issued at once, sent once when it is back', async () => {
    await fake.down();
    try {
      const issued = await convert('bank_transfer');
      assert.equal(issued.exchange.status, 'queued');
      await until('a failed attempt recorded', async () => {
        const v = await sale(issued.id);
        return v.exchange.error ? v : null;
      });
      await fake.up();
      await until('sent after the outage', async () => (await sale(issued.id)).exchange.status === 'sent');
      assert.equal(sentFor(issued.invoiceNumber).length, 1, 'sent once');
    } finally {
      await fake.up();
    }
  });

  test('the exchange refuses a document: failed, not sent again, the admins are told', async () => {
    fake.mode = { kind: 'refuse', status: 400, message: 'Neispravan dokument.' };
    try {
      const issued = await convert('bank_transfer');
      const view = await until('failed', async () => {
        const v = await sale(issued.id);
        return v.exchange.status === 'failed' ? v : null;
      });
      assert.match(view.exchange.error, /Neispravan dokument/);
      // The view reads the call's outcome; the notice follows in the worker's next step.
      await until('the admins told', async () => {
        const notes = await t.c.database.db
          .selectFrom('notifications')
          .select('subject_id')
          .where('company_id', '=', d.companyId)
          .where('kind', '=', 'einvoice.failed')
          .execute();
        return notes.some((n) => n.subject_id === issued.id);
      });
    } finally {
      fake.mode = { kind: 'ok' };
    }
  });

  test('a business paying cash at the counter: a receipt with its OIB (never T), no e-invoice', async () => {
    const oib = newOib();
    const customer = await adminCall(t.app, d.adminToken, 'POST', '/customers', {
      kind: 'business',
      name: 'Gradnja d.o.o.',
      taxId: `HR${oib}`,
      address: { street: 'Savska 5', postalCode: '10000', city: 'Zagreb', country: 'HR' },
    });
    assert.equal(customer.statusCode, 201, customer.body);
    const p = d.products[0]!;
    const sent = fake.sent.length;
    const res = await adminCall(t.app, d.adminToken, 'POST', '/counter-sales', {
      lines: [{ productId: p.id, unitId: p.units[0]!.id, quantity: 1 }],
      customerId: customer.json().data.id,
      paymentMethod: 'cash',
    });
    assert.equal(res.statusCode, 201, res.body);
    const counter = res.json().data;
    assert.equal(counter.exchange.status, 'not_required');
    assert.equal(counter.fiscal.status, 'fiscalised');
    const receipt = cis.received.at(-1)!;
    assert.equal(receipt.payment, 'G');
    assert.match(receipt.xml, new RegExp(`OibPrimateljaRacuna>${oib}<`));
    assert.equal(fake.sent.length, sent, 'no e-invoice');

    // A consumer by transfer is not an e-invoice either; nor a foreign business.
    const consumer = await convert('bank_transfer', { kind: 'person', name: 'Ana Kovač', taxId: null });
    assert.equal(consumer.exchange.status, 'not_required');
    const foreign = await convert('bank_transfer', {
      name: 'Bau GmbH',
      taxId: 'DE136695976',
      address: { street: 'Hauptstraße 1', postalCode: '10115', city: 'Berlin', country: 'DE' },
    });
    assert.equal(foreign.exchange.status, 'not_required');
  });
});
