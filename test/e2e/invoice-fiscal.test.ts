// test-engines: both
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createTenant, createTestApp, type TestApp } from '../support/test-app.ts';
import { fiscalRig, uploadCertificate, until, type FakeCis } from '../support/fiscal-helpers.ts';
import { adminCall, assignCustomer, newQuotation } from '../support/sales-helpers.ts';
import { pdfText } from '../support/quote-helpers.ts';
import { decodeQrWithZbar } from '../support/barcode-decoder.ts';
import type { DemoCompany } from '../../src/modules/demo/demo-company.ts';

const run = promisify(execFile);

/** The first page of a PDF as a PNG file (pdftoppm), for the barcode reader. */
async function firstPagePng(pdf: Buffer, dir: string): Promise<string> {
  await fs.writeFile(path.join(dir, 'invoice.pdf'), pdf);
  await run(
    'pdftoppm',
    ['-png', '-r', '200', '-f', '1', '-l', '1', '-singlefile', path.join(dir, 'invoice.pdf'), path.join(dir, 'page')],
    {
      timeout: 30_000,
    },
  );
  return path.join(dir, 'page.png');
}

/**
 * Issue 20 end to end: a quotation converted in a Croatian company with a FINA certificate is an
 * invoice fiscalised by the (fake) CIS within the bounded wait; its print carries ZKI, JIR and the
 * verification QR code, which a barcode reader decodes into the URL the JSON gives; with CIS down
 * the invoice is still issued at once and the worker delivers it late (NakDost) until a JIR.
 */
describe('an invoice fiscalised through CIS', () => {
  let t: TestApp;
  let cis: FakeCis;
  let d: DemoCompany;
  let dir: string;

  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoice-fiscal-'));
    const rig = await fiscalRig(dir);
    cis = rig.cis;
    t = await createTestApp(
      { ...rig.env, FISCAL_WAIT_MS: '2000', FISCAL_RETRY_DELAYS_MS: '100' },
      { startWorkers: true },
    );
    d = await createTenant(t.c);
    await uploadCertificate(t.app, d.adminToken, rig.ca);
  });
  after(async () => {
    await t.close();
    await cis.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  async function convert(paymentMethod: string) {
    const q = await newQuotation(t.app, d);
    await assignCustomer(t.app, d, 'quotations', q.id);
    const res = await adminCall(t.app, d.adminToken, 'POST', `/quotations/${q.id}/convert`, { paymentMethod });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data;
  }

  test('converted, paid in cash and printed: JIR, ZKI and a QR code that reads as the verification URL', async () => {
    cis.mode = { kind: 'ok' };
    const sale = await convert('cash');
    assert.equal(sale.fiscal.status, 'fiscalised', JSON.stringify(sale.fiscal));
    assert.match(sale.fiscal.zki, /^[0-9a-f]{32}$/);
    assert.match(sale.fiscal.jir, /^[0-9a-f-]{36}$/);
    assert.equal(
      sale.fiscal.verifyUrl,
      `https://porezna.gov.hr/rn?jir=${sale.fiscal.jir}&datv=${sale.fiscal.verifyUrl.match(/datv=(\d{8}_\d{4})/)[1]}&izn=${Math.round(Number(sale.totals.withTax) * 100)}`,
    );
    const sent = cis.received.at(-1)!;
    assert.equal(sent.zki, sale.fiscal.zki, 'the ZKI CIS received is the one printed');
    assert.equal(sent.lateDelivery, false);
    assert.equal(sent.payment, 'G');

    const paid = await adminCall(t.app, d.adminToken, 'POST', `/sales/${sale.id}/payments`, {
      method: 'cash',
      amount: sale.totals.withTax,
    });
    assert.equal(paid.statusCode, 201, paid.body);
    const pdf = await t.app.inject({
      method: 'GET',
      url: `/api/v1/admin/sales/${sale.id}?format=pdf`,
      headers: { authorization: `Bearer ${d.adminToken}` },
    });
    assert.equal(pdf.statusCode, 200, pdf.body);
    const text = await pdfText(pdf.rawPayload);
    assert.ok(text.includes(sale.fiscal.jir), `JIR printed:\n${text}`);
    assert.ok(text.includes(sale.fiscal.zki), 'ZKI printed');
    assert.ok(text.includes(sale.invoiceNumber), 'legal number printed');
    // Paid: no payment codes, so the one QR code on the page is the verification code.
    assert.deepEqual(await decodeQrWithZbar(await firstPagePng(pdf.rawPayload, dir)), [sale.fiscal.verifyUrl]);
  });

  test('storing the certificate switched fiscalisation on; switched off in the settings, nothing is sent to CIS', async () => {
    const settings = async () => (await adminCall(t.app, d.adminToken, 'GET', '/settings')).json().data.fiscal;
    assert.equal((await settings()).enabled, true, 'the certificate upload switched it on');
    cis.mode = { kind: 'ok' };
    const off = await adminCall(t.app, d.adminToken, 'PATCH', '/settings', { fiscal: { enabled: false } });
    assert.equal(off.statusCode, 200, off.body);
    const sent = cis.received.length;
    try {
      const sale = await convert('card');
      assert.equal(sale.fiscal.status, 'not_required');
      assert.equal(sale.fiscal.zki, null);
      assert.equal(cis.received.length, sent, 'CIS heard nothing');
    } finally {
      await adminCall(t.app, d.adminToken, 'PATCH', '/settings', { fiscal: { enabled: true } });
    }
    assert.equal((await convert('card')).fiscal.status, 'fiscalised');
  });

  test('CIS down: issued at once with its ZKI, then the worker delivers it late until a JIR comes back', async () => {
    cis.mode = { kind: 'ok' };
    await cis.down();
    const sale = await convert('card');
    assert.equal(sale.fiscal.status, 'pending');
    assert.match(sale.fiscal.zki, /^[0-9a-f]{32}$/);
    assert.equal(sale.fiscal.jir, null);
    await cis.up();
    const healed = await until('a JIR for the late invoice', async () => {
      const res = await adminCall(t.app, d.adminToken, 'GET', `/sales/${sale.id}`);
      const fiscal = res.json().data.fiscal;
      return fiscal.status === 'fiscalised' ? fiscal : null;
    });
    assert.equal(healed.zki, sale.fiscal.zki);
    const late = cis.received.filter((r) => r.zki === sale.fiscal.zki);
    assert.ok(late.length >= 1 && late.every((r) => r.lateDelivery), 'every send after the outage is flagged late');
  });
  test("a test sale (from a test key's quotation) is never sent to CIS, even with a certificate", async () => {
    cis.mode = { kind: 'ok' };
    const made = await adminCall(t.app, d.adminToken, 'POST', '/api-keys', {
      locationId: d.locations[0]!.id,
      name: 'Developer',
      mode: 'test',
    });
    assert.equal(made.statusCode, 201, made.body);
    const testDemo = { ...d, locations: [{ ...d.locations[0]!, apiKey: made.json().data.key as string }] };
    const q = await newQuotation(t.app, testDemo);
    await assignCustomer(t.app, d, 'quotations', q.id);
    const sent = cis.received.length;
    const res = await adminCall(t.app, d.adminToken, 'POST', `/quotations/${q.id}/convert`, { paymentMethod: 'cash' });
    assert.equal(res.statusCode, 201, res.body);
    const sale = res.json().data;
    assert.match(sale.invoiceNumber, /^T-/);
    assert.equal(sale.fiscal.status, 'not_required');
    assert.equal(sale.fiscal.zki, null);
    const pending = await t.c.database.db
      .selectFrom('fiscal_requests')
      .select('document_id')
      .where('document_id', '=', sale.id)
      .execute();
    assert.deepEqual(pending, [], 'no fiscal request is queued for a test sale');
    assert.equal(cis.received.length, sent);
  });
});
