// test-engines: both
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { createTestApp, createTenant, type TestApp } from '../../support/test-app.ts';
import { pdfText } from '../../support/quote-helpers.ts';
import { adminCall, assignCustomer, newQuotation } from '../../support/sales-helpers.ts';
import type { DemoCompany } from '../../../src/modules/demo/demo-company.ts';

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * Issue 32: an invoice, its cancellation and its credit note stay as issued, byte for byte (A4,
 * receipt, UBL, CII), whatever happens afterwards; the database refuses a change of an issued
 * document's legal columns on both engines; the statement follows the money.
 */
describe('documents as issued', () => {
  let t: TestApp;
  let demo: DemoCompany;

  before(async () => {
    // An SMTP address nothing listens on: sendings are queued and recorded; no worker sends them.
    t = await createTestApp(
      { SMTP_URL: 'smtp://127.0.0.1:9', SMTP_FROM: 'Portico <portico@shop.example>' },
      { clock: { now: () => new Date('2026-05-04T08:00:00.000Z') } },
    );
    demo = await createTenant(t.c);
  });
  after(async () => {
    await t.close();
  });

  async function files(id: string): Promise<Record<string, { hash: string; etag: string; bytes: Buffer }>> {
    const out: Record<string, { hash: string; etag: string; bytes: Buffer }> = {};
    for (const [name, url] of [
      ['a4', `/sales/${id}?format=pdf`],
      ['receipt', `/sales/${id}?format=pdf&layout=receipt`],
      ['ubl', `/sales/${id}/e-invoice?syntax=ubl`],
      ['cii', `/sales/${id}/e-invoice?syntax=cii`],
    ] as const) {
      const res = await adminCall(t.app, demo.adminToken, 'GET', url);
      assert.equal(res.statusCode, 200, `${name}: ${res.body.slice(0, 300)}`);
      const bytes = res.rawPayload;
      assert.equal(res.headers.etag, `"${sha(bytes)}"`, `${name}: the ETag is the hash of the bytes`);
      out[name] = { hash: sha(bytes), etag: String(res.headers.etag), bytes };
    }
    return out;
  }

  test('invoice, cancellation and credit note: every download the same bytes after payments, corrections, company and catalog changes', async () => {
    const q = await newQuotation(t.app, demo);
    await assignCustomer(t.app, demo, 'quotations', q.id);
    const res = await adminCall(t.app, demo.adminToken, 'POST', `/quotations/${q.id}/convert`, {
      deliveryDate: '2026-04-30',
      orderReference: 'NG-2026-114',
    });
    assert.equal(res.statusCode, 201, res.body);
    const invoice = res.json().data;
    assert.equal(invoice.deliveryDate, '2026-04-30');
    assert.equal(invoice.orderReference, 'NG-2026-114');
    const atIssue = await files(invoice.id);
    assert.match(
      atIssue.ubl!.bytes.toString(),
      /<cac:OrderReference><cbc:ID>NG-2026-114<\/cbc:ID><\/cac:OrderReference>/,
    );
    assert.match(atIssue.ubl!.bytes.toString(), /<cbc:ActualDeliveryDate>2026-04-30<\/cbc:ActualDeliveryDate>/);
    assert.match(atIssue.cii!.bytes.toString(), /<ram:IssuerAssignedID>NG-2026-114<\/ram:IssuerAssignedID>/);
    const printed = (await pdfText(atIssue.a4!.bytes)).replace(/\s+/g, ' ');
    assert.match(printed, /NG-2026-114/);
    assert.ok(!printed.includes(invoice.number), 'one number on the paper: the legal one');
    // The payment reference is built from the legal number (HR00: sequence-premises-device+year).
    const [seq] = invoice.invoiceNumber.split('/');
    assert.match(printed, new RegExp(`Poziv na broj: HR00 ${seq}-35161-12026`));

    // A credit note, a payment, then the company and catalog change.
    const credit = await adminCall(t.app, demo.adminToken, 'POST', `/sales/${invoice.id}/credit-notes`, {
      lines: [{ lineId: invoice.lines[0].id, quantity: '1' }],
      reason: 'Povrat',
    });
    assert.equal(credit.statusCode, 201, credit.body);
    const creditNote = credit.json().data;
    const creditAtIssue = await files(creditNote.id);
    const pay = await adminCall(t.app, demo.adminToken, 'POST', `/sales/${invoice.id}/payments`, {
      method: 'cash',
      amount: '5.00',
    });
    assert.equal(pay.statusCode, 201, pay.body);
    const patched = await adminCall(t.app, demo.adminToken, 'PATCH', '/settings', { name: 'Posve drugo ime d.o.o.' });
    assert.equal(patched.statusCode, 200, patched.body);
    const product = await adminCall(t.app, demo.adminToken, 'PATCH', `/products/${demo.products[0]!.id}`, {
      name: 'Preimenovani proizvod',
    });
    assert.equal(product.statusCode, 200, product.body);

    assert.deepEqual(
      Object.fromEntries(Object.entries(await files(invoice.id)).map(([k, v]) => [k, v.hash])),
      Object.fromEntries(Object.entries(atIssue).map(([k, v]) => [k, v.hash])),
      'the invoice as issued',
    );
    assert.deepEqual(
      Object.fromEntries(Object.entries(await files(creditNote.id)).map(([k, v]) => [k, v.hash])),
      Object.fromEntries(Object.entries(creditAtIssue).map(([k, v]) => [k, v.hash])),
      'the credit note as issued',
    );
    // A client holding the ETag is told nothing changed.
    const again = await adminCall(t.app, demo.adminToken, 'GET', `/sales/${invoice.id}?format=pdf`, undefined, {
      'if-none-match': atIssue.a4!.etag,
    });
    assert.equal(again.statusCode, 304);

    // The statement follows the money: the credit note and the payment, the balance after each.
    const statement = await adminCall(t.app, demo.adminToken, 'GET', `/sales/${invoice.id}/statement`);
    assert.equal(statement.statusCode, 200, statement.body);
    const s = statement.json().data;
    assert.deepEqual(
      s.entries.map((e: { kind: string }) => e.kind),
      ['invoice', 'credit_note', 'payment'],
    );
    assert.equal(s.paid, '5.00');
    assert.equal(s.entries.at(-1).balance, s.balance);

    // A cancellation: issued once, the same ever after; the invoice's own files unchanged.
    const storno = await adminCall(t.app, demo.adminToken, 'POST', `/sales/${invoice.id}/cancel`, { reason: 'x' });
    assert.equal(storno.statusCode, 409, 'a partly credited invoice is credited, not cancelled');
    const q2 = await newQuotation(t.app, demo);
    await assignCustomer(t.app, demo, 'quotations', q2.id);
    const second = (await adminCall(t.app, demo.adminToken, 'POST', `/quotations/${q2.id}/convert`, {})).json().data;
    const cancelled = await adminCall(t.app, demo.adminToken, 'POST', `/sales/${second.id}/cancel`, {
      reason: 'Krivo',
    });
    assert.equal(cancelled.statusCode, 201, cancelled.body);
    const stornoFiles = await files(cancelled.json().data.id);
    await adminCall(t.app, demo.adminToken, 'PATCH', '/settings', { name: 'Treće ime d.o.o.' });
    assert.deepEqual(
      Object.fromEntries(Object.entries(await files(cancelled.json().data.id)).map(([k, v]) => [k, v.hash])),
      Object.fromEntries(Object.entries(stornoFiles).map(([k, v]) => [k, v.hash])),
      'the cancellation as issued',
    );
  });

  test('each sending records the SHA-256 of the files as issued that it carries', async () => {
    const q = await newQuotation(t.app, demo);
    await assignCustomer(t.app, demo, 'quotations', q.id);
    const sale = (await adminCall(t.app, demo.adminToken, 'POST', `/quotations/${q.id}/convert`, {})).json().data;
    const get = await adminCall(t.app, demo.adminToken, 'GET', `/sales/${sale.id}?format=pdf`);
    const xml = await adminCall(t.app, demo.adminToken, 'GET', `/sales/${sale.id}/e-invoice`);
    const sent = await adminCall(t.app, demo.adminToken, 'POST', `/sales/${sale.id}/send`, {});
    assert.equal(sent.statusCode, 202, sent.body);
    assert.equal(sent.json().data.sha256.pdf, sha(get.rawPayload), 'the e-mail carries the PDF as issued');
    if (sent.json().data.eInvoice?.attached) assert.equal(sent.json().data.sha256.eInvoice, sha(xml.rawPayload));
    await adminCall(t.app, demo.adminToken, 'POST', `/sales/${sale.id}/payments`, { method: 'card', amount: '1.00' });
    // In German: its own file, made once from the snapshot of issue, the same on every sending.
    const de1 = (await adminCall(t.app, demo.adminToken, 'POST', `/sales/${sale.id}/send`, { locale: 'de' })).json();
    const de2 = (await adminCall(t.app, demo.adminToken, 'POST', `/sales/${sale.id}/send`, { locale: 'de' })).json();
    assert.notEqual(de1.data.sha256.pdf, sha(get.rawPayload));
    assert.equal(de1.data.sha256.pdf, de2.data.sha256.pdf);
    const again = (await adminCall(t.app, demo.adminToken, 'POST', `/sales/${sale.id}/send`, {})).json();
    assert.equal(again.data.sha256.pdf, sha(get.rawPayload));
  });

  test('a bad delivery date is a 400 naming the field', async () => {
    const q = await newQuotation(t.app, demo);
    await assignCustomer(t.app, demo, 'quotations', q.id);
    const res = await adminCall(t.app, demo.adminToken, 'POST', `/quotations/${q.id}/convert`, {
      deliveryDate: '2026-02-30',
    });
    assert.equal(res.statusCode, 400, res.body);
    assert.ok(res.json().details.deliveryDate);
  });

  test('the database refuses an UPDATE of an issued document’s legal columns and of its stored bytes', async () => {
    const q = await newQuotation(t.app, demo);
    await assignCustomer(t.app, demo, 'quotations', q.id);
    const sale = (await adminCall(t.app, demo.adminToken, 'POST', `/quotations/${q.id}/convert`, {})).json().data;
    const db = t.c.database.db;
    for (const change of [
      sql`update sales set total_minor = total_minor + 1 where id = ${sale.id}`,
      sql`update sales set invoice_number = 'forged' where id = ${sale.id}`,
      sql`update sales set customer_name = 'Someone else' where id = ${sale.id}`,
      sql`update sale_lines set unit_price_minor = 1 where document_id = ${sale.id}`,
      sql`update issued_documents set sha256 = 'x' where sale_id = ${sale.id}`,
    ]) {
      await assert.rejects(change.execute(db), /issued document/);
    }
    // What happens after issue may still change: a payment moves paid and status.
    const pay = await adminCall(t.app, demo.adminToken, 'POST', `/sales/${sale.id}/payments`, {
      method: 'cash',
      amount: '1.00',
    });
    assert.equal(pay.statusCode, 201, pay.body);
  });
});
