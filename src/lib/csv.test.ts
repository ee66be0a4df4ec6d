// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { writeCsv } from './csv.ts';
import { unneutralise } from './spreadsheet-text.ts';

test('the one CSV writer: formulas neutralised in text, numbers untouched, quoting that reads back exactly', () => {
  const hostile = ['=HYPERLINK("http://x","y")', '+385 1', '-20 % Akcija', '@SUM(A1)', '\tTab', '\rCR'];
  const text = [...hostile, 'Kovač; "obrt"', 'line\nbreak', '', "'Ana'"];
  const csv = writeCsv([['name', 'amount'], ...text.map((t) => [t, { number: '-12,50' }]), [null, null]], {
    delimiter: ';',
    bom: true,
  });
  assert.ok(csv.startsWith('\uFEFFname;amount\r\n'));
  assert.ok(csv.endsWith(';\r\n'), 'an empty row is two empty fields');
  // No cell of the file starts a formula, whatever a spreadsheet strips first.
  const read = parse(csv, { bom: true, delimiter: ';', relax_column_count: true }) as string[][];
  for (const [cell] of read.slice(1)) assert.doesNotMatch(cell!, /^[=+\-@\t\r]/, JSON.stringify(cell));
  // …and a number is a number: the minus of −12,50 stays.
  assert.deepEqual(
    read.slice(1, -1).map((r) => r[1]),
    text.map(() => '-12,50'),
  );
  // What the import does: unneutralised, every text reads back as written.
  assert.deepEqual(
    read.slice(1, -1).map((r) => unneutralise(r[0]!)),
    text,
  );
  // The delimiter decides what needs quotes: a comma is plain text in a `;` file, quoted in a `,` file.
  assert.equal(writeCsv([['a,b', 'c;d']], { delimiter: ';', bom: false }), 'a,b;"c;d"\r\n');
  assert.equal(writeCsv([['a,b', 'c;d']], { delimiter: ',', bom: false }), '"a,b",c;d\r\n');
});
