import assert from 'node:assert/strict';

/** What a banking app reads from a payment code, field by field: shared by the payload's tests and the image's. */

const FIELDS = [
  'header',
  'currency',
  'amount',
  'payerName',
  'payerStreet',
  'payerPlace',
  'recipientName',
  'recipientStreet',
  'recipientPlace',
  'iban',
  'model',
  'reference',
  'purpose',
  'description',
] as const;

/** The fourteen fields by position, as a banking app reads them; every field ends with a line feed. */
export function readHub3(text: string): Record<(typeof FIELDS)[number], string> {
  assert.ok(text.endsWith('\n'), 'the last field ends with a line feed too');
  const values = text.slice(0, -1).split('\n');
  assert.equal(values.length, 14);
  return Object.fromEntries(FIELDS.map((name, i) => [name, values[i]!])) as Record<(typeof FIELDS)[number], string>;
}

/** What a banking app reads from the code: the guideline's elements by position. */
export function readEpc(text: string) {
  const e = text.split('\n');
  return {
    tag: e[0],
    version: e[1],
    charset: e[2],
    id: e[3],
    bic: e[4],
    name: e[5],
    iban: e[6],
    amount: e[7],
    purpose: e[8],
    reference: e[9],
    text: e[10],
    info: e[11],
    count: e.length,
  };
}
