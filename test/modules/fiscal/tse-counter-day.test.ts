// test-engines: both
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'csv-parse/sync';
import { createTenant, createTestApp, type TestApp } from '../../support/test-app.ts';
import { adminCall } from '../../support/sales-helpers.ts';
import { pdfText } from '../../support/quote-helpers.ts';
import { decodeQrWithZbar } from '../../support/barcode-decoder.ts';
import { germanShop, tseRig } from '../../support/tse-helpers.ts';
import { until } from '../../support/fiscal-helpers.ts';
import type { FakeTse } from '../../support/fake-tse.ts';
import type { DemoCompany } from '../../../src/modules/demo/demo-company.ts';
import { parseQrCode, verifyTseSignature } from '../../../src/modules/fiscal/index.ts';

const run = promisify(execFile);
const cents = (amount: string) => Math.round(Number(amount) * 100);
/** The shop's business day, fixed: a run near midnight must not split the day (the clock starts at 10:00 there). */
const DAY = '2026-11-26';
const DAY_START = Date.parse(`${DAY}T09:00:00.000Z`);

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
  const issued: Array<{
    id: string;
    totals: { withTax: string };
    paymentMethod: string;
    fiscal: { tse: { transactionNumber: number } };
  }> = [];

  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tse-day-'));
    const rig = await tseRig(dir);
    tse = rig.tse;
    const started = Date.now();
    t = await createTestApp(rig.env, { clock: { now: () => new Date(DAY_START + (Date.now() - started)) } });
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

  /** The TSE's rows of the drawer's movements, oldest first. */
  const drawerRows = () =>
    t.c.database.db
      .selectFrom('tse_transactions')
      .selectAll()
      .where('company_id', '=', d.companyId)
      .where('business_case', 'is not', null)
      .orderBy('created_at')
      .orderBy('id')
      .execute();

  test('the drawer opened with a float, cash put in and taken out: each a Vorgang the TSE signs', async () => {
    const location = d.locations[0]!.id;
    const before = tse.txs.length;
    const opened = await adminCall(t.app, d.adminToken, 'POST', `/locations/${location}/drawer/open`, {
      float: '100.00',
    });
    assert.equal(opened.statusCode, 201, opened.body);
    const cashIn = await adminCall(t.app, d.adminToken, 'POST', `/locations/${location}/drawer/movements`, {
      kind: 'in',
      amount: '50.00',
      reason: 'Wechselgeld von der Bank',
    });
    assert.ok(cashIn.statusCode < 300, cashIn.body);
    const cashOut = await adminCall(t.app, d.adminToken, 'POST', `/locations/${location}/drawer/movements`, {
      kind: 'out',
      amount: '20.00',
      reason: 'Briefmarken bezahlt',
    });
    assert.ok(cashOut.statusCode < 300, cashOut.body);
    const txs = tse.txs.slice(before);
    assert.deepEqual(
      txs.map((tx) => [tx.state, tx.processData]),
      [
        ['FINISHED', 'Beleg^0.00_0.00_0.00_0.00_100.00^100.00:Bar'],
        ['FINISHED', 'Beleg^0.00_0.00_0.00_0.00_50.00^50.00:Bar'],
        ['FINISHED', 'Beleg^0.00_0.00_0.00_0.00_-20.00^-20.00:Bar'],
      ],
      'float, cash in and cash out signed as cash outside any VAT rate',
    );
    const rows = await drawerRows();
    assert.deepEqual(
      rows.map((r) => [r.business_case, r.status]),
      [
        ['Anfangsbestand', 'signed'],
        ['Einzahlung', 'signed'],
        ['Auszahlung', 'signed'],
      ],
    );
    for (const row of rows) assert.ok(verifyTseSignature(parseQrCode(row.qr_code!)), `${row.business_case} verifies`);
    // A refused movement (the drawer already open) signs nothing.
    const again = await adminCall(t.app, d.adminToken, 'POST', `/locations/${location}/drawer/open`, {
      float: '10.00',
    });
    assert.equal(again.statusCode, 409, again.body);
    assert.equal(tse.txs.length, before + 3, 'no transaction for a refused opening');
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
      const classOf: Record<string, number> = { '19': 0, '7': 1, '10.7': 2, '5.5': 3, '0': 4 };
      const expected = [0, 0, 0, 0, 0];
      for (const tax of sale.totals.taxes)
        expected[classOf[String(Number(tax.rate))]!]! += cents(tax.base) + cents(tax.tax);
      assert.deepEqual(perClass, expected, `${name}: gross per rate as the document states it`);
      assert.equal(
        perClass.reduce((a, b) => a + b, 0),
        cents(sale.totals.withTax),
        `${name}: the QR's gross is the document's total`,
      );
      issued.push(sale);
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

  test('goods brought back: the credit note is its own signed transaction, a Beleg with the amounts negated', async () => {
    const sold = await adminCall(t.app, d.adminToken, 'POST', '/counter-sales', {
      lines: [line(0, 3), line(6, 1)],
      paymentMethod: 'card',
    });
    assert.equal(sold.statusCode, 201, sold.body);
    const sale = sold.json().data;
    issued.push(sale);
    const before = tse.txs.length;
    const res = await adminCall(t.app, d.adminToken, 'POST', `/sales/${sale.id}/credit-notes`, {
      lines: [{ lineId: sale.lines[0].id, quantity: '1' }],
      reason: 'Eine Dose zurückgebracht.',
    });
    assert.equal(res.statusCode, 201, res.body);
    const note = res.json().data;
    assert.equal(tse.txs.length, before + 1, 'one transaction for the return');
    assert.equal(note.fiscal.tse.status, 'signed');
    const fields = parseQrCode(note.fiscal.tse.qrCode);
    assert.ok(verifyTseSignature(fields));
    assert.equal(fields.processData, `Beleg^${note.totals.withTax}_0.00_0.00_0.00_0.00^${note.totals.withTax}:Unbar`);
    assert.ok(cents(note.totals.withTax) < 0);
    issued.push(note);
  });

  test('§ 33 UStDV: a walk-in up to 250 € gets a Kleinbetragsrechnung, above a Kassenbeleg; a business buyer the full § 14 invoice', async () => {
    const print = async (body: object) => {
      const res = await adminCall(t.app, d.adminToken, 'POST', '/counter-sales', body);
      assert.equal(res.statusCode, 201, res.body);
      const sale = res.json().data;
      issued.push(sale);
      const pdf = await adminCall(t.app, d.adminToken, 'GET', `/sales/${sale.id}?format=pdf&layout=receipt`);
      return (await pdfText(pdf.rawPayload)).replace(/\s+/g, ' ');
    };
    const small = await print({ lines: [line(0, 1)], paymentMethod: 'cash' });
    assert.match(small, /Kleinbetragsrechnung \(§ 33 UStDV\)/);
    const large = await print({ lines: [line(0, 30)], paymentMethod: 'card' });
    assert.doesNotMatch(large, /Kleinbetragsrechnung/);
    assert.match(large, /Rechnung nach § 14 UStG/);
    const buyer = await adminCall(t.app, d.adminToken, 'POST', '/customers', {
      kind: 'business',
      name: 'Malerbetrieb Schulz GmbH',
      address: { street: 'Hauptstr. 1', postalCode: '10115', city: 'Berlin', country: 'de' },
    });
    assert.equal(buyer.statusCode, 201, buyer.body);
    const full = await print({ lines: [line(0, 1)], paymentMethod: 'cash', customerId: buyer.json().data.id });
    assert.doesNotMatch(full, /Kleinbetragsrechnung|Kassenbeleg/);
    assert.match(full, /Malerbetrieb Schulz GmbH/);
    assert.match(full, /Hauptstr\. 1/);
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
      issued.push(sale, second.json().data);
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
      const admins = d.users.filter((u) => u.role === 'admin').length;
      assert.ok(admins >= 1);
      assert.equal(notes.length, admins, 'every admin told, once for the outage, not once per sale');
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
    issued.push(again.json().data);
  });

  test('a slow TSE: the call is bounded, the sale goes through unsigned', async () => {
    tse.mode = { kind: 'slow', ms: 2_500 };
    try {
      const res = await adminCall(t.app, d.adminToken, 'POST', '/counter-sales', {
        lines: [line(0, 1)],
        paymentMethod: 'cash',
      });
      assert.equal(res.statusCode, 201, res.body);
      const sale = res.json().data;
      assert.equal(sale.fiscal.tse.status, 'failed');
      assert.match(sale.fiscal.tse.error, /no answer within 2000 ms/);
      issued.push(sale);
    } finally {
      tse.mode = { kind: 'ok' };
    }
  });

  test('a transaction started but not finished is cancelled at the TSE once it answers again', async () => {
    tse.mode = { kind: 'failFinish' };
    let sale: { id: string; fiscal: { tse: { status: string } } };
    try {
      const res = await adminCall(t.app, d.adminToken, 'POST', '/counter-sales', {
        lines: [line(0, 1)],
        paymentMethod: 'cash',
      });
      assert.equal(res.statusCode, 201, res.body);
      sale = res.json().data;
      assert.equal(sale.fiscal.tse.status, 'failed');
    } finally {
      tse.mode = { kind: 'ok' };
    }
    issued.push(sale as never);
    // Found by its id, not as the fake's last: the slow test's start, answered after the client
    // gave up, may land at the fake later than this one.
    const { tx_id } = await t.c.database.db
      .selectFrom('tse_transactions')
      .select('tx_id')
      .where('document_id', '=', sale!.id)
      .executeTakeFirstOrThrow();
    const open = tse.txs.find((tx) => tx.txId === tx_id)!;
    assert.equal(open.state, 'ACTIVE', 'left open at the TSE');
    const next = await adminCall(t.app, d.adminToken, 'POST', '/counter-sales', {
      lines: [line(0, 1)],
      paymentMethod: 'card',
    });
    assert.equal(next.json().data.fiscal.tse.status, 'signed');
    issued.push(next.json().data);
    await until('the open transaction cancelled', async () => open.state === 'CANCELLED');
    await until('its row says so', async () => {
      const row = await t.c.database.db
        .selectFrom('tse_transactions')
        .select(['attempts', 'status', 'error'])
        .where('document_id', '=', sale.id)
        .executeTakeFirstOrThrow();
      return row.attempts === 2 && row.status === 'failed' && /cancelled at the TSE later/.test(row.error ?? '');
    });
  });

  /** A counter sale made while the TSE misbehaves: it goes through, and says what the TSE did. */
  async function saleDuring(paymentMethod: 'cash' | 'card') {
    const res = await adminCall(t.app, d.adminToken, 'POST', '/counter-sales', { lines: [line(0, 1)], paymentMethod });
    assert.equal(res.statusCode, 201, res.body);
    const sale = res.json().data;
    issued.push(sale);
    return sale as { id: string; fiscal: { tse: { status: string; error: string | null } } };
  }

  test('an access token the TSE ended early (401): Portico signs in again and the sale is signed', async () => {
    tse.expireTokens();
    const auths = tse.calls.filter((c) => c === 'POST /api/v2/auth').length;
    const sale = await saleDuring('card');
    assert.equal(sale.fiscal.tse.status, 'signed', JSON.stringify(sale.fiscal));
    assert.equal(tse.calls.filter((c) => c === 'POST /api/v2/auth').length, auths + 1, 'one fresh sign-in');
  });

  test('the TSE failing before it started (5xx), a TSS no longer initialised, a client switched off: each sale marked, none lost', async () => {
    const device = await t.c.database.db
      .selectFrom('tse_devices')
      .selectAll()
      .where('company_id', '=', d.companyId)
      .executeTakeFirstOrThrow();
    const tss = tse.tss.get(device.tss_id)!;
    const cases: Array<[string, () => void, () => void, RegExp]> = [
      ['5xx', () => (tse.mode = { kind: 'refuse', status: 500 }), () => (tse.mode = { kind: 'ok' }), /HTTP 500/],
      ['TSS not initialised', () => (tss.state = 'UNINITIALIZED'), () => (tss.state = 'INITIALIZED'), /E_TSS_STATE/],
      [
        'client disabled',
        () => tss.disabled.add(device.client_id),
        () => tss.disabled.delete(device.client_id),
        /E_CLIENT_NOT_REGISTERED/,
      ],
    ];
    for (const [name, fail, heal, reason] of cases) {
      const open = tse.txs.filter((tx) => tx.state === 'ACTIVE').length;
      fail();
      let sale: Awaited<ReturnType<typeof saleDuring>>;
      try {
        sale = await saleDuring('cash');
      } finally {
        heal();
      }
      assert.equal(sale.fiscal.tse.status, 'failed', name);
      assert.match(sale.fiscal.tse.error ?? '', reason, name);
      const receipt = await adminCall(t.app, d.adminToken, 'GET', `/sales/${sale.id}?format=pdf&layout=receipt`);
      assert.match((await pdfText(receipt.rawPayload)).replace(/\s+/g, ' '), /TSE ausgefallen/, `${name}: printed`);
      assert.equal(tse.txs.filter((tx) => tx.state === 'ACTIVE').length, open, `${name}: nothing left open`);
      const back = await saleDuring('card');
      assert.equal(back.fiscal.tse.status, 'signed', `${name}: signed again once healed`);
    }
    const failed = (await adminCall(t.app, d.adminToken, 'GET', '/fiscal')).json().data.tse.failed as Array<{
      documentId: string;
    }>;
    assert.ok(failed.length >= 5, 'every unsigned sale listed for the admins');
  });

  test('a drawer movement with the TSE down is still recorded, marked, and its admins told', async () => {
    const told = async () =>
      (
        await t.c.database.db
          .selectFrom('notifications')
          .select('id')
          .where('company_id', '=', d.companyId)
          .where('kind', '=', 'fiscal.tseDown')
          .execute()
      ).length;
    const before = await told();
    await tse.down();
    try {
      const out = await adminCall(t.app, d.adminToken, 'POST', `/locations/${d.locations[0]!.id}/drawer/movements`, {
        kind: 'out',
        amount: '5.00',
        reason: 'Porto',
      });
      assert.ok(out.statusCode < 300, out.body);
    } finally {
      await tse.up();
    }
    const row = (await drawerRows()).at(-1)!;
    assert.deepEqual([row.business_case, row.status], ['Auszahlung', 'failed']);
    assert.equal(row.process_data, 'Beleg^0.00_0.00_0.00_0.00_-5.00^-5.00:Bar', 'what would have been signed');
    assert.ok((await told()) > before, 'the admins told of the new outage');
  });

  test("a German receipt and A4 Kleinbetragsrechnung print the company's own German template", async () => {
    const sale = await saleDuring('cash');
    for (const layout of ['receipt', 'a4'] as const) {
      const query = layout === 'receipt' ? '&layout=receipt' : '';
      const pdf = await adminCall(t.app, d.adminToken, 'GET', `/sales/${sale.id}?format=pdf${query}`);
      assert.equal(pdf.statusCode, 200, pdf.body);
      const text = (await pdfText(pdf.rawPayload)).replace(/\s+/g, ' ');
      assert.match(text, /Vielen Dank für Ihren Einkauf!/, layout);
      assert.doesNotMatch(text, /Hvala|povjerenju/, `${layout}: nothing of the Croatian demo's template`);
      assert.match(text, /Kleinbetragsrechnung/, layout);
      const file = path.join(dir, `german-${layout}.pdf`);
      await fs.writeFile(file, pdf.rawPayload);
      await run('pdftoppm', ['-png', '-r', '110', '-f', '1', '-singlefile', file, path.join(dir, `german-${layout}`)]);
    }
  });

  test("another company's location is not found; a company outside Germany cannot store a TSE", async () => {
    const other = await createTenant(t.c);
    const res = await adminCall(t.app, d.adminToken, 'POST', `/locations/${other.locations[0]!.id}/tse`);
    assert.equal(res.statusCode, 404, res.body);
    const croatian = await adminCall(t.app, other.adminToken, 'PUT', '/fiscal/tse', {
      provider: 'fiskaly',
      apiKey: tse.apiKey,
      apiSecret: tse.apiSecret,
      baseUrl: tse.url,
    });
    assert.equal(croatian.statusCode, 400, croatian.body);
    assert.match(croatian.body, /provider/);
    assert.equal((await adminCall(t.app, other.adminToken, 'GET', '/fiscal')).json().data.tse, null);
  });

  test("the DSFinV-K export read back against the documents, to the cent, with the TSE's TAR", async () => {
    const today = DAY;
    const location = d.locations[0]!.id;
    const exportOf = () =>
      adminCall(t.app, d.adminToken, 'GET', `/exports/dsfinvk?from=${today}&to=${today}&locationId=${location}`);
    // A day's Bons belong to its Kassenabschluss: the day closed at the drawer. Not closed yet: refused.
    const early = await exportOf();
    assert.equal(early.statusCode, 409, early.body);
    assert.ok(early.json().detail.includes(today), early.body);
    // Closed with 1.50 missing: the counted difference is a Vorgang of its own (DifferenzSollIst).
    const current = await adminCall(t.app, d.adminToken, 'GET', `/locations/${location}/drawer`);
    assert.equal(current.statusCode, 200, current.body);
    const counted = (cents(current.json().data.expected) - 150) / 100;
    const closed = await adminCall(t.app, d.adminToken, 'POST', `/locations/${location}/drawer/close`, {
      counted: counted.toFixed(2),
    });
    assert.ok(closed.statusCode < 300, closed.body);
    assert.equal(closed.json().data.difference, '-1.50');
    const difference = (await drawerRows()).at(-1)!;
    assert.deepEqual([difference.business_case, difference.status], ['DifferenzSollIst', 'signed']);
    assert.match(difference.process_data, /\^-1\.50:Bar$/);
    const res = await exportOf();
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['content-type'], 'application/zip');
    const file = path.join(dir, 'dsfinvk.zip');
    await fs.writeFile(file, res.rawPayload);
    const names = (await run('zipinfo', ['-1', file])).stdout.trim().split('\n');
    for (const name of [
      'index.xml',
      'transactions.csv',
      'lines.csv',
      'lines_vat.csv',
      'transactions_vat.csv',
      'datapayment.csv',
      'transactions_tse.csv',
      'cashpointclosing.csv',
      'cashregister.csv',
      'tse.csv',
      'vat.csv',
      'businesscases.csv',
      'payment.csv',
    ])
      assert.ok(names.includes(name), `the zip holds ${name}: ${names.join(', ')}`);
    const tarName = names.find((n) => n.startsWith('tse/') && n.endsWith('.tar'));
    assert.ok(tarName, 'the TSE export is in the zip');
    const csv = async (name: string) =>
      parse((await run('unzip', ['-p', file, name], { encoding: 'utf8', maxBuffer: 1 << 24 })).stdout, {
        columns: true,
        delimiter: ';',
        record_delimiter: '\r\n',
      }) as Array<Record<string, string>>;
    const index = (await run('unzip', ['-p', file, 'index.xml'])).stdout;
    await fs.writeFile(path.join(dir, 'index.xml'), index.replace(/<!DOCTYPE[^>]*>/, ''));
    await run('xmllint', ['--noout', path.join(dir, 'index.xml')]);
    assert.match(index, /<URL>transactions.csv<\/URL>/);

    // The one Kassenabschluss: the drawer's closing, the device's first.
    const closings = await csv('cashpointclosing.csv');
    assert.deepEqual(
      closings.map((c) => c.Z_NR),
      ['1'],
    );
    const heads = await csv('transactions.csv');
    const vat = await csv('transactions_vat.csv');
    const pays = await csv('datapayment.csv');
    const tseRows = await csv('transactions_tse.csv');
    const posVat = await csv('lines_vat.csv');
    assert.ok(issued.length >= 6, `every document of the day is checked: ${issued.length}`);
    for (const sale of issued) {
      const head = heads.find((h) => h.BON_ID === sale.id);
      assert.ok(head, `Bon ${sale.id} exported`);
      assert.equal(cents(head.UMS_BRUTTO!), cents(sale.totals.withTax), 'UMS_BRUTTO is the total');
      const vatSum = vat.filter((v) => v.BON_ID === sale.id).reduce((s, v) => s + cents(v.BON_BRUTTO!), 0);
      assert.equal(vatSum, cents(sale.totals.withTax), 'gross per VAT key adds up to the total');
      const posSum = posVat.filter((v) => v.BON_ID === sale.id).reduce((s, v) => s + cents(v.POS_BRUTTO!), 0);
      assert.equal(posSum, cents(sale.totals.withTax), 'the positions add up to the total');
      const pay = pays.filter((p) => p.BON_ID === sale.id);
      assert.deepEqual(
        pay.map((p) => [p.ZAHLART_TYP, cents(p.ZAHLWAEH_BETRAG!)]),
        [[sale.paymentMethod === 'cash' ? 'Bar' : 'Unbar', cents(sale.totals.withTax)]],
      );
      const tseRow = tseRows.find((r) => r.BON_ID === sale.id)!;
      if (sale.fiscal.tse.transactionNumber !== null)
        assert.equal(Number(tseRow.TSE_TANR), sale.fiscal.tse.transactionNumber, 'the TSE number as on the receipt');
      else assert.equal(tseRow.TSE_TA_FEHLER, 'TSE ausgefallen');
    }
    assert.equal(
      tseRows.filter((r) => r.TSE_TA_VORGANGSDATEN!.startsWith('AVBelegabbruch')).length,
      1,
      'the aborted basket',
    );
    const closing = (await csv('payment.csv')).reduce((s, p) => s + cents(p.Z_ZAHLART_BETRAG!), 0);
    const docs = pays.reduce((s, p) => s + cents(p.ZAHLWAEH_BETRAG!), 0);
    assert.equal(closing, docs, "the closing's payments are the Bons' payments");
    // Every file index.xml names is in the zip with exactly the columns it declares, in order.
    const tablesInIndex = [...index.matchAll(/<Table>[\s\S]*?<\/Table>/g)].map((m) => ({
      url: /<URL>([^<]+)<\/URL>/.exec(m[0])![1]!,
      columns: [...m[0].matchAll(/<Name>([^<]+)<\/Name>\s*<(?:Numeric|AlphaNumeric|Date)/g)].map((c) => c[1]),
    }));
    assert.equal(tablesInIndex.length, 20, 'the 20 tables of DSFinV-K 2.3 (3.1–3.3)');
    for (const table of tablesInIndex) {
      assert.ok(names.includes(table.url), `${table.url} in the zip`);
      const header = (await run('unzip', ['-p', file, table.url])).stdout.split('\r\n')[0]!;
      assert.deepEqual(header.split(';'), table.columns, `${table.url}: its columns as index.xml declares`);
    }
    for (const [name, columns] of [
      ['cash_per_currency.csv', 'Z_KASSE_ID;Z_ERSTELLUNG;Z_NR;ZAHLART_WAEH;ZAHLART_BETRAG_WAEH'],
      ['allocation_groups.csv', 'Z_KASSE_ID;Z_ERSTELLUNG;Z_NR;BON_ID;ABRECHNUNGSKREIS'],
    ] as const)
      assert.equal((await run('unzip', ['-p', file, name])).stdout.split('\r\n')[0], columns, name);

    // The drawer's business cases, each a Bon, in the closing's business cases to the cent.
    const cases = await csv('businesscases.csv');
    const caseSum = (gv: string) =>
      cases.filter((c) => c.GV_TYP === gv).reduce((s, c) => s + cents(c.Z_UMS_BRUTTO!), 0);
    assert.equal(caseSum('Anfangsbestand'), 10_000);
    assert.equal(caseSum('Einzahlung'), 5_000);
    assert.equal(caseSum('Auszahlung'), -2_500, 'both cash-outs, the unsigned one too');
    assert.equal(caseSum('DifferenzSollIst'), -150);
    for (const gv of ['Anfangsbestand', 'Einzahlung', 'Auszahlung', 'DifferenzSollIst'])
      assert.ok(
        cases.filter((c) => c.GV_TYP === gv).every((c) => c.UST_SCHLUESSEL === '5' && cents(c.Z_UST!) === 0),
        `${gv}: not taxable (USt-Schlüssel 5)`,
      );
    const umsatz = cases.filter((c) => c.GV_TYP === 'Umsatz').reduce((s, c) => s + cents(c.Z_UMS_BRUTTO!), 0);
    assert.equal(
      umsatz,
      issued.reduce((s, sale) => s + cents(sale.totals.withTax), 0),
      "the closing's sales are the documents' totals",
    );
    for (const row of await drawerRows()) {
      const head = heads.find((h) => h.BON_ID === row.id);
      assert.ok(head, `${row.business_case} is a Bon`);
      assert.equal(head.BON_TYP, 'Beleg');
      const tseRow = tseRows.find((r) => r.BON_ID === row.id)!;
      assert.equal(tseRow.TSE_TA_FEHLER, row.status === 'failed' ? 'TSE ausgefallen' : '');
    }
    // Kassensturz: the cash per currency is the cash counted at the drawer, to the cent.
    const perCurrency = await csv('cash_per_currency.csv');
    assert.deepEqual(
      perCurrency.map((r) => [r.ZAHLART_WAEH, cents(r.ZAHLART_BETRAG_WAEH!)]),
      [['EUR', Math.round(counted * 100)]],
    );
    const cashPaid = pays.filter((p) => p.ZAHLART_TYP === 'Bar').reduce((s, p) => s + cents(p.BASISWAEH_BETRAG!), 0);
    assert.equal(cashPaid, Math.round(counted * 100), "the Bons' cash payments are the count");
    assert.equal(cents(closings[0]!.Z_SE_BARZAHLUNGEN!), cashPaid);
    await run('unzip', ['-o', '-q', file, tarName!, '-d', dir]);
    const tarList = (await run('tar', ['-tf', path.join(dir, tarName!)])).stdout.trim().split('\n');
    const signed = issued.filter((s) => s.fiscal.tse.transactionNumber !== null).length;
    assert.ok(tarList.length >= signed, `a log per signed transaction: ${tarList.length}`);
  });

  test('a rate with no DSFinV-K class (a catalog still at 25 %) is refused before the TSE, naming the lines', async () => {
    const db = t.c.database.db;
    await db
      .updateTable('tax_rates')
      .set({ rate_bp: 2500 })
      .where('company_id', '=', d.companyId)
      .where('rate_bp', '=', 700)
      .execute();
    try {
      const before = tse.txs.length;
      const res = await adminCall(t.app, d.adminToken, 'POST', '/counter-sales', {
        lines: [line(6, 1)],
        paymentMethod: 'cash',
      });
      assert.equal(res.statusCode, 400, res.body);
      assert.match(res.body, /"lines"/);
      assert.match(res.body, /DSFinV-K/);
      assert.equal(tse.txs.length, before, 'nothing started at the TSE');
    } finally {
      await db
        .updateTable('tax_rates')
        .set({ rate_bp: 700 })
        .where('company_id', '=', d.companyId)
        .where('rate_bp', '=', 2500)
        .execute();
    }
  });
});
