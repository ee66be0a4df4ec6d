import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeQrWithZbar, decodeWithZxing } from '../../../../test/support/barcode-decoder.ts';
import { buildEpcQrPayload, EPC_QR_MAX_BYTES } from './epc-qr.ts';
import { creditorReference } from './payment-reference.ts';
import { renderEpcQrPng } from './render-payment-code.ts';

const account = { iban: 'HR12 1001 0051 8630 0016 0', bic: 'nbhrhr2x', beneficiaryName: 'Boje i Lakovi d.o.o.' };

/** What a banking app reads from the code: the guideline's elements by position. */
function readEpc(text: string) {
  const e = text.split('\n');
  return {
    tag: e[0],
    version: e[1],
    charset: e[2],
    id: e[3],
    bic: e[4],
    name: e[5],
    iban: e[6],
    amount: e[7],
    purpose: e[8],
    reference: e[9],
    text: e[10],
    info: e[11],
    count: e.length,
  };
}

test('the payload follows EPC069-12 version 002 element by element', () => {
  const payload = buildEpcQrPayload({ ...account, amountCents: 15525, remittanceText: 'Ponuda Q-ZG1-2026-00042' });
  assert.equal(
    payload,
    'BCD\n002\n1\nSCT\nNBHRHR2X\nBoje i Lakovi d.o.o.\nHR1210010051863000160\nEUR155.25\n\n\nPonuda Q-ZG1-2026-00042',
  );
  // Version 002 lets the BIC be empty; nothing follows the last element given.
  const bare = buildEpcQrPayload({ iban: account.iban, beneficiaryName: 'Ana', amountCents: 5 });
  assert.equal(bare, 'BCD\n002\n1\nSCT\n\nAna\nHR1210010051863000160\nEUR0.05');
  const structured = buildEpcQrPayload({
    ...account,
    amountCents: 100_00,
    purpose: 'gdds',
    creditorReference: creditorReference('Q-ZG1-2026-00042'),
    information: 'Hvala!',
  });
  assert.deepEqual(readEpc(structured), {
    tag: 'BCD',
    version: '002',
    charset: '1',
    id: 'SCT',
    bic: 'NBHRHR2X',
    name: 'Boje i Lakovi d.o.o.',
    iban: 'HR1210010051863000160',
    amount: 'EUR100.00',
    purpose: 'GDDS',
    reference: creditorReference('Q-ZG1-2026-00042'),
    text: '',
    info: 'Hvala!',
    count: 12,
  });
});

test('free texts are cut to their limits and kept on one line; what cannot be paid is refused', () => {
  // Limits count characters, not bytes: Ž is two bytes of UTF-8 and one character.
  assert.equal(
    readEpc(buildEpcQrPayload({ ...account, beneficiaryName: `${'Ž'.repeat(69)}ab`, amountCents: 1 })).name,
    `${'Ž'.repeat(69)}a`,
  );
  const read = readEpc(buildEpcQrPayload({ ...account, amountCents: 1, remittanceText: `a\nb${'x'.repeat(200)}` }));
  assert.equal([...read.text!].length, 140);
  assert.ok(read.text!.startsWith('a bxxx'));
  assert.throws(() => buildEpcQrPayload({ ...account, iban: 'HR1210010051863000161', amountCents: 1 }), /iban/);
  assert.throws(() => buildEpcQrPayload({ ...account, bic: 'NBHR', amountCents: 1 }), /bic/);
  assert.throws(() => buildEpcQrPayload({ ...account, amountCents: 0 }), /amountCents/);
  assert.throws(() => buildEpcQrPayload({ ...account, amountCents: 100_000_000_000 }), /amountCents/);
  assert.equal(readEpc(buildEpcQrPayload({ ...account, amountCents: 99_999_999_999 })).amount, 'EUR999999999.99');
  assert.throws(
    () => buildEpcQrPayload({ ...account, amountCents: 1, creditorReference: 'RF00123' }),
    /creditorReference/,
  );
  assert.throws(
    () =>
      buildEpcQrPayload({ ...account, amountCents: 1, creditorReference: creditorReference('1'), remittanceText: 'x' }),
    /exclude/,
  );
  assert.throws(() => buildEpcQrPayload({ ...account, beneficiaryName: ' ', amountCents: 1 }), /beneficiaryName/);
});

test('the rendered code decodes, in zxing and in zbar, to the same IBAN, amount, reference and recipient', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'portico-epc-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const payload = buildEpcQrPayload({
    ...account,
    beneficiaryName: 'Boje i Lakovi d.o.o. – Šibenik, Čakovec, Đakovo',
    amountCents: 123_456_78,
    remittanceText: 'Račun S-ZG1-2026-00042',
  });
  const png = await renderEpcQrPng(payload);
  const path = join(dir, 'epc.png');
  await writeFile(path, png);

  const [zxing, ...more] = await decodeWithZxing(png, ['QRCode']);
  assert.equal(more.length, 0);
  assert.equal(zxing?.ecLevel, 'M');
  assert.ok(Number(zxing?.version) <= 13, `QR version ${zxing?.version}`);
  const [zbar] = await decodeQrWithZbar(path);
  for (const decoded of [zxing!.text, zbar!]) {
    const read = readEpc(decoded);
    assert.equal(read.iban, 'HR1210010051863000160');
    assert.equal(read.amount, 'EUR123456.78');
    assert.equal(read.text, 'Račun S-ZG1-2026-00042');
    assert.equal(read.name, 'Boje i Lakovi d.o.o. – Šibenik, Čakovec, Đakovo');
    assert.equal(decoded, payload);
  }
});

test('the largest payload the guideline allows still renders at version 13 or below and decodes', async () => {
  const payload = buildEpcQrPayload({
    iban: 'MT84MALT011000012345MTLCAST001S',
    bic: 'MALTMTMTXXX',
    beneficiaryName: 'N'.repeat(70),
    amountCents: 99_999_999_999,
    purpose: 'GDDS',
    remittanceText: 'T'.repeat(140),
    information: 'I'.repeat(39),
  });
  assert.equal(Buffer.byteLength(payload), EPC_QR_MAX_BYTES);
  const [decoded] = await decodeWithZxing(await renderEpcQrPng(payload, { scale: 3 }), ['QRCode']);
  assert.equal(decoded?.text, payload);
  assert.ok(Number(decoded?.version) <= 13, `QR version ${decoded?.version}`);
  assert.throws(
    () =>
      buildEpcQrPayload({ ...account, amountCents: 1, remittanceText: 'Ž'.repeat(140), information: 'Ž'.repeat(70) }),
    /331 bytes/,
  );
});
