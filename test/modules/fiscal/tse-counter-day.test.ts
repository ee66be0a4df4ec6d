// test-engines: both
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createTestApp, type TestApp } from '../../support/test-app.ts';
import { adminCall } from '../../support/sales-helpers.ts';
import { pdfText } from '../../support/quote-helpers.ts';
import { decodeQrWithZbar } from '../../support/barcode-decoder.ts';
import { germanShop, tseRig } from '../../support/tse-helpers.ts';
import type { FakeTse } from '../../support/fake-tse.ts';
import type { DemoCompany } from '../../../src/modules/demo/demo-company.ts';
import { parseQrCode, verifyTseSignature } from '../../../src/modules/fiscal/index.ts';

const run = promisify(execFile);
const cents = (amount: string) => Math.round(Number(amount) * 100);

/**
 * A German counter day with a cloud TSE (issue 35): a cash sale, a card sale, a storno, an
 * abandoned basket; every transaction signed once at the fake TSE, transaction numbers without
 * gaps, signature counters growing; each receipt's QR code read by zbar is the DSFinV-K string
 * whose signature verifies against the TSE's public key, and whose amounts are the document's.
 * Then the TSE goes down: the sale still goes through, marked "TSE ausgefallen", admins told.
 */
describe('a German counter day signed by a cloud TSE', () => {
  let t: TestApp;
  let tse: FakeTse;
  let d: DemoCompany;
  let dir: string;

  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tse-day-'));
    const rig = await tseRig(dir);
    tse = rig.tse;
    t = await createTestApp(rig.env);
    d = await germanShop(t.c, t.app, tse);
  });
  after(async () => {
    await t.close();
    await tse.close();
    if (!process.env.KEEP_TSE_DIR) await fs.rm(dir, { recursive: true, force: true });
  });

  const line = (i: number, quantity: number) => {
    const p = d.products[i]!;
    return { productId: p.id, unitId: p.units[0]!.id, quantity };
  };

  /** The receipt's QR code as zbar reads it from the 80 mm PDF rendered to PNG. */
  async function receiptQr(saleId: string, name: string) {
    const receipt = await adminCall(t.app, d.adminToken, 'GET', `/sales/${saleId}?format=pdf&layout=receipt`);
    assert.equal(receipt.statusCode, 200, receipt.body);
    const file = path.join(dir, `${name}.pdf`);
    await fs.writeFile(file, receipt.rawPayload);
    await run('pdftoppm', ['-png', '-r', '200', '-singlefile', file, path.join(dir, name)]);
    return { codes: await decodeQrWithZbar(path.join(dir, `${name}.png`)), text: await pdfText(receipt.rawPayload) };
  }

  test('the settings: the secret never shown, the device with its TSE serial', async () => {
    const res = await adminCall(t.app, d.adminToken, 'GET', '/fiscal');
    assert.equal(res.statusCode, 200, res.body);
    assert.ok(!res.body.includes(tse.apiSecret), 'the secret is never returned');
    const settings = res.json().data.tse;
    assert.equal(settings.provider, 'fiskaly');
    assert.equal(settings.devices.length, 1);
    assert.equal(settings.devices[0].locationId, d.locations[0]!.id);
    assert.match(settings.devices[0].tssSerial, /^[0-9a-f]{64}$/);
    const stored = await t.c.database.db
      .selectFrom('tse_accounts')
      .selectAll()
      .where('company_id', '=', d.companyId)
      .executeTakeFirstOrThrow();
    assert.ok(!stored.sealed_secret.includes(tse.apiSecret), 'sealed at rest');
    const wrong = await adminCall(t.app, d.adminToken, 'PUT', '/fiscal/tse', {
      provider: 'fiskaly',
      apiKey: tse.apiKey,
      apiSecret: 'not-the-secret',
      baseUrl: tse.url,
    });
    assert.equal(wrong.statusCode, 400, wrong.body);
    assert.ok(wrong.json().errors?.apiSecret ?? wrong.body.includes('apiSecret'), wrong.body);
  });

  test('cash, card, storno and an aborted basket: each signed once, numbers without gaps, every QR verifies', async () => {
    const before = tse.txs.length;
    const cash = await adminCall(t.app, d.adminToken, 'POST', '/counter-sales', {
      lines: [line(0, 2), line(6, 3)],
      paymentMethod: 'cash',
      tendered: '500.00',
    });
    assert.equal(cash.statusCode, 201, cash.body);
    const card = await adminCall(t.app, d.adminToken, 'POST', '/counter-sales', {
      lines: [line(1, 1)],
      paymentMethod: 'card',
    });
    assert.equal(card.statusCode, 201, card.body);
    const storno = await adminCall(t.app, d.adminToken, 'POST', `/sales/${cash.json().data.id}/cancel`, {
      reason: 'Kunde hat es sich anders überlegt.',
    });
    assert.equal(storno.statusCode, 201, storno.body);
    const abort = await adminCall(t.app, d.adminToken, 'POST', '/counter-sales/abort', { lines: [line(2, 1)] });
    assert.equal(abort.statusCode, 201, abort.body);

    const txs = tse.txs.slice(before);
    assert.equal(txs.length, 4, 'four transactions: sale, sale, storno, abort');
    assert.deepEqual(
      txs.map((tx) => tx.number),
      [1, 2, 3, 4].map((n) => n + before),
      'transaction numbers without gaps',
    );
    for (let i = 1; i < txs.length; i++) assert.ok(txs[i]!.signatureCounter > txs[i - 1]!.signatureCounter);
    assert.deepEqual(
      txs.map((tx) => [tx.state, tx.revision]),
      [
        ['FINISHED', 2],
        ['FINISHED', 2],
        ['FINISHED', 2],
        ['CANCELLED', 2],
      ],
      'each finished once',
    );
    assert.match(txs[2]!.processData, /^AVBelegstorno\^/);
    assert.match(txs[3]!.processData, /^AVBelegabbruch\^/);

    for (const [name, res] of [
      ['cash', cash],
      ['card', card],
      ['storno', storno],
    ] as const) {
      const sale = res.json().data;
      const record = sale.fiscal.tse;
      assert.equal(record.status, 'signed', JSON.stringify(sale.fiscal));
      const fields = parseQrCode(record.qrCode);
      assert.ok(verifyTseSignature(fields), `${name}: the signature verifies against the TSE's public key`);
      const [type, gross, payments] = fields.processData.split('^') as [string, string, string];
      assert.equal(type, name === 'storno' ? 'AVBelegstorno' : 'Beleg');
      // Gross per class (19 %, 7 %, …) against the document's own tax breakdown, to the cent.
      const perClass = gross.split('_').map(cents);
      const byRate = new Map<string, number>();
      for (const tax of sale.taxes ?? sale.totals?.taxes ?? [])
        byRate.set(String(tax.rate), cents(tax.base) + cents(tax.amount));
      assert.equal(
        perClass.reduce((a, b) => a + b, 0),
        cents(sale.totals?.withTax ?? sale.totalWithTax),
        `${name}: the QR's gross is the document's total`,
      );
      const method = name === 'card' ? 'Unbar' : 'Bar';
      assert.equal(payments, `${(perClass.reduce((a, b) => a + b, 0) / 100).toFixed(2)}:${method}`);

      const { codes, text } = await receiptQr(sale.id, name);
      assert.deepEqual(codes, [record.qrCode], `${name}: zbar reads the DSFinV-K string off the receipt`);
      const flat = text.replace(/\s+/g, ' ');
      for (const expected of [
        'TSE-Transaktion',
        'TSE-Seriennummer',
        'Kassen-Seriennummer',
        String(record.transactionNumber),
      ])
        assert.ok(flat.includes(expected), `${name}: the receipt prints "${expected}"`);
      // The A4 print of the same document carries the same code.
      const a4 = await adminCall(t.app, d.adminToken, 'GET', `/sales/${sale.id}?format=pdf`);
      const a4File = path.join(dir, `${name}-a4.pdf`);
      await fs.writeFile(a4File, a4.rawPayload);
      await run('pdftoppm', ['-png', '-r', '200', '-f', '1', '-singlefile', a4File, path.join(dir, `${name}-a4`)]);
      assert.deepEqual(await decodeQrWithZbar(path.join(dir, `${name}-a4.png`)), [record.qrCode], `${name}: A4 too`);
      assert.match((await pdfText(a4.rawPayload)).replace(/\s+/g, ' '), /TSE-Signatur/);
    }
  });

  test('the TSE down: the sale goes through marked "TSE ausgefallen", the admins told once', async () => {
    await tse.down();
    try {
      const first = await adminCall(t.app, d.adminToken, 'POST', '/counter-sales', {
        lines: [line(0, 1)],
        paymentMethod: 'cash',
      });
      assert.equal(first.statusCode, 201, first.body);
      const second = await adminCall(t.app, d.adminToken, 'POST', '/counter-sales', {
        lines: [line(0, 1)],
        paymentMethod: 'card',
      });
      assert.equal(second.statusCode, 201, second.body);
      const sale = first.json().data;
      assert.equal(sale.fiscal.tse.status, 'failed');
      assert.equal(sale.fiscal.error.code, 'tse_unavailable');
      const receipt = await adminCall(t.app, d.adminToken, 'GET', `/sales/${sale.id}?format=pdf&layout=receipt`);
      assert.match((await pdfText(receipt.rawPayload)).replace(/\s+/g, ' '), /TSE ausgefallen/);
      const notes = await t.c.database.db
        .selectFrom('notifications')
        .select(['kind'])
        .where('company_id', '=', d.companyId)
        .where('kind', '=', 'fiscal.tseDown')
        .execute();
      assert.ok(notes.length >= 1, 'admins told');
      const admins = new Set(notes.map(() => 1)).size;
      assert.ok(admins >= 1);
      const failed = (await adminCall(t.app, d.adminToken, 'GET', '/fiscal')).json().data.tse.failed;
      assert.equal(failed.length, 2, 'both listed as not signed');
    } finally {
      await tse.up();
    }
    const again = await adminCall(t.app, d.adminToken, 'POST', '/counter-sales', {
      lines: [line(0, 1)],
      paymentMethod: 'cash',
    });
    assert.equal(again.json().data.fiscal.tse.status, 'signed', 'signed again once the TSE is back');
  });
});
