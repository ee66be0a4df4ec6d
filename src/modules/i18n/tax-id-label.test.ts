// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { translate } from './catalog.ts';
import { taxIdLabel } from './tax-id-label.ts';

test("a tax id is labelled as its country names it, in every reader's language", () => {
  assert.equal(translate('de', taxIdLabel('HR')), 'OIB', 'a German reader sees a Croatian OIB called OIB');
  assert.equal(translate('en', taxIdLabel('hr')), 'OIB');
  assert.equal(translate('hr', taxIdLabel('DE')), 'USt-IdNr.');
  assert.equal(translate('en', taxIdLabel('AT')), 'VAT number');
  assert.equal(translate('hr', taxIdLabel('AT')), 'PDV identifikacijski broj');
  // Without a country the id may be an OIB: a German reader sees the neutral word, never "USt-IdNr.".
  assert.equal(translate('de', taxIdLabel(null)), 'Steuer-ID');
  assert.equal(translate('hr', taxIdLabel('')), 'OIB');
});
