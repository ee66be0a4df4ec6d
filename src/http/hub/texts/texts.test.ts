// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LANGUAGES, placeholdersOf } from '../../../modules/i18n/index.ts';
import { HUB_AREAS } from './areas.ts';
import { hubCatalogs, hubTranslator, type HubMessageKey } from './index.ts';

const keys = Object.keys(hubCatalogs.en).sort();

test("the hub's texts: every language has every key, no empty text, and the same placeholders as English", () => {
  for (const language of LANGUAGES) {
    const catalog = hubCatalogs[language];
    assert.deepEqual(Object.keys(catalog).sort(), keys, language);
    for (const key of keys) {
      const text = catalog[key as HubMessageKey];
      assert.ok(text.trim() !== '', `${language} ${key} is empty`);
      assert.deepEqual(
        placeholdersOf(text).sort(),
        placeholdersOf(hubCatalogs.en[key as HubMessageKey]).sort(),
        `${language} ${key}`,
      );
    }
  }
});

test('no hub area redefines a printed label or another area’s key', () => {
  const seen = new Set<string>();
  for (const area of HUB_AREAS)
    for (const key of Object.keys(area.en)) {
      assert.ok(!seen.has(key), `${key} is defined twice`);
      assert.ok(key.startsWith('hub.'), `${key}: the hub's own texts are named hub.*`);
      seen.add(key);
    }
});

test("the hub's translations are the languages they claim, with their letters", () => {
  const all = (language: 'hr' | 'de') => Object.values(hubCatalogs[language]).join(' ');
  for (const letter of 'čćđšž') assert.ok(all('hr').toLowerCase().includes(letter), `hr lacks ${letter}`);
  for (const letter of 'äöüß') assert.ok(all('de').includes(letter), `de lacks ${letter}`);
  assert.equal(
    hubTranslator('de')('hub.team.status.slowed', { count: 12 }),
    'Anmeldung verlangsamt: 12 Fehlversuche in 15 Minuten',
  );
  // The printed labels come through the hub's translator too.
  assert.equal(hubTranslator('de')('status.sale.partially_paid'), 'Teilweise bezahlt');
});
