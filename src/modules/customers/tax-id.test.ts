// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { iso7064Mod11_10, taxIdKey, validateTaxId } from './tax-id.ts';

// The Ministry of Finance's OIB, printed on its letterhead; and a second one with a valid check digit.
const OIB = '18683136487';
const OIB_2 = '85821130368';

test('a Croatian OIB passes with or without the HR prefix, and with separators', () => {
  assert.deepEqual(validateTaxId(OIB, 'HR'), { ok: true, value: OIB, kind: 'hr_oib' });
  assert.deepEqual(validateTaxId(`HR${OIB}`), { ok: true, value: `HR${OIB}`, kind: 'hr_oib' });
  assert.deepEqual(validateTaxId(' hr 186 831 364 87 ', 'DE'), { ok: true, value: `HR${OIB}`, kind: 'hr_oib' });
  assert.equal(validateTaxId(OIB_2, 'hr').ok, true);
});

test('every single-digit typo of an OIB is refused by the check digit', () => {
  for (let i = 0; i < OIB.length; i++) {
    for (const d of '0123456789') {
      if (d === OIB[i]) continue;
      const typo = OIB.slice(0, i) + d + OIB.slice(i + 1);
      const result = validateTaxId(typo, 'HR');
      assert.equal(result.ok, false, typo);
      assert.match(!result.ok ? result.message : '', /check digit/);
    }
  }
});

test('a Croatian party with a number of the wrong length is told what an OIB looks like', () => {
  const result = validateTaxId('1868313648', 'HR');
  assert.deepEqual(result, { ok: false, message: 'A Croatian OIB has 11 digits (optionally after "HR").' });
  assert.equal(validateTaxId('HR1868313648').ok, false);
});

test('German VAT ids: DE + 9 digits, the last a MOD 11,10 check digit', () => {
  assert.deepEqual(validateTaxId('DE136695976', 'DE'), { ok: true, value: 'DE136695976', kind: 'de_vat' });
  assert.deepEqual(validateTaxId('de 136 695 976'), { ok: true, value: 'DE136695976', kind: 'de_vat' });
  const typo = validateTaxId('DE136695977');
  assert.equal(typo.ok, false);
  assert.match(!typo.ok ? typo.message : '', /check digit/);
  assert.equal(validateTaxId('DE13669597').ok, false);
  // A German Steuernummer has no common format: accepted as text.
  assert.deepEqual(validateTaxId('21/815/08150', 'DE'), { ok: true, value: '21/815/08150', kind: 'other' });
});

test('other countries: trimmed text, no check', () => {
  assert.deepEqual(validateTaxId('  ATU12345678 ', 'AT'), { ok: true, value: 'ATU12345678', kind: 'other' });
  assert.deepEqual(validateTaxId('12345', null), { ok: true, value: '12345', kind: 'other' });
  assert.equal(validateTaxId('   ').ok, false);
});

test('the comparison key makes the OIB and the Croatian VAT id one customer', () => {
  assert.equal(taxIdKey(`HR${OIB}`), OIB);
  assert.equal(taxIdKey(` hr ${OIB.slice(0, 5)} ${OIB.slice(5)}`), OIB);
  assert.equal(taxIdKey('de 136.695.976'), 'DE136695976');
  assert.equal(taxIdKey('atu 1234-5678'), 'ATU12345678');
});

test('MOD 11,10 finds the one check digit per body', () => {
  for (const body of ['1868313648', '0000000000', '9999999999', '13669597']) {
    const passing = [...'0123456789'].filter((d) => iso7064Mod11_10(body + d));
    assert.equal(passing.length, 1, body);
  }
  assert.equal(iso7064Mod11_10('1'), false);
  assert.equal(iso7064Mod11_10('12a'), false);
});
