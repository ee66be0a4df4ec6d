// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readHub3 } from '../../../../test/support/payment-slips.ts';
import { buildHub3Payload, field, type Hub3Input } from './hub3.ts';
import { documentReference } from './payment-reference.ts';

const sale: Hub3Input = {
  amountCents: 15525,
  payer: { name: 'Ivan Horvat', street: 'Ilica 242', place: '10000 Zagreb' },
  recipient: { name: 'Boje i Lakovi d.o.o.', street: 'Savska cesta 41', place: '10000 Zagreb' },
  iban: 'HR12 1001 0051 8630 0016 0',
  model: 'HR00',
  reference: documentReference('S-ZG1-2026-00042', 'HR00'),
  description: 'Račun S-ZG1-2026-00042',
};

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
