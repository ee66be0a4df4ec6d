// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkGtin, gtinCheckDigit, gtinSpellings } from './gtin.ts';

// Published codes: STABILO BOSS (EAN-13), GS1's own EAN-13 example, the EAN-8 and UPC-A
// examples of the standards' illustrations, an ISBN-13 book (The Mythical Man-Month), and
// GS1's GTIN-14 example of a case.
const REAL = {
  ean13: '4006381333931',
  ean13Gs1: '5901234123457',
  ean8: '96385074',
  upcA: '036000291452',
  isbn13: '9780201379624',
  gtin14: '10012345678902',
};

test('published GTINs of every accepted length pass, with separators dropped', () => {
  for (const code of Object.values(REAL)) assert.deepEqual(checkGtin(code), { ok: true, value: code });
  assert.deepEqual(checkGtin(' 4 006381 333931 '), { ok: true, value: REAL.ean13 });
  assert.deepEqual(checkGtin('9780-2013-7962-4'), { ok: true, value: REAL.isbn13 });
});

test('every single-digit typo of an EAN-13 is refused, naming the check digit it should have', () => {
  for (let i = 0; i < REAL.ean13.length; i++) {
    for (const d of '0123456789') {
      if (d === REAL.ean13[i]) continue;
      const typo = REAL.ean13.slice(0, i) + d + REAL.ean13.slice(i + 1);
      const checked = checkGtin(typo);
      assert.equal(checked.ok, false, typo);
      assert.equal(!checked.ok && checked.reason, 'check', typo);
    }
  }
  assert.deepEqual(checkGtin('4006381333932'), { ok: false, reason: 'check', expected: 1 });
});

test('other lengths and letters are not a GTIN', () => {
  for (const text of ['', '1234567', '123456789', '12345678901', '123456789012345', '400638133393X', 'ABC-123'])
    assert.deepEqual(checkGtin(text), { ok: false, reason: 'form' }, text);
});

test('the check digit is weighted 3, 1 from the right whatever the length', () => {
  assert.equal(gtinCheckDigit('400638133393'), 1);
  assert.equal(gtinCheckDigit('9638507'), 4);
  assert.equal(gtinCheckDigit('03600029145'), 2);
  assert.equal(gtinCheckDigit('0' + '03600029145'), 2);
});

test('a UPC-A and the EAN-13 a European scanner reads from it are spellings of one GTIN', () => {
  assert.deepEqual(gtinSpellings(REAL.upcA), ['036000291452', '0036000291452', '00036000291452']);
  assert.ok(gtinSpellings('0036000291452').includes(REAL.upcA));
  assert.deepEqual(gtinSpellings(REAL.ean8), ['96385074', '000096385074', '0000096385074', '00000096385074']);
  assert.deepEqual(gtinSpellings(REAL.gtin14), [REAL.gtin14]);
});
