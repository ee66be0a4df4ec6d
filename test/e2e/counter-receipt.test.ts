// test-engines: both
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createTenant, createTestApp, type TestApp } from '../support/test-app.ts';
import { fiscalRig, uploadCertificate, type FakeCis } from '../support/fiscal-helpers.ts';
import { adminCall } from '../support/sales-helpers.ts';
import { pdfText } from '../support/quote-helpers.ts';
import { decodeQrWithZbar } from '../support/barcode-decoder.ts';
import type { DemoCompany } from '../../src/modules/demo/demo-company.ts';

const run = promisify(execFile);

/**
 * A counter sale in a Croatian company with a FINA certificate (issue 22): the invoice is the one
 * a conversion issues, so it is fiscalised the same way (ZKI, a JIR from the fake CIS), and its
 * 80 mm receipt carries what the A4 invoice does: the legal number, seller's OIB, operator,
 * payment method, lines, tax per rate, total, ZKI, JIR and the verification QR code, plus the
 * cash received and the change.
 */
describe('a counter sale fiscalised and printed on an 80 mm receipt', () => {
  let t: TestApp;
  let cis: FakeCis;
  let d: DemoCompany;
  let dir: string;

  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'counter-receipt-'));
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

  test('cash with change: fiscalised at once, the receipt 80 mm wide with every legal item and a QR that reads as the verification URL', async () => {
    cis.mode = { kind: 'ok' };
    const p = d.products[0]!;
    const q = d.products[4]!;
    const res = await adminCall(t.app, d.adminToken, 'POST', '/counter-sales', {
      lines: [
        {
          productId: p.id,
          unitId: p.units[0]!.id,
          quantity: 2,
          discountPercent: 10,
          note: 'Colour: RAL 9010 - Reinweiß',
        },
        { productId: q.id, unitId: q.units[0]!.id, quantity: 1 },
      ],
      paymentMethod: 'cash',
      tendered: '100.00',
    });
    assert.equal(res.statusCode, 201, res.body);
    const sale = res.json().data;
    assert.equal(sale.fiscal.status, 'fiscalised', JSON.stringify(sale.fiscal));
    assert.equal(cis.received.at(-1)!.payment, 'G', 'told to CIS as cash');
    assert.equal(cis.received.at(-1)!.zki, sale.fiscal.zki);

    const receipt = await adminCall(t.app, d.adminToken, 'GET', `/sales/${sale.id}?format=pdf&layout=receipt`);
    assert.equal(receipt.statusCode, 200, receipt.body);
    const file = path.join(dir, 'receipt.pdf');
    await fs.writeFile(file, receipt.rawPayload);
    const { stdout: info } = await run('pdfinfo', [file]);
    const [, width, height] = info.match(/Page size:\s+([\d.]+) x ([\d.]+) pts/)!;
    assert.equal(Math.round(Number(width)), 227, '80 mm wide');
    assert.ok(Number(height) > 300 && Number(height) < 2000, `as long as its content: ${height} pt`);
    assert.match(info, /Pages:\s+1\n/, 'one roll, no page breaks');
    const text = (await pdfText(receipt.rawPayload)).replace(/\s+/g, ' ');
    for (const expected of [
      sale.invoiceNumber,
      sale.fiscal.zki,
      sale.fiscal.jir,
      'OIB: 12345678903',
      'Gotovina',
      'Operater',
      'Krajnji kupac',
      'Popust 10',
      'RAL 9010',
      'PDV 25 %',
      'Primljeno gotovinom',
      'Za vratiti',
    ])
      assert.ok(text.includes(expected), `the receipt prints "${expected}":\n${text}`);
    await run('pdftoppm', ['-png', '-r', '200', '-singlefile', file, path.join(dir, 'receipt')]);
    assert.deepEqual(await decodeQrWithZbar(path.join(dir, 'receipt.png')), [sale.fiscal.verifyUrl]);

    // The A4 print of the same invoice states the same.
    const a4 = await adminCall(t.app, d.adminToken, 'GET', `/sales/${sale.id}?format=pdf`);
    const a4Text = (await pdfText(a4.rawPayload)).replace(/\s+/g, ' ');
    for (const expected of [sale.invoiceNumber, sale.fiscal.zki, sale.fiscal.jir, 'Za vratiti'])
      assert.ok(a4Text.includes(expected), `A4 prints "${expected}"`);
    if (process.env.KEEP_RECEIPT) await fs.copyFile(file, process.env.KEEP_RECEIPT);
  });
});
