// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatIban, mod97, normalizeIban, validateBic, validateIban } from './iban.ts';

const VALID = {
  HR: 'HR1210010051863000160',
  DE: 'DE89370400440532013000',
  AT: 'AT611904300234573201',
  SI: 'SI56263300012039086',
  BE: 'BE68539007547034',
  GB: 'GB82WEST12345698765432',
};

test('published example IBANs of several countries pass', () => {
  for (const [country, iban] of Object.entries(VALID)) {
    assert.deepEqual(validateIban(iban), { ok: true, iban, country }, iban);
  }
});

test('spaces, hyphens and lower case as people type them are accepted and normalised', () => {
  const result = validateIban(' hr12 1001 0051 8630 0016 0 ');
  assert.deepEqual(result, { ok: true, iban: VALID.HR, country: 'HR' });
  assert.equal(normalizeIban('de89-3704-0044-0532-0130-00'), VALID.DE);
  assert.equal(formatIban(VALID.HR), 'HR12 1001 0051 8630 0016 0');
  assert.equal(formatIban(VALID.DE), 'DE89 3704 0044 0532 0130 00');
});

test('every single-character typo and every swap of two different neighbours is caught', () => {
  for (const iban of Object.values(VALID)) {
    for (let i = 2; i < iban.length; i++) {
      for (const digit of '0123456789') {
        if (digit === iban[i]) continue;
        const typo = iban.slice(0, i) + digit + iban.slice(i + 1);
        assert.equal(validateIban(typo).ok, false, typo);
      }
      if (i + 1 < iban.length && iban[i] !== iban[i + 1]) {
        const swapped = iban.slice(0, i) + iban[i + 1] + iban[i] + iban.slice(i + 2);
        assert.equal(validateIban(swapped).ok, false, swapped);
      }
    }
  }
});

test('the length registered for the country is enforced; unknown countries get 15 to 34', () => {
  const short = validateIban('HR121001005186300016');
  assert.equal(short.ok, false);
  assert.equal(!short.ok && short.problem, 'length');
  assert.match(!short.ok ? short.message : '', /21 characters for HR/);
  const longDe = validateIban(`${VALID.DE}0`);
  assert.equal(!longDe.ok && longDe.problem, 'length');
  // A country not in the table: only the generic bounds and the checksum apply.
  const generic = 'XK051212012345678906'; // Kosovo, registry example
  assert.equal(validateIban(generic).ok, true);
  assert.equal(validateIban('XK05121').ok, false);
});

test('shape errors are named before the checksum', () => {
  for (const text of ['', '1234', 'HRAB10010051863000160', 'HR12-1001-0051-8630-0016-!']) {
    const result = validateIban(text);
    assert.equal(!result.ok && result.problem, 'format', text);
  }
  const letterInCroatian = validateIban('HR121001005186300016O');
  assert.equal(!letterInCroatian.ok && letterInCroatian.problem, 'format');
});

test('mod97 agrees with BigInt arithmetic', () => {
  for (const text of ['1', '97', '98', '123456789012345678901234567890', 'ABCXYZ0123']) {
    const digits = text.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
    assert.equal(mod97(text), Number(BigInt(digits) % 97n), text);
  }
});

test('BIC: 8 or 11 characters, bank and country letters', () => {
  assert.deepEqual(validateBic('zabahr2x'), { ok: true, bic: 'ZABAHR2X' });
  assert.deepEqual(validateBic(' ZABAHR2XXXX '), { ok: true, bic: 'ZABAHR2XXXX' });
  assert.deepEqual(validateBic('COBADEFFXXX'), { ok: true, bic: 'COBADEFFXXX' });
  for (const bad of ['ZABAHR2', 'ZABAHR2XX', 'ZAB1HR2X', 'ZABA1R2X', 'ZABAHR2XXXXX', '']) {
    assert.equal(validateBic(bad).ok, false, bad);
  }
});
