// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { neutralise, unneutralise } from '../../lib/spreadsheet-text.ts';
import { formatDate, toCsv, type Table } from './table.ts';

const table: Table = {
  title: 't',
  columns: [
    { key: 'name', label: 'Kupac', type: 'text' },
    { key: 'day', label: 'Datum', type: 'date' },
    { key: 'amount', label: 'Iznos', type: 'money' },
  ],
  rows: [
    { name: '=1+1', day: '2026-11-05', amount: -1250 },
    { name: 'Kovač; "obrt"', day: '2026-11-06', amount: 5 },
  ],
};

test('text that a spreadsheet would run is neutralised; numbers never are', () => {
  for (const bad of ['=SUM(A1)', '+385', '-1', '@cmd', '\tx', '\rx']) {
    assert.equal(neutralise(bad), `'${bad}`);
    assert.equal(unneutralise(neutralise(bad)), bad);
  }
  // An apostrophe the writer meant stays.
  assert.equal(unneutralise("'Ana'"), "'Ana'");
  assert.equal(neutralise('Ana'), 'Ana');
  const csv = toCsv(table, 'hr');
  assert.ok(csv.startsWith('\uFEFFKupac;Datum;Iznos\r\n'));
  assert.match(csv, /^'=1\+1;05\.11\.2026\.;-12,50\r$/m);
  assert.match(csv, /^"Kovač; ""obrt""";06\.11\.2026\.;0,05\r$/m);
});

test('each locale writes dates and decimals its own way', () => {
  assert.equal(formatDate('2026-11-26', 'hr'), '26.11.2026.');
  assert.equal(formatDate('2026-11-26', 'de'), '26.11.2026');
  assert.equal(formatDate('2026-11-26', 'en'), '2026-11-26');
  assert.match(toCsv(table, 'en'), /^'=1\+1,2026-11-05,-12\.50\r$/m);
  assert.match(toCsv(table, 'de'), /^'=1\+1;05\.11\.2026;-12,50\r$/m);
});
