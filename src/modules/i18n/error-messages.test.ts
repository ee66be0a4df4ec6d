// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseOrigin } from '../api-keys/browser-origins.ts';
import { parseCatalogCsv } from '../catalog/catalog-csv.ts';
import { validateTaxId } from '../customers/tax-id.ts';
import { readPkcs12 } from '../fiscal/certificate.ts';
import { checkTargetUrl } from '../webhooks/target-guard.ts';
import { AppError, NOT_FOUND, type NotFoundThing } from '../../lib/errors.ts';
import { LANGUAGES, placeholdersOf, translatorFor } from './catalog.ts';
import { errorCatalogs as errorMessages, said, saidOf, type ErrorSource } from './error-messages.ts';

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
  assert.deepEqual(said('error.payment.overBalance', { balance: 87.9, currency: 'EUR' }), {
    text: 'Is more than the balance of 87.90 EUR.',
    key: 'error.payment.overBalance',
    params: { balance: 87.9, currency: 'EUR' },
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

test("an amount is written the reader's way: {balance:money} with two decimals in hr, de and en", () => {
  const t = translatorFor<ErrorSource>(errorMessages);
  const params = { balance: 1234.5, currency: 'EUR' };
  assert.equal(t('hr')('error.payment.overBalance', params), 'Veće je od preostalog iznosa od 1.234,50 EUR.');
  assert.equal(t('de')('error.payment.overBalance', params), 'Ist mehr als der offene Betrag von 1.234,50 EUR.');
  assert.equal(t('en')('error.payment.overBalance', params), 'Is more than the balance of 1,234.50 EUR.');
  assert.equal(
    t('hr')('error.credit.moreThanLeft', { position: 2, product: 'Boja', left: 1.5 }).endsWith(': 1,5.'),
    true,
  );
  // Read back from its English text, the key is found through the money placeholder too.
  assert.deepEqual(saidOf('Is more than the balance of 87.90 EUR.'), {
    text: 'Is more than the balance of 87.90 EUR.',
    key: 'error.payment.overBalance',
    params: { balance: '87.90', currency: 'EUR' },
  });
});

test('"not found" is said by key for every thing a service may not find, its English text unchanged', () => {
  const en = errorMessages.en as Record<string, string>;
  for (const what of Object.keys(NOT_FOUND) as NotFoundThing[]) {
    const error = AppError.notFound(what);
    assert.equal(error.message, `${what} not found.`);
    assert.equal(en[error.messageKey!.key], error.message, `${error.messageKey!.key} in the catalog`);
    for (const language of LANGUAGES)
      assert.ok((errorMessages[language] as Record<string, string>)[error.messageKey!.key], `${language} ${what}`);
  }
  assert.equal(translatorFor<ErrorSource>(errorMessages)('hr')('error.notFound.quotation'), 'Ponuda nije pronađena.');
});

test('the rules that return English text (origins, webhook targets, certificates, CSV imports) are read back by key', () => {
  const texts: string[] = [];
  for (const origin of ['nonsense', 'ftp://shop.example.com', 'https://shop.example.com/path', 'https://*.example.com'])
    texts.push((normaliseOrigin(origin) as { error: string }).error);
  for (const url of [
    'nonsense',
    'ftp://example.com',
    'http://example.com',
    'https://u:p@example.com',
    'https://127.0.0.1/',
  ])
    texts.push(checkTargetUrl(url, false)!);
  try {
    readPkcs12(Buffer.from('not a certificate'), 'secret');
  } catch (error) {
    texts.push((error as Error).message);
  }
  const header = 'sku,name,tax_rate,unit,price';
  for (const csv of ['', `${header},colour,sku\n`, `${header}\n`, `${header}\nA-1,Boja,25\n`])
    texts.push(...parseCatalogCsv(csv).errors.map((e) => e.message));
  assert.ok(texts.length >= 13, texts.join('\n'));
  for (const text of texts) assert.equal(typeof saidOf(text), 'object', `"${text}" is in the catalog`);
});

test('a refusal with no message of its own says "The request is invalid." by key', () => {
  const error = AppError.invalid({ name: [said('error.required')] });
  assert.equal(error.message, 'The request is invalid.');
  assert.deepEqual(error.messageKey, { key: 'error.request.invalid', params: {} });
  assert.equal((errorMessages.en as Record<string, string>)['error.request.invalid'], error.message);
});
