import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeWithZxing } from '../../../../test/support/barcode-decoder.ts';
import { buildHub3Payload, field, HUB3_PDF417, type Hub3Input } from './hub3.ts';
import { documentReference, hr01Reference } from './payment-reference.ts';
import { renderHub3Png } from './render-payment-code.ts';

const sale: Hub3Input = {
  amountCents: 15525,
  payer: { name: 'Ivan Horvat', street: 'Ilica 242', place: '10000 Zagreb' },
  recipient: { name: 'Boje i Lakovi d.o.o.', street: 'Savska cesta 41', place: '10000 Zagreb' },
  iban: 'HR12 1001 0051 8630 0016 0',
  model: 'HR00',
  reference: documentReference('S-ZG1-2026-00042', 'HR00'),
  description: 'Račun S-ZG1-2026-00042',
};

const FIELDS = [
  'header',
  'currency',
  'amount',
  'payerName',
  'payerStreet',
  'payerPlace',
  'recipientName',
  'recipientStreet',
  'recipientPlace',
  'iban',
  'model',
  'reference',
  'purpose',
  'description',
] as const;

/** The fourteen fields by position, as a banking app reads them; every field ends with a line feed. */
function readHub3(text: string): Record<(typeof FIELDS)[number], string> {
  assert.ok(text.endsWith('\n'), 'the last field ends with a line feed too');
  const values = text.slice(0, -1).split('\n');
  assert.equal(values.length, 14);
  return Object.fromEntries(FIELDS.map((name, i) => [name, values[i]!])) as Record<(typeof FIELDS)[number], string>;
}

test("the payload has the fourteen fields in the specification's order, the amount as 15 digits of cents", () => {
  assert.equal(
    buildHub3Payload(sale),
    [
      'HRVHUB30',
      'EUR',
      '000000000015525',
      'Ivan Horvat',
      'Ilica 242',
      '10000 Zagreb',
      'Boje i Lakovi d.o.o.',
      'Savska cesta 41',
      '10000 Zagreb',
      'HR1210010051863000160',
      'HR00',
      '2835161-2026-00042',
      'OTHR',
      'Račun S-ZG1-2026-00042',
      '',
    ].join('\n'),
  );
  // A quotation anyone may pay: no payer, HR99 without a reference.
  const open = readHub3(buildHub3Payload({ ...sale, payer: null, model: 'HR99', reference: '', purposeCode: 'gdds' }));
  assert.deepEqual(
    [open.payerName, open.payerStreet, open.payerPlace, open.model, open.reference, open.purpose],
    ['', '', '', 'HR99', '', 'GDDS'],
  );
});

test('texts keep Croatian letters, lose other accents and signs, and are cut to the field', () => {
  assert.equal(field('Đurđa Šimić-Žužić & Co. <d.o.o.>', 30), 'Đurđa Šimić-Žužić Co. d.o.o.');
  assert.equal(field('Straße 5, Köln – Müller', 27), 'Strasse 5, Koln Muller');
  assert.equal(field('ČĆŽŠĐčćžšđ'.repeat(4), 25), 'ČĆŽŠĐčćžšđ'.repeat(2) + 'ČĆŽŠĐ');
  assert.equal(field('  line\none\ttwo  ', 35), 'line one two');
  assert.equal(field(null, 10), '');
  const long = readHub3(
    buildHub3Payload({
      ...sale,
      recipient: { name: 'Obrt za trgovinu bojama i lakovima Horvat', street: null, place: null },
    }),
  );
  assert.equal(long.recipientName, 'Obrt za trgovinu bojama i');
  assert.equal([...long.recipientName].length, 25);
});

test('what no slip can carry is refused', () => {
  assert.throws(() => buildHub3Payload({ ...sale, iban: 'DE89370400440532013000' }), /21 characters/);
  assert.throws(() => buildHub3Payload({ ...sale, iban: 'HR1210010051863000161' }), /iban/);
  assert.throws(() => buildHub3Payload({ ...sale, reference: 'S-ZG1-2026-00042' }), /reference/);
  assert.throws(() => buildHub3Payload({ ...sale, model: 'HR01', reference: '2026-00042' }), /check digit/);
  assert.throws(() => buildHub3Payload({ ...sale, amountCents: -1 }), /amountCents/);
  assert.throws(() => buildHub3Payload({ ...sale, amountCents: 10 ** 15 }), /amountCents/);
  assert.throws(() => buildHub3Payload({ ...sale, purposeCode: 'X1' }), /purposeCode/);
  assert.throws(() => buildHub3Payload({ ...sale, recipient: { name: '&&' } }), /recipient.name/);
  assert.equal(readHub3(buildHub3Payload({ ...sale, amountCents: 999_999_999_999_999 })).amount, '999999999999999');
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
