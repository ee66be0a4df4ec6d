// test-engines: sqlite
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, signIn, startHub, withPage, type HubServer } from '../support/browser.ts';

const AXE = fs.readFileSync(path.resolve(import.meta.dirname, '../../node_modules/axe-core/axe.min.js'), 'utf8');

/** axe-core in the page (evaluated, as the CSP refuses an injected script tag): no serious or critical violation. */
async function assertAccessible(page: Page): Promise<void> {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const result = await (
      globalThis as unknown as {
        axe: {
          run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }>;
        };
      }
    ).axe.run();
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
  assert.deepEqual(violations, [], `axe on ${page.url()}`);
}

const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/catalog-import.csv');

async function samplePdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage([200, 200]).drawText('Tehnicki list', { x: 20, y: 100, size: 14 });
  return Buffer.from(await doc.save());
}

/** The progress fragment polls until the import ends; then the bar is full and the report is there. */
async function importFile(page: Page, base: string, file: string): Promise<void> {
  await page.goto(`${base}/hub/catalog/import`);
  await page.getByLabel('CSV datoteka').setInputFiles(file);
  await page.getByRole('button', { name: 'Uvezi', exact: true }).click();
  await page.locator('#import-phase', { hasText: 'Gotovo.' }).waitFor();
  assert.equal(
    new URL(page.url()).pathname,
    '/hub/catalog/import',
    'htmx posted the file and swapped the progress in; no page load',
  );
  const bar = page.getByLabel('Napredak uvoza');
  assert.equal(
    await bar.getAttribute('value'),
    await bar.getAttribute('max'),
    'the bar is full when the import is done',
  );
  assert.equal(await page.locator('#import-status[hx-trigger]').count(), 0, 'a finished import stops polling');
}

describe('hub catalog (Chromium)', () => {
  let browser: Browser;
  let hub: HubServer;
  let dir: string;
  before(async () => {
    browser = await launchBrowser();
    hub = await startHub();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-hub-catalog-'));
  });
  after(async () => {
    await browser?.close();
    await hub?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('an admin adds a category and a product with two units, uploads its datasheet, and imports a CSV with a row error', async (t) => {
    await withPage(t, browser, async (page) => {
      await signIn(page, hub.base, hub.user('admin'));
      await page.getByRole('link', { name: 'Katalog' }).click();
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Katalog');
      await assertAccessible(page);

      // A category that still holds products is refused with the service's reason, on the page.
      page.once('dialog', (dialog) => void dialog.accept());
      const paints = page.locator('ul.tree > li', {
        has: page.locator(':scope > .tree-name', { hasText: 'Boje i lakovi' }),
      });
      await paints.locator(':scope > details > summary').click();
      let answer = page.waitForResponse((r) => /\/delete$/.test(r.url()));
      await paints
        .locator(':scope > details')
        .getByRole('button', { name: /^Obriši/ })
        .click();
      assert.equal((await answer).status(), 409);
      assert.match(
        (await page.getByRole('alert').textContent())!,
        /Kategorija još ima proizvode ili potkategorije; najprije ih premjestite\./,
      );

      const newCategory = page.locator('form[action="/hub/catalog/categories"]');
      await newCategory.getByLabel('Naziv').fill('');
      await newCategory.getByRole('button', { name: 'Dodaj' }).click();
      // The browser's own `required` check stops an empty name; the server's answer is tested below with a bad price.
      await newCategory.getByLabel('Naziv').fill('Ljepila');
      await newCategory.getByLabel('Nadređena kategorija').selectOption({ label: 'Boje i lakovi' });
      await newCategory.getByRole('button', { name: 'Dodaj' }).click();
      assert.equal(await page.getByRole('status').textContent(), 'Stvoreno.');
      assert.equal(
        await page.locator('ul.tree ul.tree .tree-name', { hasText: 'Ljepila' }).count(),
        1,
        'the new category sits under its parent in the tree',
      );

      await page
        .getByRole('navigation', { name: 'Dijelovi kataloga' })
        .getByRole('link', { name: 'Proizvodi' })
        .click();
      await page.getByRole('link', { name: 'Novi proizvod' }).click();
      await page.getByLabel('Naziv').fill('Ljepilo za drvo D3, 750 g');
      await page.getByLabel('Šifra').fill('LJ-D3-750');
      await page.getByLabel('Kategorija').selectOption({ label: 'Boje i lakovi / Ljepila' });
      await page.getByLabel('Jedinica 1').fill('kom');
      await page.getByLabel('Cijena 1').fill('8,90');
      await page.getByLabel('Jedinica 2').fill('karton (12 kom)');
      await page.getByLabel('Cijena 2').fill('dvanaest');
      await assertAccessible(page);
      answer = page.waitForResponse(
        (r) => r.url().endsWith('/hub/catalog/products') && r.request().method() === 'POST',
      );
      await page.getByRole('button', { name: 'Dodaj' }).click();
      assert.equal((await answer).status(), 400, 'a bad price re-renders the form');
      const badPrice = page.getByLabel('Cijena 2');
      assert.equal(await badPrice.getAttribute('aria-invalid'), 'true');
      assert.match(
        (await page.locator(`#${await badPrice.getAttribute('aria-describedby')}`).textContent())!,
        /s najviše 2 decimale/,
      );
      assert.equal(await page.getByLabel('Jedinica 2').inputValue(), 'karton (12 kom)', 'what was typed is kept');
      await assertAccessible(page);
      await badPrice.fill('99.00');
      await page.getByRole('button', { name: 'Dodaj' }).click();
      await page.waitForURL(/\/hub\/catalog\/products\/[^/?]+\?notice=created$/);
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Ljepilo za drvo D3, 750 g');
      assert.deepEqual(
        await page
          .locator('input[id^="unit-"][id$="-name"]:not(#unit-new-name)')
          .evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value)),
        ['kom', 'karton (12 kom)'],
      );

      const productUrl = page.url().split('?')[0]!;
      const karton = page.locator('tr', { has: page.locator('input[value="karton (12 kom)"]') });
      await karton.getByLabel('Cijena').fill('95,50');
      await karton.getByRole('button', { name: 'Spremi' }).click();
      assert.equal(await page.getByRole('status').textContent(), 'Spremljeno.');
      assert.equal(
        await page
          .locator('tr', { has: page.locator('input[value="karton (12 kom)"]') })
          .getByLabel('Cijena')
          .inputValue(),
        '95.50',
      );
      page.once('dialog', (dialog) => void dialog.accept());
      await page.getByRole('button', { name: 'Obriši kom' }).click();
      assert.equal(await page.getByRole('status').textContent(), 'Obrisano.');
      page.once('dialog', (dialog) => void dialog.accept());
      answer = page.waitForResponse((r) => /\/delete$/.test(r.url()));
      await page.getByRole('button', { name: 'Obriši karton (12 kom)' }).click();
      assert.equal((await answer).status(), 409, 'the last unit stays: the service refuses, the page says why');
      assert.match((await page.getByRole('alert').textContent())!, /posljednja jedinica proizvoda/);
      await page.getByLabel('Jedinica', { exact: true }).last().fill('kom');
      await page.getByLabel('Cijena bez PDV-a (EUR)', { exact: true }).last().fill('8.90');
      await page.getByRole('button', { name: 'Dodaj jedinicu' }).click();
      assert.equal(await page.getByRole('status').textContent(), 'Stvoreno.');
      page.once('dialog', (dialog) => void dialog.accept());
      await page.getByRole('button', { name: 'Deaktiviraj' }).click();
      assert.match((await page.getByRole('status').textContent())!, /deaktiviran/);
      assert.equal(await page.locator('main .status').first().textContent(), 'Neaktivan');
      await page.getByRole('button', { name: 'Ponovno aktiviraj' }).click();
      assert.equal(await page.locator('main .status').first().textContent(), 'Aktivan');
      assert.equal(page.url().split('?')[0], productUrl);

      const notPdf = path.join(dir, 'notes.pdf');
      fs.writeFileSync(notPdf, 'not a pdf');
      await page.getByLabel(/^PDF datoteka, najviše/).setInputFiles(notPdf);
      answer = page.waitForResponse((r) => r.url().endsWith('/datasheet') && r.request().method() === 'POST');
      await page.getByRole('button', { name: 'Učitaj' }).click();
      assert.equal((await answer).status(), 400);
      assert.match(
        (await page.locator('#datasheet-file-error').textContent())!,
        /Prihvaćaju se samo tehnički listovi u PDF-u\./,
      );

      const pdf = path.join(dir, 'ljepilo-d3.pdf');
      fs.writeFileSync(pdf, await samplePdf());
      await page.getByLabel(/^PDF datoteka, najviše/).setInputFiles(pdf);
      await page.getByRole('button', { name: 'Učitaj' }).click();
      assert.equal(await page.getByRole('status').textContent(), 'Tehnički list je učitan.');
      await assertAccessible(page);
      const href = await page.getByRole('link', { name: 'Preuzmi Tehnički list' }).getAttribute('href');
      const download = await page.request.get(`${hub.base}${href}`);
      assert.equal(download.headers()['content-type'], 'application/pdf');
      // Served under the name Portico makes from the product, never the uploaded one.
      assert.match(download.headers()['content-disposition']!, /^attachment; filename="[\w.-]+\.pdf"$/);
      assert.doesNotMatch(download.headers()['content-disposition']!, /ljepilo-d3/);
      assert.equal(download.headers()['x-content-type-options'], 'nosniff');
      assert.equal((await download.body()).subarray(0, 5).toString('latin1'), '%PDF-');

      await page
        .getByRole('navigation', { name: 'Dijelovi kataloga' })
        .getByRole('link', { name: 'Proizvodi' })
        .click();
      await page.getByLabel('Kategorija').selectOption({ label: 'Boje i lakovi / Ljepila' });
      await page.getByRole('button', { name: 'Traži' }).click();
      assert.deepEqual(await page.locator('main table tbody td:first-child').allTextContents(), [
        'Ljepilo za drvo D3, 750 g',
      ]);
      assert.match(
        (await page.locator('main table tbody tr').first().textContent())!,
        /karton \(12 kom\) 95,50\s€, kom 8,90\s€/,
      );

      // The fixture plus a row whose price is not a number: the whole file is refused, that row named.
      const bad = path.join(dir, 'bad.csv');
      fs.writeFileSync(bad, `${fs.readFileSync(FIXTURE, 'utf8')}Kist 50 mm,KIST-50,kom,abc,25,Alati,,,\n`);
      await importFile(page, hub.base, bad);
      const rows = page.getByRole('table', { name: 'Greške po retcima' }).locator('tbody tr');
      assert.equal(await rows.count(), 1);
      assert.deepEqual(await rows.first().locator('td').allTextContents(), [
        '11',
        'price',
        'Upišite iznos od 0 do 999999999,99 s najviše 2 decimale, npr. "12,40".',
      ]);
      assert.match(
        (await page.locator('.import-status dl.facts').textContent())!,
        /Stvoreni proizvodi\s*0\s*Ažurirani proizvodi\s*0/,
      );

      // The fixture's SKUs already in the demo catalog are updated, the rest created.
      const skus = ['BZD-075-OR', 'FAS-15-BI', 'DUB-250', 'KNJ-BOJ', 'ZIC-CUK'];
      const known = (await hub.app.c.catalogAdmin.listProducts(hub.tenant.companyId, { limit: 100 })).data.filter((p) =>
        skus.includes(p.sku ?? ''),
      ).length;
      await page.getByRole('link', { name: 'Uvezi drugu datoteku' }).click();
      await importFile(page, hub.base, FIXTURE);
      assert.equal(await page.getByRole('table', { name: 'Greške po retcima' }).count(), 0);
      await assertAccessible(page);
      assert.match(
        (await page.locator('.import-status dl.facts').textContent())!,
        new RegExp(`Stvoreni proizvodi\\s*${skus.length - known}\\s*Ažurirani proizvodi\\s*${known}`),
      );

      for (const url of [
        '/hub/catalog/models',
        '/hub/catalog/tax-rates',
        '/hub/catalog/products',
        '/hub/catalog/import',
      ]) {
        await page.goto(`${hub.base}${url}`);
        await assertAccessible(page);
      }
    });
  });

  test('an import tells its progress, from checking to every row written', async () => {
    const seen: Array<{ phase: string; done: number; total: number }> = [];
    const report = await hub.app.c.catalogImport.importText(
      hub.tenant.companyId,
      fs.readFileSync(FIXTURE, 'utf8'),
      (p) => seen.push({ ...p }),
    );
    assert.deepEqual(report.errors, []);
    assert.equal(seen[0]!.phase, 'checking');
    const last = seen.at(-1)!;
    assert.ok(last.total > 0);
    assert.equal(last.done, last.total, 'the last report is the last row written');
    assert.ok(
      seen.every((p, i) => i === 0 || p.done >= seen[i - 1]!.done),
      'never backwards',
    );
  });

  test('without JavaScript the import POST waits and shows the same report', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, locale: 'en-GB' });
    const page = await context.newPage();
    try {
      await signIn(page, hub.base, hub.user('admin'));
      const bad = path.join(dir, 'nojs.csv');
      fs.writeFileSync(bad, 'sku,name,unit,price,tax_rate\nX-1,Nešto,kom,1.00,250\n');
      await page.goto(`${hub.base}/hub/catalog/import`);
      await page.getByLabel('CSV datoteka').setInputFiles(bad);
      await page.getByRole('button', { name: 'Uvezi', exact: true }).click();
      await page.waitForURL(/\/hub\/catalog\/import\/[0-9a-f-]+$/);
      assert.equal(await page.locator('#import-phase').textContent(), 'Gotovo.');
      const cells = await page.getByRole('table', { name: 'Greške po retcima' }).locator('tbody td').allTextContents();
      assert.deepEqual(cells.slice(0, 2), ['2', 'tax_rate']);
    } finally {
      await context.close();
    }
  });

  test('a staff user reads the catalog without forms, and a forged write is refused', async (t) => {
    await withPage(t, browser, async (page) => {
      await signIn(page, hub.base, hub.user('staff'));
      for (const url of ['/hub/catalog', '/hub/catalog/models', '/hub/catalog/tax-rates', '/hub/catalog/products']) {
        const response = await page.goto(`${hub.base}${url}`);
        assert.equal(response!.status(), 200, url);
        assert.equal(
          await page.locator('main form[method="post"]').count(),
          0,
          `${url} shows no form that changes anything`,
        );
        assert.equal(
          await page.getByText('Vaša uloga može pregledavati katalog, ali ga ne može mijenjati.').count(),
          1,
        );
        await assertAccessible(page);
      }
      assert.equal(await page.getByRole('link', { name: 'Uvoz iz CSV-a' }).count(), 0);
      await page.locator('table a').first().click();
      assert.equal(await page.locator('main form').count(), 0, 'a product reads as facts');
      assert.equal(await page.locator('main input, main select, main textarea').count(), 0);
      await assertAccessible(page);

      assert.equal((await page.goto(`${hub.base}/hub/catalog/import`))!.status(), 403);
      const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
      const forged = await page.request.post(`${hub.base}/hub/catalog/categories`, {
        form: { _csrf: csrf, name: 'Krivotvoreno' },
        headers: { origin: hub.base },
      });
      assert.equal(forged.status(), 403, 'the role, not only the hidden form, stops it');
      const product = (await hub.app.c.catalogAdmin.listProducts(hub.tenant.companyId, { limit: 1 })).data[0]!;
      const upload = await page.request.post(`${hub.base}/hub/catalog/products/${product.id}/datasheet`, {
        multipart: { _csrf: csrf, file: { name: 'x.pdf', mimeType: 'application/pdf', buffer: await samplePdf() } },
        headers: { origin: hub.base },
      });
      assert.equal(upload.status(), 403, 'nor may staff upload a datasheet');
      const categories = await hub.app.c.catalogAdmin.listCategories(hub.tenant.companyId);
      assert.equal(
        categories.some((c) => c.name === 'Krivotvoreno'),
        false,
      );
    });
  });
});
