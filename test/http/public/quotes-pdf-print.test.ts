// test-engines: sqlite
import { after, before, test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { bearer, createTenant, createTestApp, type TestApp } from '../../support/test-app.ts';
import { QUOTES, line, pdfPageCount, pdfText, postQuote } from '../../support/quote-helpers.ts';
import { decodeQrWithZbar, decodeWithZxing } from '../../support/barcode-decoder.ts';
import { documentReference } from '../../../src/modules/documents/index.ts';
import type { DemoCompany } from '../../../src/modules/demo/index.ts';

describe('quotes pdf print', () => {
  const run = promisify(execFile);

  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const patchSettings = (d: DemoCompany, payload: object) =>
    t.app.inject({ method: 'PATCH', url: '/api/v1/admin/settings', headers: bearer(d.adminToken), payload });

  async function quoteJsonAndPdf(d: DemoCompany, body: object): Promise<{ json: any; pdf: Buffer }> {
    const key = d.locations[0]!.apiKey;
    const res = await postQuote(t.app, key, { format: 'json', customer: { name: 'Ana Horvat' }, ...body });
    assert.equal(res.statusCode, 201, res.body);
    const json = res.json().data;
    const pdf = await t.app.inject({ method: 'GET', url: `${QUOTES}/${json.id}?format=pdf`, headers: bearer(key) });
    assert.equal(pdf.statusCode, 200, pdf.body);
    return { json, pdf: pdf.rawPayload };
  }

  /** One page of a PDF as a PNG, the way a phone's camera would see a printed page (pdftoppm). */
  async function pagePng(
    pdf: Buffer,
    page: number,
    dpi: number,
  ): Promise<{ png: Buffer; file: string; cleanup: () => Promise<void> }> {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'portico-page-'));
    await fs.writeFile(path.join(dir, 'doc.pdf'), pdf);
    await run(
      'pdftoppm',
      [
        '-png',
        '-r',
        String(dpi),
        '-f',
        String(page),
        '-l',
        String(page),
        '-singlefile',
        path.join(dir, 'doc.pdf'),
        path.join(dir, 'page'),
      ],
      { timeout: 30_000 },
    );
    const file = path.join(dir, 'page.png');
    return { png: await fs.readFile(file), file, cleanup: () => fs.rm(dir, { recursive: true, force: true }) };
  }

  test("a Croatian print: labels from the catalog, the template's placeholders filled, and both payment codes decode to the exact total and number", async () => {
    const d = await createTenant(t.c);
    const { json, pdf } = await quoteJsonAndPdf(d, { lines: [line(d, 1, 2), line(d, 6, 1), line(d, 4, 3)] });
    const text = await pdfText(pdf);
    for (const label of [
      'Ponuda ' + json.number,
      'Datum izdavanja',
      'Vrijedi do',
      'Kupac',
      'Cijena',
      'PDV %',
      'Ukupno bez PDV-a',
      'PDV 25 % na osnovicu',
      'PDV 5 % na osnovicu',
      'Ukupno PDV',
      'Ukupno (EUR)',
      'Upute za plaćanje',
      'Stranica 1 od 1',
      'Primatelj: Boje i željezarija Šišić d.o.o.',
      'IBAN: HR12 1001 0051 8630 0016 0',
    ]) {
      assert.ok(text.includes(label), `${label} in: ${text}`);
    }
    for (const english of ['Quotation', 'Unit price', 'Total tax', 'Page 1', 'Customer'])
      assert.ok(!text.includes(english), `no English "${english}"`);
    const total = json.totals.withTax.replace('.', ',');
    const reference = documentReference(json.number, 'HR00');
    // Issue 20: the template's "poziv na broj" is the reference the HUB-3 barcode carries.
    assert.ok(text.includes(`poziv na broj: HR00 ${reference}. Iznos ${total} €, rok plaćanja: `), text);
    assert.ok(!/\{(number|total|dueDate|customerName|reference)\}/.test(text), 'every placeholder is filled');
    assert.ok(text.includes(`Poziv na broj: HR00 ${reference}`), text);

    const page = await pagePng(pdf, 1, 200);
    try {
      const found = await decodeWithZxing(page.png, ['QRCode', 'PDF417']);
      const qr = found.find((b) => b.format === 'QRCode');
      const slip = found.find((b) => b.format === 'PDF417');
      assert.ok(qr && slip, `both codes on the page: ${JSON.stringify(found.map((b) => b.format))}`);
      const amountCents = Math.round(Number(json.totals.withTax) * 100);
      // EPC069-12: IBAN, amount, the number as reference (remittance text), the recipient.
      const epc = qr.text.split('\n');
      assert.deepEqual(
        [epc[0], epc[3], epc[4], epc[5], epc[6], epc[7]],
        [
          'BCD',
          'SCT',
          'ZABAHR2X',
          'Boje i željezarija Šišić d.o.o.',
          'HR1210010051863000160',
          `EUR${json.totals.withTax}`,
        ],
      );
      assert.equal(epc[10], `Uplata: Ponuda ${json.number}`);
      const [zbar] = await decodeQrWithZbar(page.file);
      assert.equal(zbar, qr.text, 'zbar reads the same QR code');
      // HUB-3: the fourteen fields.
      const hub3 = slip.text.split('\n');
      assert.equal(hub3[0], 'HRVHUB30');
      assert.equal(hub3[2], String(amountCents).padStart(15, '0'));
      assert.deepEqual([hub3[6], hub3[7], hub3[8]], ['Boje i željezarija Šišić', 'Ilica 242', '10000 Zagreb']);
      assert.deepEqual([hub3[9], hub3[10], hub3[11]], ['HR1210010051863000160', 'HR00', reference]);
      assert.ok(hub3[13]!.includes(json.number), hub3[13]);
    } finally {
      await page.cleanup();
    }
  });

  test("the company's locale picks the labels: German and English prints, dates and money in the same locale", async () => {
    const d = await createTenant(t.c);
    assert.equal((await patchSettings(d, { locale: 'de-DE' })).statusCode, 200);
    const de = await pdfText((await quoteJsonAndPdf(d, { lines: [line(d, 1, 1)] })).pdf);
    for (const label of [
      'Angebot Q-',
      'Ausgestellt am',
      'Gültig bis',
      'Einzelpreis',
      'USt. 25 % auf 34,90 €',
      'Gesamtbetrag (EUR)',
      'Seite 1 von 1',
      'Zahlungshinweise',
      'Empfänger',
    ]) {
      assert.ok(de.includes(label), `${label} in: ${de}`);
    }
    assert.match(de, /\d{2}\.\d{2}\.\d{4}/);
    assert.equal((await patchSettings(d, { locale: 'en-GB' })).statusCode, 200);
    const en = await pdfText((await quoteJsonAndPdf(d, { lines: [line(d, 1, 1)] })).pdf);
    for (const label of [
      'Quotation Q-',
      'Issued',
      'Valid until',
      'Unit price',
      'Tax 25% on €34.90',
      'Total (EUR)',
      'Page 1 of 1',
      'Payment instructions',
      'Recipient',
    ]) {
      assert.ok(en.includes(label), `${label} in: ${en}`);
    }
    assert.equal((await patchSettings(d, { bankAccount: null })).statusCode, 200);
    const without = await quoteJsonAndPdf(d, { lines: [line(d, 1, 1)] });
    assert.ok(!(await pdfText(without.pdf)).includes('Recipient'), 'no payment block without a bank account');
    const page = await pagePng(without.pdf, 1, 100);
    try {
      assert.deepEqual(await decodeWithZxing(page.png, ['QRCode', 'PDF417']), []);
    } finally {
      await page.cleanup();
    }
  });

  test('page numbers count the appended datasheet pages', async () => {
    const d = await createTenant(t.c);
    const { pdf } = await quoteJsonAndPdf(d, { includeDatasheets: true, lines: [line(d, 0, 1), line(d, 1, 1)] });
    const pages = await pdfPageCount(pdf);
    assert.ok(pages >= 2, `${pages} pages`);
    for (let page = 1; page <= pages; page++) {
      assert.ok((await pdfText(pdf, page)).includes(`Stranica ${page} od ${pages}`), `page ${page} of ${pages}`);
    }
    assert.ok((await pdfText(pdf, pages)).includes('BZD-075-OR'), 'the last page is the datasheet');
  });

  test('totals, tax summary, payment instructions and codes stay with the last lines, wherever the lines end', async () => {
    const d = await createTenant(t.c);
    let moved = 0;
    for (let n = 24; n <= 44; n++) {
      const lines = Array.from({ length: n }, (_, i) => line(d, i % 6, 1, { note: `L-${i + 1}-end` }));
      const { pdf } = await quoteJsonAndPdf(d, { lines });
      const pages = await pdfPageCount(pdf);
      const texts = await Promise.all(Array.from({ length: pages }, (_, i) => pdfText(pdf, i + 1)));
      const closing = texts.findIndex((text) => text.includes('Ukupno (EUR)'));
      assert.ok(closing >= 0);
      const page = texts[closing]!;
      for (const part of [`L-${n}-end`, 'Upute za plaćanje', 'Za plaćanje skenirajte kod', 'Ukupno PDV']) {
        assert.ok(page.includes(part), `${n} lines: "${part}" on the totals' page ${closing + 1} of ${pages}`);
      }
      assert.ok(page.includes('Cijena'), `${n} lines: the table header heads the moved lines`);
      if (closing > 0 && !page.includes('L-1-end')) moved++;
      // Every line printed exactly once.
      const all = texts.join('\n');
      for (let i = 1; i <= n; i++) assert.equal(all.split(`L-${i}-end`).length - 1, 1, `${n} lines: L-${i}-end once`);
    }
    assert.ok(moved > 0, 'some line counts put the totals on the next page, with the last lines');
  });
});
