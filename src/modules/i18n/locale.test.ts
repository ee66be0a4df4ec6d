// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  canonicalLocaleTag,
  checkLocaleTag,
  isSupportedLocaleTag,
  negotiateLanguage,
  resolveLanguage,
} from './locale.ts';

test('a tag resolves to the catalog of its language; anything else to English', () => {
  assert.equal(resolveLanguage('hr-HR'), 'hr');
  assert.equal(resolveLanguage('hr'), 'hr');
  assert.equal(resolveLanguage('de-AT'), 'de');
  assert.equal(resolveLanguage('DE-ch'), 'de');
  assert.equal(resolveLanguage('en-GB'), 'en');
  assert.equal(resolveLanguage('sl-SI'), 'en');
  assert.equal(resolveLanguage('en_US'), 'en');
  assert.equal(resolveLanguage(''), 'en');
  assert.equal(resolveLanguage(null), 'en');
});

test('settings accept a well-formed tag whose language has a catalog, in canonical spelling', () => {
  assert.deepEqual(checkLocaleTag('hr-HR'), { ok: true, tag: 'hr-HR', language: 'hr' });
  assert.deepEqual(checkLocaleTag(' hr-hr '), { ok: true, tag: 'hr-HR', language: 'hr' });
  assert.deepEqual(checkLocaleTag('de-AT'), { ok: true, tag: 'de-AT', language: 'de' });
  assert.deepEqual(checkLocaleTag('en'), { ok: true, tag: 'en', language: 'en' });
  const slovenian = checkLocaleTag('sl-SI');
  assert.equal(slovenian.ok, false);
  assert.match(!slovenian.ok ? slovenian.message : '', /No messages in "sl"/);
  assert.match(!checkLocaleTag('hr_HR').ok ? (checkLocaleTag('hr_HR') as { message: string }).message : '', /BCP 47/);
  assert.equal(isSupportedLocaleTag('x'), false);
  assert.equal(isSupportedLocaleTag('de-DE'), true);
  assert.equal(canonicalLocaleTag('zh-hant-tw'), 'zh-Hant-TW');
  assert.equal(canonicalLocaleTag('not a tag'), null);
});

test("the hub picks the browser's best language that has a catalog, else the company's", () => {
  assert.equal(negotiateLanguage('de-AT,de;q=0.9,en;q=0.8', 'hr'), 'de');
  assert.equal(negotiateLanguage('sl-SI,sl;q=0.9,en;q=0.5,hr;q=0.7', 'de'), 'hr');
  assert.equal(negotiateLanguage('en;q=0.2, hr;q=0.8', 'de'), 'hr');
  assert.equal(negotiateLanguage('fr-FR,*;q=0.5', 'hr'), 'hr');
  assert.equal(negotiateLanguage('de;q=0', 'hr'), 'hr');
  assert.equal(negotiateLanguage(undefined, 'de'), 'de');
  assert.equal(negotiateLanguage('garbage;;,,', 'en'), 'en');
});
