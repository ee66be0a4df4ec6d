// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readEpc } from '../../../../test/support/payment-slips.ts';
import { buildEpcQrPayload } from './epc-qr.ts';
import { creditorReference } from './payment-reference.ts';

const account = { iban: 'HR12 1001 0051 8630 0016 0', bic: 'nbhrhr2x', beneficiaryName: 'Boje i Lakovi d.o.o.' };

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
