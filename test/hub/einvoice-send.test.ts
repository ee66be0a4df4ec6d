// test-engines: sqlite
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTenant, createTestApp, type TestApp } from '../support/test-app.ts';
import { hubPostHeaders } from '../support/http-helpers.ts';
import { until } from '../support/fiscal-helpers.ts';
import { adminCall, assignCustomer, newQuotation } from '../support/sales-helpers.ts';
import { exchangeSettings, startFakeEracun, type FakeEracun } from '../support/fake-eracun.ts';
import type { DemoCompany } from '../../src/modules/demo/demo-company.ts';

/** What a person sees of Croatian B2B e-invoices in the hub (issue 33), in Croatian. */
describe('hub: sent e-invoices', () => {
  let t: TestApp;
  let fake: FakeEracun;
  let d: DemoCompany;
  let admin: Record<string, string>;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hub-einvoice-send-'));
  before(async () => {
    fake = await startFakeEracun({ dir });
    t = await createTestApp(
      { EINVOICE_EXCHANGE_CA: fake.caFile, EINVOICE_POLL_SECONDS: '1', EINVOICE_RETRY_DELAYS_MS: '200' },
      { startWorkers: true },
    );
    d = await createTenant(t.c, { passwords: true });
    const user = d.users.find((u) => u.role === 'admin')!;
    admin = await hubPostHeaders(t.app, t.c, user.email, user.password!);
  });
  after(async () => {
    await t.close();
    await fake.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: admin });
  async function b2bInvoice() {
    const q = await newQuotation(t.app, d);
    await assignCustomer(t.app, d, 'quotations', q.id);
    const res = await adminCall(t.app, d.adminToken, 'POST', `/quotations/${q.id}/convert`, {
      paymentMethod: 'bank_transfer',
    });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data;
  }

  test('without an exchange: Today and the invoice say plainly that B2B invoices are not delivered lawfully', async () => {
    const today = await get('/hub');
    assert.match(today.body, /id="einvoice-off"[^>]*>Razmjena eRačuna nije postavljena/);
    const sale = await b2bInvoice();
    assert.equal(sale.exchange.status, 'not_required');
    const page = await get(`/hub/sales/${sale.id}`);
    assert.match(page.body, /id="einvoice-unlawful"/);
    const counter = await get('/hub/counter');
    assert.match(counter.body, /id="counter-b2b"[^>]*>Poslovni subjekt iz imenika/);
  });

  test('with one: the sale shows delivery, the exchange id, fiscalisation and payments; Today lists a refused one', async () => {
    const put = await adminCall(t.app, d.adminToken, 'PUT', '/einvoice/exchange', exchangeSettings(fake));
    assert.equal(put.statusCode, 200, put.body);
    assert.doesNotMatch((await get('/hub')).body, /einvoice-off/);
    const sale = await b2bInvoice();
    const sent = await until('sent', async () => fake.sent.find((s) => s.number === sale.invoiceNumber));
    sent.statusId = 40;
    await until('delivered and fiscalised', async () => {
      const v = (await adminCall(t.app, d.adminToken, 'GET', `/sales/${sale.id}`)).json().data;
      return v.exchange.status === 'delivered' && v.exchange.fiscalisation === 'fiscalised';
    });
    await adminCall(t.app, d.adminToken, 'POST', `/sales/${sale.id}/payments`, {
      method: 'bank_transfer',
      amount: '5.00',
    });
    await until('reported', async () => fake.payments.length === 1);
    const page = (await get(`/hub/sales/${sale.id}`)).body;
    const facts = /<dd id="einvoice-exchange">(.*?)<\/dd>/s.exec(page)?.[1] ?? '';
    assert.match(facts, /Dostavljen kupcu/);
    assert.match(facts, new RegExp(`Dokument posrednika ${sent.electronicId}`));
    assert.match(facts, /Fiskaliziran/);
    assert.match(facts, /Prijavljene naplate/);
    assert.doesNotMatch(page, /einvoice-unlawful/);
    fs.writeFileSync(path.join(os.tmpdir(), 'einvoice-sale-page.html'), page);

    // The buyer rejects another: the page names the reason type the exchange states (art. 52).
    const rejected = await b2bInvoice();
    const doc = await until('sent', async () => fake.sent.find((s) => s.number === rejected.invoiceNumber));
    fake.rejections.push({ electronicId: doc.electronicId, date: '2026-11-28', type: 'N', reason: 'Krivi IBAN.' });
    await until('rejected', async () => {
      const v = (await adminCall(t.app, d.adminToken, 'GET', `/sales/${rejected.id}`)).json().data;
      return v.exchange.status === 'rejected';
    });
    const rejectedFacts =
      /<dd id="einvoice-exchange">(.*?)<\/dd>/s.exec((await get(`/hub/sales/${rejected.id}`)).body)?.[1] ?? '';
    assert.match(rejectedFacts, /Razlog \(N\): Krivi IBAN\./);

    fake.mode = { kind: 'refuse', status: 400, message: 'Neispravan dokument.' };
    try {
      const refused = await b2bInvoice();
      await until('failed', async () => {
        const v = (await adminCall(t.app, d.adminToken, 'GET', `/sales/${refused.id}`)).json().data;
        return v.exchange.status === 'failed';
      });
      // Today reads the document's record, which follows the call's outcome in the worker's next step.
      const card = await until('listed on Today', async () => {
        const today = (await get('/hub')).body;
        const found = /<section class="card" id="card-einvoices".*?<\/section>/s.exec(today)?.[0] ?? '';
        return found.includes(refused.id) ? found : null;
      });
      assert.match(card, /eRačuni koji zapinju/);
      assert.match(card, new RegExp(`/hub/sales/${refused.id}`));
      assert.match(card, /Neispravan dokument/);
    } finally {
      fake.mode = { kind: 'ok' };
    }
  });
});
