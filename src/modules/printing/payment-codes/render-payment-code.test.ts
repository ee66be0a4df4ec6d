// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeQrWithZbar, decodeWithZxing } from '../../../../test/support/barcode-decoder.ts';
import { readEpc, readHub3 } from '../../../../test/support/payment-slips.ts';
import {
  buildEpcQrPayload,
  buildHub3Payload,
  documentReference,
  EPC_QR_MAX_BYTES,
  hr01Reference,
  type Hub3Input,
} from '../../documents/index.ts';
import { HUB3_PDF417, renderEpcQrPng, renderHub3Png } from './render-payment-code.ts';

// The payloads come from the document kernel; these tests draw them and read them back as a banking app would.

const account = { iban: 'HR12 1001 0051 8630 0016 0', bic: 'nbhrhr2x', beneficiaryName: 'Boje i Lakovi d.o.o.' };

const sale: Hub3Input = {
  amountCents: 15525,
  payer: { name: 'Ivan Horvat', street: 'Ilica 242', place: '10000 Zagreb' },
  recipient: { name: 'Boje i Lakovi d.o.o.', street: 'Savska cesta 41', place: '10000 Zagreb' },
  iban: 'HR12 1001 0051 8630 0016 0',
  model: 'HR00',
  reference: documentReference('S-ZG1-2026-00042', 'HR00'),
  description: 'Račun S-ZG1-2026-00042',
};

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

test('the rendered PDF417 decodes to the same IBAN, amount, reference and recipient, at the recommended geometry', async () => {
  const input: Hub3Input = {
    ...sale,
    amountCents: 1_234_567_89,
    payer: { name: 'Ana Kovačević', street: 'Ulica Grada Vukovara 269', place: '10000 Zagreb' },
    recipient: { name: 'Boje i Lakovi d.o.o.', street: 'Šetalište 1', place: '21000 Split' },
    model: 'HR01',
    reference: hr01Reference(['2026', '00042']),
    purposeCode: 'GDDS',
  };
  const payload = buildHub3Payload(input);
  const scale = 3;
  const png = await renderHub3Png(payload, { scale });
  const [decoded, ...more] = await decodeWithZxing(png, ['PDF417']);
  assert.equal(more.length, 0);
  assert.equal(decoded?.text, payload);
  const read = readHub3(decoded!.text);
  assert.equal(read.iban, 'HR1210010051863000160');
  assert.equal(read.amount, '000000123456789');
  assert.equal(read.model, 'HR01');
  assert.equal(read.reference, input.reference);
  assert.equal(read.recipientName, 'Boje i Lakovi d.o.o.');
  assert.equal(read.recipientPlace, '21000 Split');
  assert.equal(read.payerName, 'Ana Kovačević');

  // Geometry from the image: 9 data columns make 17 × (9 + 4) + 1 = 222 modules across, plus 2 + 2 of quiet zone.
  const width = png.readUInt32BE(16) / scale;
  const height = png.readUInt32BE(20) / scale;
  assert.equal(width, 222 + 4);
  const rows = (height - 4) / HUB3_PDF417.rowmult;
  assert.ok(Number.isInteger(rows), `rows ${rows}`);
  // Error correction level 4 is 2^(4+1) = 32 codewords; zxing reports them as a share of all codewords, rounded down.
  assert.equal(decoded?.ecLevel, `${Math.floor((100 * 32) / (rows * HUB3_PDF417.columns))}%`);
  // At 0.254 mm per module the symbol stays within 58 × 26 mm.
  assert.ok(222 * HUB3_PDF417.moduleMm <= HUB3_PDF417.maxWidthMm);
  assert.ok(rows * HUB3_PDF417.rowmult * HUB3_PDF417.moduleMm <= HUB3_PDF417.maxHeightMm, `${rows} rows`);
});

test('every field at its length still fits 58 × 26 mm; a payload of Croatian letters only decodes but is taller', async () => {
  const rowsOf = (png: Buffer) => (png.readUInt32BE(20) / 2 - 4) / HUB3_PDF417.rowmult;
  const fill = (text: string, length: number) => text.repeat(Math.ceil(length / text.length)).slice(0, length);
  const full = (letters: string) =>
    buildHub3Payload({
      amountCents: 999_999_999_999_999,
      payer: {
        name: fill(`Kovačević ${letters}`, 30),
        street: fill(`Ulica ${letters} `, 27),
        place: fill(`10000 Zagreb ${letters}`, 27),
      },
      recipient: {
        name: fill(`Boje i lakovi ${letters}`, 25),
        street: fill(`Šetalište ${letters}`, 25),
        place: fill(`21000 Split ${letters}`, 27),
      },
      iban: sale.iban,
      model: 'HR00',
      reference: '123456789012-123456789',
      purposeCode: 'OTHR',
      description: fill(`Račun S-ZG1-2026-00042 ${letters}`, 35),
    });
  const usual = full('abc');
  const usualPng = await renderHub3Png(usual, { scale: 2 });
  assert.equal((await decodeWithZxing(usualPng, ['PDF417']))[0]?.text, usual);
  assert.ok(
    rowsOf(usualPng) * HUB3_PDF417.rowmult * HUB3_PDF417.moduleMm <= HUB3_PDF417.maxHeightMm,
    `${rowsOf(usualPng)} rows`,
  );
  // Two UTF-8 bytes per Croatian letter: such a payload needs more rows than 26 mm hold at 0.254 mm,
  // so a printer sizes the image to the box rather than the module to 0.254 mm (see hub3.ts).
  const croatian = full('ČĆŽŠĐ');
  const croatianPng = await renderHub3Png(croatian, { scale: 2 });
  assert.equal((await decodeWithZxing(croatianPng, ['PDF417']))[0]?.text, croatian);
  assert.ok(rowsOf(croatianPng) > rowsOf(usualPng));
});
