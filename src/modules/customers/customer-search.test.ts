// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifySearch } from './customer-search.ts';
import { nameKey, prefixEnd } from './contact-keys.ts';
import { matchProbes } from './customer-assignment.service.ts';

test('a search text is read once as an e-mail, a phone, a tax id or a name, each a key range', () => {
  const cases: Array<[string, string, string]> = [
    ['Ana@Example.com', 'email_key', 'ana@example.com'],
    ['ana@', 'email_key', 'ana@'],
    ['091 234 5678', 'phone_key', '+385912345678'],
    ['00385 91 234', 'phone_key', '+38591234'],
    ['+49 30', 'phone_key', '+4930'],
    ['HR 2345', 'tax_id_key', '2345'],
    ['DE 123', 'tax_id_key', 'DE123'],
    ['12345678903', 'tax_id_key', '12345678903'],
    // Eleven digits that check as an OIB are a tax id, even starting with 0; other 0… numbers are phones.
    ['01234567896', 'tax_id_key', '01234567896'],
    ['01 555 1000', 'phone_key', '+38515551000'],
    ['Kovačević, A', 'name_key', 'kovacevic a'],
    ['  ', 'name_key', ''],
  ];
  for (const [q, key, from] of cases) {
    const range = classifySearch(q, 'HR');
    assert.deepEqual([range.key, range.from], [key, from], q);
    assert.equal(range.to, from === '' ? null : prefixEnd(from), q);
  }
});

test('a prefix range ends at the next text by code point, and folded names compare by their words', () => {
  assert.equal(prefixEnd('kova'), 'kovb');
  assert.equal(prefixEnd('a\u{10FFFF}'), 'b');
  assert.equal(prefixEnd('\u{10FFFF}'), null);
  assert.equal(prefixEnd('\uD7FF'), '\uE000');
  assert.equal(nameKey('  Đurđević-Kovač,  Ana  d.o.o. '), 'durdevic kovac ana doo');
  for (const name of ['kova', 'kovac ivan', 'kovacevic', 'kovaz'])
    assert.ok(name >= 'kova' && name < prefixEnd('kova')!, name);
  assert.ok(!('kovb' < prefixEnd('kova')!));
});

test('a placeholder is looked for by its e-mail, its phone, its name in both orders and each longer word; nothing else', () => {
  const probes = matchProbes({ name: 'Ivan Horvat', email: 'Ivan@X.hr', phone: '091 234 5678' }, 'HR');
  assert.deepEqual(
    probes.map((p) => [p.key, p.from]),
    [
      ['email_key', 'ivan@x.hr'],
      ['phone_key', '+385912345678'],
      ['name_key', 'ivan horvat'],
      ['name_key', 'horvat ivan'],
      ['name_key', 'ivan'],
      ['name_key', 'horvat'],
    ],
  );
  assert.deepEqual(
    matchProbes({ name: 'Al', email: null, phone: '  ' }, null).map((p) => p.from),
    ['al'],
  );
});
