// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  checkHub3Reference,
  creditorReference,
  documentReference,
  hr01Reference,
  isCreditorReference,
  mod11IniCheckDigit,
} from './payment-reference.ts';

test("ISO 11649: the standard's example reference and ours check out", () => {
  // The example of ISO 11649 and the EPC: RF18 5390 0754 7034.
  assert.equal(creditorReference('539007547034'), 'RF18539007547034');
  assert.equal(isCreditorReference('RF18 5390 0754 7034'), true);
  assert.equal(isCreditorReference('RF19539007547034'), false);
  const ours = creditorReference('Q-ZG1-2026-00042');
  assert.equal(ours.slice(4), 'QZG1202600042');
  assert.equal(isCreditorReference(ours), true);
  assert.throws(() => creditorReference(''), RangeError);
  assert.throws(() => creditorReference('X'.repeat(22)), RangeError);
});

test('MOD 11 INI: weights from 2 on the right, 10 and 11 become 0', () => {
  // 1234: 4·2 + 3·3 + 2·4 + 1·5 = 30; 30 mod 11 = 8; 11 − 8 = 3.
  assert.equal(mod11IniCheckDigit('1234'), 3);
  // 5: 5·2 = 10; 11 − 10 = 1.  6: 12 mod 11 = 1 → 10 → 0.  0: 11 − 0 = 11 → 0.
  assert.equal(mod11IniCheckDigit('5'), 1);
  assert.equal(mod11IniCheckDigit('6'), 0);
  assert.equal(mod11IniCheckDigit('0'), 0);
  assert.equal(hr01Reference(['2026', '00042']), `2026-00042${mod11IniCheckDigit('202600042')}`);
});

test('references are checked against their model', () => {
  assert.deepEqual(checkHub3Reference('HR00', '2026-00042'), { ok: true });
  assert.deepEqual(checkHub3Reference('HR00', '1-2-3'), { ok: true });
  assert.equal(checkHub3Reference('HR00', '1-2-3-4').ok, false);
  assert.equal(checkHub3Reference('HR00', 'Q-ZG1').ok, false);
  assert.equal(checkHub3Reference('HR00', '1234567890123').ok, false);
  assert.deepEqual(checkHub3Reference('HR00', '123456789012-123456789'), { ok: true });
  assert.equal(checkHub3Reference('HR00', '123456789012-1234567890').ok, false);
  assert.deepEqual(checkHub3Reference('HR99', ''), { ok: true });
  assert.equal(checkHub3Reference('HR99', '1').ok, false);
  assert.equal(checkHub3Reference('H01', '1').ok, false);
  const good = hr01Reference(['7336', '68949637625', '0000']);
  assert.deepEqual(checkHub3Reference('HR01', good), { ok: true });
  const bad = good.slice(0, -1) + String((Number(good.at(-1)) + 1) % 10);
  assert.equal(checkHub3Reference('HR01', bad).ok, false);
});

test('a document number becomes a reference that names that document', () => {
  // Q = 26, Z = 35, G = 16, then the location's digit 1.
  assert.equal(documentReference('Q-ZG1-2026-00042', 'HR00'), '2635161-2026-00042');
  assert.deepEqual(checkHub3Reference('HR00', documentReference('S-ZG1-2026-00042', 'HR00')), { ok: true });
  assert.notEqual(documentReference('S-ZG1-2026-00042', 'HR00'), documentReference('Q-ZG1-2026-00042', 'HR00'));
  assert.notEqual(documentReference('S-ST1-2026-00042', 'HR00'), documentReference('S-ZG1-2026-00042', 'HR00'));
  const hr01 = documentReference('S-ZG1-2026-00042', 'HR01');
  assert.deepEqual(checkHub3Reference('HR01', hr01), { ok: true });
  // A long location code does not fit 22 characters: the kind, year and sequence remain.
  assert.equal(documentReference('S-WAREHOUSE7-2026-00042', 'HR00'), '28-2026-00042');
  assert.throws(() => documentReference('not a number', 'HR00'), RangeError);
});
