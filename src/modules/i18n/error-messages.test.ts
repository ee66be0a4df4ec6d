import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateTaxId } from '../customers/tax-id.ts';
import { LANGUAGES, placeholdersOf } from './catalog.ts';
import { errorCatalogs as errorMessages, said, saidOf } from './error-messages.ts';

test('every refusal has a text in hr, de and en with the placeholders of the English one', () => {
  const keys = Object.keys(errorMessages.en).sort();
  for (const language of LANGUAGES) {
    const catalog = errorMessages[language] as Record<string, string>;
    assert.deepEqual(Object.keys(catalog).sort(), keys, `${language} has every key, and no other`);
    for (const key of keys) {
      assert.ok(catalog[key]!.trim() !== '', `${language} ${key} is empty`);
      assert.deepEqual(
        placeholdersOf(catalog[key]!).sort(),
        placeholdersOf((errorMessages.en as Record<string, string>)[key]!).sort(),
        `${language} ${key}`,
      );
    }
  }
});

test('said gives the English text with its key; saidOf reads a rule’s English text back into key and parameters', () => {
  assert.deepEqual(said('error.payment.overBalance', { balance: '87.90', currency: 'EUR' }), {
    text: 'Is more than the balance of 87.90 EUR.',
    key: 'error.payment.overBalance',
    params: { balance: '87.90', currency: 'EUR' },
  });
  assert.deepEqual(saidOf('Has 20 characters; an IBAN has 21.'), {
    text: 'Has 20 characters; an IBAN has 21.',
    key: 'error.iban.length',
    params: { length: '20', wanted: '21' },
  });
  assert.equal(saidOf('Not a message of the catalog.'), 'Not a message of the catalog.');
  // Every refusal of the tax-id rule is in the catalog, so it reaches the hub in the reader's language.
  const refused = [
    '123',
    '12345678901',
    '12345678902',
    'DE123',
    ...'0123456789'.split('').map((d) => `DE12345678${d}`),
    ' ',
  ]
    .map((text) => validateTaxId(text, 'HR'))
    .flatMap((result) => (result.ok ? [] : [result.message]));
  assert.ok(new Set(refused).size >= 4, 'each kind of refusal is tried');
  for (const message of refused) assert.equal(typeof saidOf(message), 'object', message);
});
