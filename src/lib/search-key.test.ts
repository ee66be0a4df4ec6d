// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { searchKey } from './search-key.ts';

test('names fold to ASCII words separated by one space', () => {
  assert.equal(searchKey('  Ana  Kovač '), 'ana kovac');
  assert.equal(searchKey('Đurđa Šimić-Straße'), 'durda simic strasse');
  assert.equal(searchKey('Boje d.o.o.'), 'boje d o o');
  assert.equal(searchKey('!!!'), '');
});
