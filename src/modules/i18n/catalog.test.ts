// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { catalogs, LANGUAGES, placeholdersOf, translate, translator, type Catalog } from './catalog.ts';

const keys = Object.keys(catalogs.en).sort();

test('every language has every key, no empty text, and the same placeholders as English', () => {
  for (const language of LANGUAGES) {
    const catalog = catalogs[language];
    assert.deepEqual(Object.keys(catalog).sort(), keys, language);
    for (const key of keys) {
      const text = catalog[key as keyof Catalog];
      assert.ok(text.trim() !== '', `${language} ${key} is empty`);
      assert.deepEqual(
        placeholdersOf(text).sort(),
        placeholdersOf(catalogs.en[key as keyof Catalog]).sort(),
        `${language} ${key}`,
      );
    }
  }
});

test('the translations are the languages they claim, with their letters', () => {
  const all = (language: 'hr' | 'de') => Object.values(catalogs[language]).join(' ');
  for (const letter of 'čćđšž') assert.ok(all('hr').toLowerCase().includes(letter), `hr lacks ${letter}`);
  for (const letter of 'äöüß') assert.ok(all('de').includes(letter), `de lacks ${letter}`);
  // Words that differ in every language must not be left in English.
  for (const key of [
    'document.quotation',
    'print.validUntil',
    'print.page',
    'print.total',
    'status.sale.partially_paid',
    'action.convert',
  ] as const) {
    assert.notEqual(catalogs.hr[key], catalogs.en[key], `hr ${key}`);
    assert.notEqual(catalogs.de[key], catalogs.en[key], `de ${key}`);
  }
});

test("placeholders are filled, numbers in the language's format", () => {
  assert.equal(translate('hr', 'print.page', { page: 1, pages: 12 }), 'Stranica 1 od 12');
  assert.equal(translate('de', 'print.page', { page: 2, pages: 2 }), 'Seite 2 von 2');
  assert.equal(translate('en', 'print.taxOnBase', { rate: '25%', base: '€124.20' }), 'Tax 25% on €124.20');
  assert.equal(translate('hr', 'print.taxOnBase', { rate: '25 %', base: '124,20 €' }), 'PDV 25 % na osnovicu 124,20 €');
  assert.equal(translate('de', 'print.page', { page: 1234, pages: 5678 }), 'Seite 1.234 von 5.678');
  assert.equal(
    translate('hr', 'print.payment.referenceWithModel', { model: 'HR00', reference: '2635161-2026-00042' }),
    'Poziv na broj: HR00 2635161-2026-00042',
  );
  const t = translator('de');
  assert.equal(
    t('document.titleWithNumber', { title: t('document.quotation'), number: 'Q-ZG1-2026-00042' }),
    'Angebot Q-ZG1-2026-00042',
  );
  assert.equal(t('status.sale.partially_paid'), 'Teilweise bezahlt');
});

test('a placeholder without a value is an error, never printed as {name}', () => {
  const untyped = translate as (language: string, key: string, params?: object) => string;
  assert.throws(() => untyped('hr', 'print.page', { page: 1 }), /needs \{pages\}/);
  assert.throws(() => untyped('en', 'print.total'), /needs \{currency\}/);
});

test('the types refuse a missing key, a missing placeholder and an unknown key', () => {
  // These lines are checked by `npm run typecheck`: each must be an error.
  // @ts-expect-error a catalog without every key
  const partial: Catalog = { 'nav.today': 'Danas' };
  // @ts-expect-error {pages} is missing
  const missing = () => translate('hr', 'print.page', { page: 1 });
  // @ts-expect-error no such key
  const unknown = () => translate('hr', 'print.nothing');
  // @ts-expect-error this message has no placeholders to fill
  const extra = () => translate('hr', 'nav.today', { x: 1 });
  assert.deepEqual(
    [typeof partial, typeof missing, typeof unknown, typeof extra],
    ['object', 'function', 'function', 'function'],
  );
});
