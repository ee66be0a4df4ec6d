// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emailKey, phoneKey, phoneSearch } from './contact-keys.ts';

test('one Croatian mobile number written three ways has one key', () => {
  const keys = ['+385 91 234 5678', '00385912345678', '091 234 5678', '091/234-5678', '(091) 234 5678'].map((p) =>
    phoneKey(p, 'HR'),
  );
  assert.deepEqual(new Set(keys), new Set(['+385912345678']));
});

test('the default country decides what a national number means', () => {
  assert.equal(phoneKey('030 1234567', 'DE'), '+49301234567');
  assert.equal(phoneKey('030 1234567', 'HR'), '+385301234567');
  assert.equal(phoneKey('0049 30 1234567', 'HR'), '+49301234567');
  assert.equal(phoneKey('+49 30 1234567', null), '+49301234567');
  // Without a default country a national number cannot be placed: its digits are the key.
  assert.equal(phoneKey('091 234 5678', null), '0912345678');
  assert.equal(phoneKey('091 234 5678', 'XX'), '0912345678');
});

test('text that is not a possible number keeps its digits; too little is no key', () => {
  assert.equal(phoneKey('+385 1', 'HR'), '+3851');
  assert.equal(phoneKey('12', 'HR'), null);
  assert.equal(phoneKey('ext. 12', 'HR'), null);
});

test('a partly typed number searches by the start of the key', () => {
  assert.deepEqual(phoneSearch('091 23', 'HR'), { prefix: '+3859123' });
  assert.deepEqual(phoneSearch('+385 91', 'HR'), { prefix: '+38591' });
  assert.deepEqual(phoneSearch('00385 91', 'HR'), { prefix: '+38591' });
  assert.deepEqual(phoneSearch('091 234 5678', 'HR'), { prefix: '+385912345678' });
  assert.deepEqual(phoneSearch('2345', 'HR'), { digits: '2345' });
  assert.equal(phoneSearch('Horvat', 'HR'), null);
  assert.equal(phoneSearch('12', 'HR'), null);
});

test('e-mail keys are trimmed and lower-cased', () => {
  assert.equal(emailKey('  Ana.Kovac@Example.COM '), 'ana.kovac@example.com');
  assert.equal(emailKey('ivan@example.hr'), emailKey('IVAN@EXAMPLE.HR'));
});
