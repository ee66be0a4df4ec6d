// test-engines: both
import { after, before, test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { bearer, createTenant, createTestApp, type TestApp } from '../../support/test-app.ts';
import {
  QUOTES,
  isPdf,
  line,
  pdfPageCount,
  pdfText,
  postQuote,
  qpdfCheck,
  seq,
  yearInZagreb,
} from '../../support/quote-helpers.ts';

describe('quotes pdf', () => {
  let t: TestApp;
  // One print thread: the first test below needs to know which PDF its thread printed first.
  before(async () => {
    t = await createTestApp({ PDF_WORKERS: '1' });
  });
  after(() => t.close());

  // Must stay the first test of this file: it needs a process whose first PDF has 'Š' (a composite
  // glyph built on 'S') but no plain 'S'. The renderer shares one parsed font across documents, and
  // fontkit's subsetter caches the component glyph 'S' without its code point, so every later PDF
  // loses 'S' in its text layer (search, copy and screen readers see "Q- T1", "plit", "G B").
  test('the text of a PDF stays extractable after earlier PDFs (shared font cache)', async () => {
    const d = await createTenant(t.c);
    const first = await postQuote(t.app, d.locations[0]!.apiKey, {
      customer: { name: 'Šime' },
      lines: [line(d, 0, 1)],
    });
    assert.equal(first.statusCode, 201, first.body);
    const second = await postQuote(t.app, d.locations[1]!.apiKey, {
      customer: { name: 'Sanja' },
      lines: [line(d, 3, 1)],
    });
    assert.equal(second.statusCode, 201, second.body);
    const text = await pdfText(second.rawPayload);
    for (const expected of [
      String(second.headers['x-quotation-number']),
      'Split – Poljud (ST1)',
      'Sanja',
      'GSB 18V-55',
      'BOS-GSB18',
    ]) {
      assert.ok(text.includes(expected), `PDF text has ${JSON.stringify(expected)}:\n${text}`);
    }
  });

  test('default format is a PDF with the number, customer, notes, totals and payment instructions', async () => {
    const d = await createTenant(t.c);
    const res = await postQuote(t.app, d.locations[0]!.apiKey, {
      customer: { name: 'Željko Šimić' },
      note: 'Dostava u petak',
      lines: [
        line(d, 0, 1.5, { note: 'Colour: RAL 9010 - Reinweiß' }), // 12.40 × 1.5 = 18.60; tax 4.65
        line(d, 1, 2, { lineNote: 'Colour: RAL 7035 - Lichtgrau' }), // 34.90 × 2 = 69.80; tax 17.45
        line(d, 5, 3), // 4.75 × 3 = 14.25; tax 3.5625 → 3.56
      ],
    });
    assert.equal(res.statusCode, 201, res.body);
    const number = `Q-ZG1-${yearInZagreb()}-${seq(1)}`;
    assert.equal(res.headers['content-type'], 'application/pdf');
    assert.equal(res.headers['x-quotation-number'], number);
    assert.match(String(res.headers['x-quotation-id']), /^qt_/);
    assert.equal(res.headers.location, `/api/v1/public/quotes/${String(res.headers['x-quotation-id'])}`);
    assert.match(String(res.headers['content-disposition']), new RegExp(`filename="${number}\\.pdf"`));
    const pdf = res.rawPayload;
    assert.ok(isPdf(pdf));
    assert.equal(Number(res.headers['content-length']), pdf.length);

    const check = await qpdfCheck(pdf);
    assert.equal(check.code, 0, check.output);
    assert.equal(await pdfPageCount(pdf), 1);
    const text = await pdfText(pdf);
    for (const expected of [
      number,
      'Željko Šimić',
      'Dostava u petak',
      'Colour: RAL 9010 - Reinweiß',
      'Colour: RAL 7035 - Lichtgrau',
      'Šišmiš',
      'Žuti čvor',
      'Größe',
      'Dübel',
      'Cijena',
      '18,60',
      '69,80',
      '14,25',
      // net 102.65, tax 25.66, total 128.31 (hr-HR: decimal comma)
      '102,65',
      '25,66',
      '128,31',
      'Ukupno (EUR)',
      'IBAN HR12',
      'Stranica 1 od 1',
    ])
      assert.ok(text.includes(expected), `PDF text has ${JSON.stringify(expected)}:\n${text}`);
  });

  test('a 200-line quote spans several pages and repeats the table header on each', async () => {
    const d = await createTenant(t.c);
    const lines = Array.from({ length: 200 }, (_, i) =>
      line(d, i % 7, (i % 5) + 1, i % 10 === 0 ? { note: `Colour: RAL ${9000 + i} - Ton ${i}` } : {}),
    );
    const res = await postQuote(t.app, d.locations[1]!.apiKey, { customer: { name: 'Veliki kupac' }, lines });
    assert.equal(res.statusCode, 201, res.body);
    const pdf = res.rawPayload;
    const check = await qpdfCheck(pdf);
    assert.equal(check.code, 0, check.output);
    const pages = await pdfPageCount(pdf);
    assert.ok(pages > 1, `pages: ${pages}`);
    for (let page = 1; page <= pages; page++) {
      const text = await pdfText(pdf, page);
      assert.ok(text.includes('Cijena') && text.includes('PDV %'), `table header on page ${page}`);
      assert.ok(text.includes(`Stranica ${page} od ${pages}`), `footer on page ${page}`);
    }
    const all = await pdfText(pdf);
    assert.ok(all.includes('Colour: RAL 9190 - Ton 190'), 'the last note is printed');
    // line 200: products[199 % 7 = 3], quantity 199 % 5 + 1 = 5
    assert.match(all, / 200 Akumulatorska bušilica GSB 18V-55 5 kom /, 'line 200 is printed');
    assert.ok((await pdfText(pdf, pages)).includes('IBAN HR12'), 'payment instructions after the last line');
  });

  test('includeDatasheets appends each datasheet once; a corrupt datasheet never breaks the quote', async () => {
    const d = await createTenant(t.c);
    const key = d.locations[0]!.apiKey;
    // products[0] (with a datasheet) on three lines; products[1] has none.
    const lines = [line(d, 0, 1), line(d, 1, 1), line(d, 0, 2, { note: 'Colour: RAL 9010 - Reinweiß' }), line(d, 0, 3)];
    const sheet = await t.app.inject({
      method: 'GET',
      url: `/api/v1/public/products/${d.products[0]!.id}/datasheet`,
      headers: bearer(key),
    });
    assert.equal(sheet.statusCode, 200);
    const sheetPages = await pdfPageCount(sheet.rawPayload);
    assert.ok(sheetPages >= 1);

    const plain = await postQuote(t.app, key, { customer: { name: 'Ana' }, lines });
    const withSheets = await postQuote(t.app, key, { customer: { name: 'Ana' }, lines, includeDatasheets: true });
    assert.equal(plain.statusCode, 201, plain.body);
    assert.equal(withSheets.statusCode, 201, withSheets.body);
    const basePages = await pdfPageCount(plain.rawPayload);
    assert.equal(await pdfPageCount(withSheets.rawPayload), basePages + sheetPages);
    const check = await qpdfCheck(withSheets.rawPayload);
    assert.equal(check.code, 0, check.output);
    assert.ok(
      (await pdfText(withSheets.rawPayload, basePages + 1)).includes('BZD-075-OR'),
      'the datasheet follows the quote pages',
    );
    assert.ok((await pdfText(withSheets.rawPayload, 1)).includes(String(withSheets.headers['x-quotation-number'])));

    // Corrupt the stored file: the quote is still made, with its own pages only.
    const product = await t.c.store.repos.catalog.findProduct(d.companyId, d.products[0]!.id);
    assert.ok(product?.datasheet_file);
    await fs.writeFile(
      path.join(t.dir, 'datasheets', product.datasheet_file),
      Buffer.from('%PDF-1.7\nthis is not a pdf at all \x00\xff garbage'),
    );
    const corrupt = await postQuote(t.app, key, { customer: { name: 'Ana' }, lines, includeDatasheets: true });
    assert.equal(corrupt.statusCode, 201, corrupt.body);
    assert.equal(corrupt.headers['content-type'], 'application/pdf');
    assert.equal(await pdfPageCount(corrupt.rawPayload), basePages);
    assert.equal((await qpdfCheck(corrupt.rawPayload)).code, 0);
    // Reading the stored quotation back as PDF survives it too.
    const reread = await t.app.inject({
      method: 'GET',
      url: `${QUOTES}/${String(withSheets.headers['x-quotation-id'])}?format=pdf`,
      headers: bearer(key),
    });
    assert.equal(reread.statusCode, 200);
    assert.equal(await pdfPageCount(reread.rawPayload), basePages);
  });

  test('format json with includeDatasheets: lines link a downloadable datasheet', async () => {
    const d = await createTenant(t.c);
    const key = d.locations[0]!.apiKey;
    const res = await postQuote(t.app, key, {
      format: 'json',
      includeDatasheets: true,
      customer: { name: 'Ana' },
      lines: [line(d, 0, 1), line(d, 1, 1)],
    });
    assert.equal(res.statusCode, 201, res.body);
    const [withSheet, without] = res.json().data.lines;
    assert.ok(!('datasheetUrl' in without), 'a product without a datasheet has no link');
    const url = new URL(withSheet.datasheetUrl);
    assert.equal(url.pathname, `/api/v1/public/products/${d.products[0]!.id}/datasheet`);
    const sheet = await t.app.inject({ method: 'GET', url: url.pathname, headers: bearer(key) });
    assert.equal(sheet.statusCode, 200);
    assert.equal(sheet.headers['content-type'], 'application/pdf');
    assert.ok(isPdf(sheet.rawPayload));
    // The link is for the key's company only.
    const other = await createTenant(t.c);
    assert.equal(
      (await t.app.inject({ method: 'GET', url: url.pathname, headers: bearer(other.locations[0]!.apiKey) }))
        .statusCode,
      404,
    );
  });

  test('Idempotency-Key: a replay returns the same quotation and the same PDF bytes; one number consumed', async () => {
    const d = await createTenant(t.c);
    const key = d.locations[0]!.apiKey;
    const body = {
      customer: { name: 'Ana' },
      includeDatasheets: true,
      lines: [line(d, 0, 1.5, { note: 'Colour: RAL 9010 - Reinweiß' }), line(d, 6, 1)],
    };
    const headers = { 'idempotency-key': `quote-${d.companyId}` };
    const first = await postQuote(t.app, key, body, headers);
    const replay = await postQuote(t.app, key, body, headers);
    assert.equal(first.statusCode, 201, first.body);
    assert.equal(replay.statusCode, 201, replay.body);
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.equal(replay.headers['x-quotation-id'], first.headers['x-quotation-id']);
    assert.equal(replay.headers['x-quotation-number'], first.headers['x-quotation-number']);
    assert.ok(replay.rawPayload.equals(first.rawPayload), 'byte-identical PDF');

    const reused = await postQuote(t.app, key, { ...body, note: 'changed' }, headers);
    assert.equal(reused.statusCode, 422, reused.body);

    const next = await postQuote(t.app, key, { ...body, format: 'json' });
    assert.equal(next.json().data.number, `Q-ZG1-${yearInZagreb()}-${seq(2)}`, 'the replay consumed no number');
    assert.equal((await t.c.quotations.list(d.companyId, { limit: 10 })).length, 2);
  });

  test("a Croatian shop's quotation printed in German names its OIB an OIB, its VAT id a USt-IdNr.", async () => {
    const d = await createTenant(t.c);
    const settings = (payload: object) =>
      t.app.inject({ method: 'PATCH', url: '/api/v1/admin/settings', headers: bearer(d.adminToken), payload });
    assert.equal((await settings({ locale: 'de-AT', fiscal: { vatRegistered: true } })).statusCode, 200);
    const res = await postQuote(t.app, d.locations[0]!.apiKey, { customer: { name: 'Kunde' }, lines: [line(d, 0, 1)] });
    assert.equal(res.statusCode, 201, res.body);
    const text = await pdfText(res.rawPayload);
    assert.ok(text.includes('OIB: 12345678903'), text);
    assert.ok(text.includes('USt-IdNr.: HR12345678903'), text);
    assert.ok(!/USt-IdNr\.: 12345678903/.test(text), 'the bare OIB is never called a USt-IdNr.');
  });
});
