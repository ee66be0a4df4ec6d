// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fillPrintTemplate, unknownPlaceholders } from './print-template.ts';

const values = { number: 'Q-ZG1-2026-00042', total: '155,25 €', dueDate: '24. 12. 2026.', customerName: 'Ana Horvat' };

test('every known placeholder is filled, as often as it appears', () => {
  assert.equal(
    fillPrintTemplate('Poziv na broj: {number}. Iznos {total} do {dueDate}, {customerName} ({number})', values),
    'Poziv na broj: Q-ZG1-2026-00042. Iznos 155,25 € do 24. 12. 2026., Ana Horvat (Q-ZG1-2026-00042)',
  );
  assert.equal(
    fillPrintTemplate('Rok plaćanja: {dueDate}.', values),
    'Rok plaćanja: 24. 12. 2026.',
    'one full stop after a date that ends in one',
  );
  assert.equal(fillPrintTemplate(null, values), null);
  assert.equal(fillPrintTemplate('no placeholders { here }', values), 'no placeholders { here }');
});

test('unknown placeholders are named once each; braces around spaces are text', () => {
  assert.deepEqual(unknownPlaceholders('{number} {iban} {Number} {iban} {}'), ['{iban}', '{Number}', '{}']);
  assert.deepEqual(unknownPlaceholders('{ number } and {total}'), []);
  assert.equal(fillPrintTemplate('{iban}', values), '{iban}');
});
