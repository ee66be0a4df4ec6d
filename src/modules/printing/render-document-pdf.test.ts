// test-engines: sqlite
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { execFile as execFileCallback } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { inflateSync } from 'node:zlib';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, type PDFRef } from 'pdf-lib';
import pdfmake from 'pdfmake';
import type { PrintDocument } from './print-document.ts';
import { buildDocDefinition, PRINT_FONT_FAMILY, renderDocumentPdf } from './render-document-pdf.ts';
import { appendDatasheets } from './append-datasheets.ts';
import { buildSampleDatasheet } from './sample-datasheet.ts';

describe('render document pdf', () => {
  const execFile = promisify(execFileCallback);

  let dir = '';
  let fileCounter = 0;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'portico-quotation-pdf-'));
  });

  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function toFile(bytes: Buffer): Promise<string> {
    const path = join(dir, `doc-${++fileCounter}.pdf`);
    await writeFile(path, bytes);
    return path;
  }

  /** pdftotext -layout, with no-break spaces normalised to plain spaces. */
  async function pdfText(path: string, page?: number): Promise<string> {
    const range = page === undefined ? [] : ['-f', String(page), '-l', String(page)];
    const { stdout } = await execFile('pdftotext', ['-layout', '-enc', 'UTF-8', ...range, path, '-']);
    return stdout.replace(/[\u00a0\u202f]/g, ' ');
  }

  async function pageCount(path: string): Promise<number> {
    const { stdout } = await execFile('qpdf', ['--show-npages', path]);
    return Number(stdout.trim());
  }

  async function assertQpdfClean(path: string): Promise<void> {
    // execFile rejects on a non-zero exit (2 = errors, 3 = warnings).
    const { stdout, stderr } = await execFile('qpdf', ['--check', path]);
    assert.match(stdout, /No syntax or stream encoding errors found/);
    assert.doesNotMatch(stdout, /WARNING/i);
    assert.equal(stderr.trim(), '');
  }

  function quotation(overrides: Partial<PrintDocument> = {}): PrintDocument {
    return {
      title: 'document.quotation',
      number: 'Q-ZG1-2026-00042',
      issuedAt: '2026-03-01T09:15:00Z',
      issuedLabel: 'print.issued',
      dates: [{ label: 'print.validUntil', at: '2026-03-31T21:59:59Z' }],
      currency: 'EUR',
      locale: 'hr-HR',
      timezone: 'Europe/Zagreb',
      pricesIncludeTax: false,
      company: { name: 'Boje i Lakovi d.o.o.', address: 'Ilica 1, 10000 Zagreb', taxId: 'HR12345678901' },
      template: {
        header: 'Hvala na upitu — vaš tim Boje i Lakovi',
        footer: 'Boje i Lakovi d.o.o. · MBS 080000001 · Trgovački sud u Zagrebu',
        paymentInstructions: 'Uplata na IBAN HR1210010051863000160, poziv na broj Q-ZG1-2026-00042',
      },
      location: { name: 'Zagreb Centar', code: 'ZG1', address: 'Ilica 1' },
      customer: { name: 'Đuro Šimić', email: 'duro.simic@example.com', phone: '+385 91 555 0101' },
      note: 'Dostava u roku od 5 radnih dana. Müller GmbH bitte beachten.',
      lines: [
        {
          position: 1,
          productName: 'Boja za drvo Šišmiš — čćšžđ',
          productCode: 'BZD-0750',
          note: 'Colour: RAL 9010 - Reinweiß',
          quantity: '2',
          unitName: 'L',
          unitPrice: '12.40',
          taxRate: '25',
          amount: '24.80',
        },
        {
          position: 2,
          productName: 'Größe ß äöü',
          productCode: 'GR-ÄÖÜ-1',
          note: 'Zuschnitt nach Maß',
          quantity: '1.5',
          unitName: 'm²',
          unitPrice: '10.00',
          taxRate: '9.5',
          amount: '15.00',
        },
        {
          position: 3,
          productName: 'Četka za lakiranje',
          productCode: null,
          note: null,
          quantity: '3',
          unitName: 'kom',
          unitPrice: '4.20',
          taxRate: '25',
          amount: '12.60',
        },
      ],
      totals: {
        net: '52.40',
        tax: '10.78',
        withTax: '63.18',
        taxes: [
          { rate: '25', base: '37.40', tax: '9.35' },
          { rate: '9.5', base: '15.00', tax: '1.43' },
        ],
      },
      payment: null,
      ...overrides,
    };
  }

  function manyLines(count: number): PrintDocument {
    const lines = Array.from({ length: count }, (_, i) => ({
      position: i + 1,
      productName: `Artikl ${i + 1} Šišmiš`,
      productCode: `SKU-${String(i + 1).padStart(4, '0')}`,
      note: i % 4 === 0 ? `Napomena ${i + 1}: čćšžđ` : null,
      quantity: '1.25',
      unitName: 'm²',
      unitPrice: '8.00',
      taxRate: '25',
      amount: '10.00',
    }));
    return quotation({
      lines,
      totals: {
        net: String(count * 10) + '.00',
        tax: String(count * 2.5),
        withTax: String(count * 12.5),
        taxes: [{ rate: '25', base: String(count * 10), tax: String(count * 2.5) }],
      },
    });
  }

  test('renders a complete quotation with non-ASCII text, totals and payment instructions', async () => {
    const doc = quotation();
    const bytes = await renderDocumentPdf(doc);
    assert.ok(Buffer.isBuffer(bytes));
    assert.equal(bytes.subarray(0, 5).toString('latin1'), '%PDF-');

    const path = await toFile(bytes);
    await assertQpdfClean(path);
    assert.equal(await pageCount(path), 1);

    const text = await pdfText(path);
    for (const expected of [
      'Ponuda Q-ZG1-2026-00042',
      'Boje i Lakovi d.o.o.',
      'HR12345678901',
      'Hvala na upitu — vaš tim Boje i Lakovi',
      'Zagreb Centar (ZG1)',
      'Đuro Šimić',
      'duro.simic@example.com',
      '+385 91 555 0101',
      'Dostava u roku od 5 radnih dana. Müller GmbH bitte beachten.',
      // the non-ASCII product names and units
      'Boja za drvo Šišmiš — čćšžđ',
      'Größe ß äöü',
      'Četka za lakiranje',
      'm²',
      'BZD-0750',
      // every line note
      'Colour: RAL 9010 - Reinweiß',
      'Zuschnitt nach Maß',
      // table header, in the company's language
      'Jed. mj.',
      'Cijena',
      // numbers formatted for hr-HR
      '12,40 €',
      '1,5',
      '9,5 %',
      // totals: net, tax per rate with base, total tax, total with tax
      '52,40 €',
      'PDV 25 % na osnovicu 37,40 €',
      '9,35 €',
      'PDV 9,5 % na osnovicu 15,00 €',
      '1,43 €',
      '10,78 €',
      '63,18 €',
      'Ukupno (EUR)',
      'Upute za plaćanje',
      'Uplata na IBAN HR1210010051863000160, poziv na broj Q-ZG1-2026-00042',
      'Trgovački sud u Zagrebu',
      'Stranica 1 od 1',
    ]) {
      assert.ok(text.includes(expected), `expected ${JSON.stringify(expected)} in:\n${text}`);
    }
    // Dates in the company's time zone and locale: 09:15Z is 10:15 in Zagreb (CET).
    assert.match(text, /01\. 03\. 2026\. 10:15/);
    assert.match(text, /31\. 03\. 2026\./);

    // PDF metadata
    const parsed = await PDFDocument.load(bytes, { updateMetadata: false });
    assert.equal(parsed.getTitle(), 'Ponuda Q-ZG1-2026-00042');
    assert.equal(parsed.getAuthor(), 'Boje i Lakovi d.o.o.');
    assert.equal(parsed.getCreator(), 'Portico');
    assert.match(parsed.getSubject() ?? '', /Q-ZG1-2026-00042/);
    assert.equal(parsed.getCreationDate()?.toISOString(), '2026-03-01T09:15:00.000Z');
    assert.equal(parsed.getModificationDate()?.toISOString(), '2026-03-01T09:15:00.000Z');
  });

  test('uses the document locale and time zone for numbers and dates', async () => {
    const doc = quotation({
      locale: 'de-DE',
      timezone: 'Europe/Berlin',
      issuedAt: '2026-03-01T23:30:00Z', // already 2 March in Berlin
      dates: [{ label: 'print.validUntil', at: '2026-03-31T12:00:00Z' }],
      pricesIncludeTax: true,
      customer: { name: 'Jürgen Groß', email: null, phone: null },
      note: null,
      template: { header: null, footer: null, paymentInstructions: null },
      totals: {
        net: '10000.00',
        tax: '2345.60',
        withTax: '12345.60',
        taxes: [{ rate: '25', base: '10000.00', tax: '2345.60' }],
      },
    });
    const path = await toFile(await renderDocumentPdf(doc));
    await assertQpdfClean(path);
    const text = await pdfText(path);
    assert.ok(text.includes('02.03.2026'), text);
    assert.ok(text.includes('00:30'), text);
    assert.ok(!text.includes('01.03.2026'), 'issue date must be printed in the document time zone');
    assert.ok(text.includes('31.03.2026'), text);
    assert.ok(text.includes('12.345,60 €'), text);
    assert.ok(text.includes('10.000,00 €'), text);
    assert.ok(text.includes('Jürgen Groß'), text);
    assert.ok(text.includes('Alle Preise inklusive USt.'), text);
    assert.ok(text.includes('Enthaltene USt. 25 % aus 12.345,60 €'), text);
    assert.ok(
      text.includes('Angebot Q-ZG1-2026-00042') && text.includes('Einzelpreis') && text.includes('Seite 1 von 1'),
      text,
    );
    assert.ok(!text.includes('Zahlungshinweise'), 'no payment section without instructions');
  });

  test('an exempt supply shows its amount, no rate and no tax; the reason stated once', async () => {
    const doc = quotation({
      notices: ['Razlog oslobođenja od PDV-a: čl. 39. st. 1. t. 1. Zakona o PDV-u'],
      totals: {
        net: '140.00',
        tax: '25.00',
        withTax: '165.00',
        taxes: [
          { rate: '25', base: '100.00', tax: '25.00' },
          { rate: '0', base: '40.00', tax: '0.00' },
        ],
      },
    });
    const text = (await pdfText(await toFile(await renderDocumentPdf(doc)))).replace(/\s+/g, ' ');
    assert.match(text, /PDV 25 % na osnovicu 100,00 € 25,00 €/);
    assert.match(text, /Oslobođeno PDV-a: 40,00 €/);
    assert.doesNotMatch(text, /PDV 0 %/);
    assert.match(text, /Razlog oslobođenja od PDV-a: čl\. 39/);
  });

  test('rendering is deterministic (same bytes across renders and processes)', async () => {
    const doc = quotation();
    const first = await renderDocumentPdf(doc);
    // Render something else in between: shared font state must not leak into the output.
    await renderDocumentPdf(manyLines(30));
    const second = await renderDocumentPdf(structuredClone(doc));
    assert.ok(first.equals(second), 'two renders of the same document differ');

    // Concurrent renders give the same bytes too.
    const concurrent = await Promise.all([
      renderDocumentPdf(doc),
      renderDocumentPdf(manyLines(5)),
      renderDocumentPdf(doc),
    ]);
    assert.ok(concurrent[0]!.equals(first));
    assert.ok(concurrent[2]!.equals(first));

    // Dates come from issuedAt, not the clock (the info dictionary is not compressed).
    assert.ok(first.includes('(D:20260301091500Z)'), 'CreationDate/ModDate must be derived from issuedAt');

    // A fresh process (cold caches, different clock reading) produces the same bytes.
    const moduleUrl = new URL('./render-document-pdf.ts', import.meta.url).href;
    const script = `
      const { renderDocumentPdf } = await import(${JSON.stringify(moduleUrl)});
      const doc = JSON.parse(process.argv[1]);
      process.stdout.write((await renderDocumentPdf(doc)).toString('base64'));
    `;
    const { stdout } = await execFile(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(doc)], {
      maxBuffer: 64 * 1024 * 1024,
    });
    assert.ok(Buffer.from(stdout, 'base64').equals(first), 'a render in another process differs');

    // A different document must not collide (sanity check of the comparison itself).
    const other = await renderDocumentPdf(quotation({ number: 'Q-ZG1-2026-00043' }));
    assert.ok(!other.equals(first));
  });

  /** Each page rasterised (grey, 100 dpi): what a reader sees. */
  async function pagePixels(path: string, pages: number): Promise<Buffer[]> {
    const out: Buffer[] = [];
    for (let page = 1; page <= pages; page++) {
      const { stdout } = await execFile(
        'pdftoppm',
        ['-r', '100', '-gray', '-f', String(page), '-l', String(page), path],
        {
          encoding: 'buffer',
          maxBuffer: 64 * 1024 * 1024,
        },
      );
      out.push(stdout);
    }
    return out;
  }

  function differingBytes(a: Buffer, b: Buffer): number {
    if (a.length !== b.length) return Math.max(a.length, b.length);
    let count = 0;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) count++;
    return count;
  }

  /** Every word with its box (pdftotext -bbox), in reading position order. */
  async function wordBoxes(path: string): Promise<Array<{ text: string; box: number[] }>> {
    const { stdout } = await execFile('pdftotext', ['-bbox', '-enc', 'UTF-8', path, '-'], {
      maxBuffer: 64 * 1024 * 1024,
    });
    const words = [
      ...stdout.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)<\/word>/g),
    ].map((m) => ({
      text: m[5]!,
      box: [m[1], m[2], m[3], m[4]].map(Number),
    }));
    return words.sort((a, b) => a.box[1]! - b.box[1]! || a.box[0]! - b.box[0]! || (a.text < b.text ? -1 : 1));
  }

  /**
   * The embedded fonts, decoded: per font name the font program, and per Type0 font its widths
   * and ToUnicode map (what text extraction uses).
   */
  async function embeddedFonts(bytes: Buffer): Promise<Map<string, string>> {
    const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
    const { context } = pdf;
    const decoded = (ref: unknown): string => {
      const stream = context.lookup(ref as PDFRef);
      assert.ok(stream instanceof PDFRawStream);
      return inflateSync(stream.contents).toString('latin1');
    };
    const fonts = new Map<string, string>();
    for (const [, object] of context.enumerateIndirectObjects()) {
      if (!(object instanceof PDFDict)) continue;
      const fontFile = object.get(PDFName.of('FontFile2'));
      if (fontFile !== undefined) fonts.set(`program ${String(object.get(PDFName.of('FontName')))}`, decoded(fontFile));
      if (String(object.get(PDFName.of('Subtype'))) === '/Type0') {
        const name = String(object.get(PDFName.of('BaseFont')));
        fonts.set(`ToUnicode ${name}`, decoded(object.get(PDFName.of('ToUnicode'))));
        const descendant = context.lookup((object.get(PDFName.of('DescendantFonts')) as PDFArray).get(0), PDFDict);
        fonts.set(`W ${name}`, String(descendant.get(PDFName.of('W'))));
      }
    }
    return fonts;
  }

  test('looks like plain pdfmake: same pages, text, word positions, pixels and font subsets', async () => {
    // Reference: pdfmake's public API, fonts given as file paths, so pdfkit parses, shapes and
    // subsets every face from scratch for each document, and pdfmake's own renderer draws it.
    // Our content streams are written differently (fewer operators), hence no byte comparison.
    const font = (file: string): string => fileURLToPath(import.meta.resolve(`dejavu-fonts-ttf/ttf/${file}`));
    pdfmake.setFonts({
      [PRINT_FONT_FAMILY]: {
        normal: font('DejaVuSans.ttf'),
        bold: font('DejaVuSans-Bold.ttf'),
        italics: font('DejaVuSans-Oblique.ttf'),
        bolditalics: font('DejaVuSans-BoldOblique.ttf'),
      },
    });
    pdfmake.setUrlAccessPolicy(() => false);
    pdfmake.setLocalAccessPolicy((path) => path.includes('dejavu-fonts-ttf'));
    // In sequence, so that earlier documents could leak state into later ones: e.g. bold "Š" (a
    // composite glyph built from "S") before a bold "S". Combining marks (positioned glyphs) and
    // kerned pairs ("AV", "Wa") take the renderer's less common paths.
    const sequence = [
      quotation(),
      quotation({ customer: { name: 'Second Šimić', email: null, phone: null }, number: 'Q-ZG1-2026-00044' }),
      manyLines(60),
      quotation({
        locale: 'de-DE',
        timezone: 'Europe/Berlin',
        company: { name: 'Straße & Söhne GmbH', address: null, taxId: null },
      }),
      quotation({
        number: 'Q-ZG1-2026-00045',
        note: 'Zac\u030Cin, A\u0301gota, E\u0308\u0301 e\u0301\u0323 — AVATAR Wa Tj To',
        customer: { name: 'Ðuro Šimic\u0301', email: null, phone: null },
      }),
      // Glyphs DejaVu lacks (.notdef, whose width pdfkit writes unscaled), right-to-left scripts,
      // tabs, soft hyphens, zero-width spaces and leading spaces.
      quotation({
        number: 'Q-ZG1-2026-00046',
        note: '漢字かな 😀👍 עברית טקסט العربية نص\tTab a\u00ADb zero\u200Bwidth Ελληνικά Русский',
        customer: { name: '  Leading 漢 spaces', email: null, phone: null },
        template: { header: null, footer: null, paymentInstructions: '\tIBAN  HR12 1001 0051 8630 0016 0' },
      }),
    ];
    for (const doc of sequence) {
      const ours = await renderDocumentPdf(doc);
      const reference = await pdfmake.createPdf(buildDocDefinition(doc)).getBuffer();
      const [oursPath, referencePath] = [await toFile(ours), await toFile(reference)];
      await assertQpdfClean(oursPath);
      const pages = await pageCount(oursPath);
      assert.equal(pages, await pageCount(referencePath), `page count differs for ${doc.number}`);
      assert.equal(await pdfText(oursPath), await pdfText(referencePath), `text differs for ${doc.number}`);
      // Every word in the same place. Ours places the words of a line by their advances rather
      // than each with its own text matrix, so positions agree to ~1e-6 pt, not bit for bit.
      const [oursWords, referenceWords] = [await wordBoxes(oursPath), await wordBoxes(referencePath)];
      assert.equal(oursWords.length, referenceWords.length, `word count differs for ${doc.number}`);
      oursWords.forEach((word, i) => {
        const expected = referenceWords[i]!;
        assert.equal(word.text, expected.text, `word ${i} of ${doc.number}`);
        for (let k = 0; k < 4; k++) {
          assert.ok(
            Math.abs(word.box[k]! - expected.box[k]!) < 0.001,
            `${JSON.stringify(word)} is not where pdfmake puts it: ${JSON.stringify(expected)}`,
          );
        }
      });
      // Same pixels; a glyph whose origin falls exactly on a half pixel may round either way.
      const [oursPixels, referencePixels] = [await pagePixels(oursPath, pages), await pagePixels(referencePath, pages)];
      for (let page = 0; page < pages; page++) {
        const differing = differingBytes(oursPixels[page]!, referencePixels[page]!);
        assert.ok(
          differing <= 40,
          `page ${page + 1} of ${doc.number} looks different from pdfmake's (${differing} pixels)`,
        );
      }
      assert.deepEqual(
        await embeddedFonts(ours),
        await embeddedFonts(reference),
        `embedded fonts differ for ${doc.number}`,
      );
    }
    const second = await pdfText(await toFile(await renderDocumentPdf(sequence[1]!)));
    assert.ok(second.includes('Second Šimić'), 'text extraction must not depend on earlier renders');
  });

  test('a 200-line quotation breaks across pages and repeats the table header', async () => {
    const bytes = await renderDocumentPdf(manyLines(200));
    const path = await toFile(bytes);
    await assertQpdfClean(path);
    const pages = await pageCount(path);
    assert.ok(pages >= 3, `expected several pages, got ${pages}`);

    for (let page = 1; page <= pages; page++) {
      const text = await pdfText(path, page);
      assert.ok(text.includes('Cijena'), `table header missing on page ${page}`);
      assert.ok(text.includes(`Stranica ${page} od ${pages}`), `page footer missing on page ${page}`);
    }
    const all = await pdfText(path);
    for (const n of [1, 2, 99, 100, 199, 200]) {
      assert.match(all, new RegExp(`Artikl ${n} Šišmiš`), `line ${n} missing`);
    }
    assert.ok(all.includes('Napomena 197: čćšžđ'));
    assert.ok(all.includes('2.500,00 €'), 'grand total printed'); // 200 × 12.50
    const titlePages = all.split('\f').filter((p) => p.includes('Ponuda Q-ZG1-2026-00042'));
    assert.equal(titlePages.length, pages, 'every page footer names the quotation');
  });

  test('pathological input: a line taller than a page, unbreakable tokens, control characters, no lines', async () => {
    const doc = quotation();
    const longNote = `${'Lorem ipsum dolor sit amet čćšž '.repeat(400)}END-OF-NOTE`;
    const longCode = `SKU-${'Y'.repeat(120)}-TAIL`;
    doc.lines[0] = { ...doc.lines[0]!, note: longNote, productCode: longCode };
    doc.customer = { name: 'Bell\u0007 Tab\tName\r\nSecond line', email: null, phone: null };
    const path = await toFile(await renderDocumentPdf(doc));
    await assertQpdfClean(path);
    const pages = await pageCount(path);
    assert.ok(pages >= 2, 'the long note needs more than one page');
    const text = await pdfText(path);
    // Nothing is dropped (pdfmake drops unbreakable rows taller than a page).
    assert.ok(text.includes('END-OF-NOTE'), 'end of the long note is missing');
    assert.ok(text.includes('Größe ß äöü') && text.includes('Četka za lakiranje'), 'other lines are missing');
    assert.ok(text.replace(/\s+/g, '').includes(`${'Y'.repeat(20)}-TAIL`), 'the long SKU is cut off');
    assert.ok(text.includes('Jed. mj.'), 'numeric column headers must not wrap');
    // The table stays inside the page: the amount column is still printed.
    assert.ok(text.includes('24,80 €') && text.includes('63,18 €'));
    assert.ok(text.includes('Bell Tab Name') && text.includes('Second line'));
    for (let page = 1; page <= pages; page++) {
      assert.ok((await pdfText(path, page)).includes(`Stranica ${page} od ${pages}`));
    }

    const empty = quotation({ lines: [], note: null, totals: { net: '0', tax: '0', withTax: '0', taxes: [] } });
    const emptyPath = await toFile(await renderDocumentPdf(empty));
    await assertQpdfClean(emptyPath);
    assert.ok((await pdfText(emptyPath)).includes('0,00 €'));

    await assert.rejects(renderDocumentPdf(quotation({ issuedAt: 'yesterday' })), /issuedAt/);
    await assert.rejects(renderDocumentPdf(quotation({ totals: { ...quotation().totals, net: '1,5' } })), /decimal/);
  });

  async function twoPagePdf(): Promise<Buffer> {
    const pdf = await PDFDocument.create({ updateMetadata: false });
    for (const label of ['Safety sheet page one', 'Safety sheet page two']) {
      const page = pdf.addPage([595.28, 841.89]);
      page.drawText(label, { x: 50, y: 780, size: 14 });
    }
    return Buffer.from(await pdf.save());
  }

  test('appendDatasheets appends every datasheet page and skips corrupt ones', async () => {
    const quote = await renderDocumentPdf(quotation());
    const quotePages = await pageCount(await toFile(quote));

    const datasheet = await buildSampleDatasheet('Boja za drvo Šišmiš — čćšžđ', [
      'Colour: RAL 9010 - Reinweiß',
      'Coverage: 8–10 m²/L per coat',
      'Drying time: 4 h at 20 °C',
    ]);
    const datasheetPath = await toFile(datasheet);
    assert.equal(await pageCount(datasheetPath), 1);
    await assertQpdfClean(datasheetPath);
    const datasheetText = await pdfText(datasheetPath);
    assert.ok(datasheetText.includes('Boja za drvo Sismis - ccszd'), datasheetText);
    assert.ok(datasheetText.includes('Colour: RAL 9010 - Reinweiss'), datasheetText);
    assert.ok(datasheetText.includes('8-10 m2/L'), datasheetText);
    assert.ok(
      (await buildSampleDatasheet('X', ['a'])).equals(await buildSampleDatasheet('X', ['a'])),
      'sample datasheet is deterministic',
    );

    const twoPages = await twoPagePdf();
    const skipped: Array<{ name: string; error: Error }> = [];
    const onSkip = (name: string, error: Error): void => {
      skipped.push({ name, error });
    };
    const corrupt = randomBytes(4096);
    const truncated = datasheet.subarray(0, Math.floor(datasheet.length / 3));
    const merged = await appendDatasheets(
      quote,
      [
        { name: 'paint.pdf', bytes: datasheet },
        { name: 'random.pdf', bytes: corrupt },
        { name: 'safety.pdf', bytes: twoPages },
        { name: 'truncated.pdf', bytes: truncated },
      ],
      onSkip,
    );
    assert.deepEqual(
      skipped.map((s) => s.name),
      ['random.pdf', 'truncated.pdf'],
    );
    for (const s of skipped) assert.ok(s.error instanceof Error && s.error.message.length > 0);

    const mergedPath = await toFile(merged);
    await assertQpdfClean(mergedPath);
    const total = await pageCount(mergedPath);
    assert.equal(total, quotePages + 1 + 2);
    assert.ok((await pdfText(mergedPath, 1)).includes('Đuro Šimić'), 'quotation stays first');
    assert.ok((await pdfText(mergedPath, quotePages + 1)).includes('TECHNICAL DATASHEET'));
    assert.ok((await pdfText(mergedPath, total)).includes('Safety sheet page two'));

    // Deterministic and clock-independent: metadata is the quotation's own.
    const again = await appendDatasheets(
      quote,
      [
        { name: 'paint.pdf', bytes: datasheet },
        { name: 'random.pdf', bytes: corrupt },
        { name: 'safety.pdf', bytes: twoPages },
        { name: 'truncated.pdf', bytes: truncated },
      ],
      () => {},
    );
    assert.ok(again.equals(merged), 'appending is not deterministic');
    const parsed = await PDFDocument.load(merged, { updateMetadata: false });
    assert.equal(parsed.getTitle(), 'Ponuda Q-ZG1-2026-00042');
    assert.equal(parsed.getModificationDate()?.toISOString(), '2026-03-01T09:15:00.000Z');
    assert.equal(parsed.getProducer(), 'Portico (pdfmake)');
  });

  test('appendDatasheets with only corrupt datasheets still returns the quotation', async () => {
    const quote = await renderDocumentPdf(quotation());
    const names: string[] = [];
    const result = await appendDatasheets(
      quote,
      [
        { name: 'empty.pdf', bytes: Buffer.alloc(0) },
        { name: 'noise.pdf', bytes: randomBytes(1000) },
        { name: 'fake.pdf', bytes: Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n%%EOF') },
      ],
      (name) => names.push(name),
    );
    assert.deepEqual(names, ['empty.pdf', 'noise.pdf', 'fake.pdf']);
    assert.ok(result.equals(quote));
    await assertQpdfClean(await toFile(result));
    assert.ok((await appendDatasheets(quote, [], () => assert.fail('nothing to skip'))).equals(quote));
  });
});
