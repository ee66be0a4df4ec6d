// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rankCustomerMatches, type MatchCandidate } from './customer-matches.ts';
import { nameSimilarity, nameTokens } from './name-similarity.ts';

const directory: MatchCandidate[] = [
  { id: 'cus_1', name: 'Ivan Horvat', email: 'ivan.horvat@example.hr', phone: '+385 91 234 5678', taxId: null },
  { id: 'cus_2', name: 'Marko Horvat', email: null, phone: null, taxId: null },
  { id: 'cus_3', name: 'Ana Kovačević', email: 'ana@kovacevic.hr', phone: '01 555 1234', taxId: '18683136487' },
  { id: 'cus_4', name: 'Boje i Lakovi d.o.o.', email: 'ured@boje.hr', phone: null, taxId: 'HR85821130368' },
  { id: 'cus_5', name: 'Petra Babić', email: null, phone: '091 234 5678', taxId: null },
  { id: 'cus_6', name: 'Horvat', email: null, phone: null, taxId: null },
];

const rank = (placeholder: Parameters<typeof rankCustomerMatches>[0]) =>
  rankCustomerMatches(placeholder, directory, { defaultCountry: 'HR' }).map((m) => [m.customer.id, m.reasons]);

test('diacritics, case, order and legal forms do not hide a name', () => {
  assert.deepEqual(nameTokens('  KOVAČEVIĆ, Ana '), ['kovacevic', 'ana']);
  assert.deepEqual(nameTokens('Đurđa Šimić-Žužić'), ['durda', 'simic', 'zuzic']);
  assert.deepEqual(nameTokens('Boje i Lakovi d.o.o.'), ['boje', 'i', 'lakovi']);
  assert.deepEqual(nameTokens('Straße & Söhne GmbH'), ['strasse', 'sohne']);
  assert.equal(nameSimilarity('Ana Kovacevic', 'Ana Kovačević'), 1);
  assert.equal(nameSimilarity('Kovačević Ana', 'ana kovacevic'), 1);
  assert.equal(nameSimilarity('BOJE I LAKOVI', 'Boje i Lakovi d.o.o.'), 1);
  assert.equal(nameSimilarity('Ivan Horvath', 'Ivan Horvat'), 1);
  assert.equal(nameSimilarity('Ivana Horvat', 'Ivan Horvat'), 0.5);
  assert.equal(nameSimilarity('Ivan Horvat', 'Petra Babić'), 0);
  assert.equal(nameSimilarity('d.o.o.', 'Ivan Horvat'), 0);
});

test('a tax id outranks an e-mail, an e-mail a phone, a phone a name', () => {
  const matches = rankCustomerMatches(
    { name: 'Ivan Horvat', email: 'IVAN.HORVAT@example.hr ', phone: '091 234 5678', taxId: 'HR 186 831 364 87' },
    directory,
    { defaultCountry: 'HR' },
  );
  assert.deepEqual(
    matches.map((m) => [m.customer.id, m.reasons, m.score]),
    [
      ['cus_3', ['same_tax_id'], 100],
      ['cus_1', ['same_email', 'same_phone', 'similar_name'], 90],
      ['cus_5', ['same_phone'], 30],
      ['cus_6', ['similar_name'], 13.33],
    ],
  );
});

test('Kovacevic typed without diacritics finds Kovačević by name alone', () => {
  assert.deepEqual(rank({ name: 'ana kovacevic' }), [['cus_3', ['similar_name']]]);
});

test('one shared surname of two-word names is not a suggestion; against a one-word name it is', () => {
  // Josip Horvat vs Ivan/Marko Horvat: 2 × 1 / 4 = 0.5; vs the customer named just "Horvat": 2 × 1 / 3.
  assert.deepEqual(rank({ name: 'Josip Horvat' }), [['cus_6', ['similar_name']]]);
  assert.deepEqual(rank({ name: 'Horvat' }), [
    ['cus_6', ['similar_name']],
    ['cus_1', ['similar_name']],
    ['cus_2', ['similar_name']],
  ]);
});

test('the same phone written another way, and the Croatian VAT id against a bare OIB, match', () => {
  assert.deepEqual(rank({ name: 'P. B.', phone: '00385 91 234 5678' }), [
    ['cus_1', ['same_phone']],
    ['cus_5', ['same_phone']],
  ]);
  assert.deepEqual(rank({ name: 'Boje', taxId: '85821130368' }), [['cus_4', ['same_tax_id']]]);
  assert.deepEqual(rank({ name: 'Nobody', phone: '(01) 555-1234' }), [['cus_3', ['same_phone']]]);
});

test('empty identifiers never match each other', () => {
  assert.deepEqual(rank({ name: 'Nobody Known', email: '', phone: ' ', taxId: null }), []);
});

test('limit keeps the best', () => {
  const top = rankCustomerMatches({ name: 'Horvat' }, directory, { limit: 1 });
  assert.deepEqual(
    top.map((m) => m.customer.id),
    ['cus_6'],
  );
});
