// test-engines: sqlite
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { closeHubInBrowser, openHubInBrowser, signIn, type HubServer } from '../support/browser.ts';
import { adminCall, assignCustomer, newQuotation } from '../support/sales-helpers.ts';

const PHONE = { width: 390, height: 844 };

/**
 * The hub on a phone and before sign-in: the menu button, the PDF as a button, printing, the
 * icon and manifest, and the sign-in page in the browser's language with a switch.
 */
describe('hub on a small screen (Chromium)', () => {
  let browser: Browser;
  let hub: HubServer;
  before(async () => ({ browser, hub } = await openHubInBrowser()));
  after(() => closeHubInBrowser(browser, hub));

  test("the sign-in page speaks the browser's language, switches to another, and signs in in it", async () => {
    const context = await browser.newContext({ locale: 'de-DE', viewport: PHONE });
    try {
      const page = await context.newPage();
      const missing: string[] = [];
      page.on('response', (r) => r.status() === 404 && missing.push(r.url()));
      await page.goto(`${hub.base}/hub/sign-in?next=%2Fhub%2Fsales`);
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Portico · Anmelden');
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'de');
      const current = page.getByRole('navigation', { name: 'Sprache' }).locator('[aria-current="true"]');
      assert.equal(await current.textContent(), 'Deutsch');

      await page.getByRole('link', { name: 'Hrvatski' }).click();
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Portico · Prijava');
      assert.match(page.url(), /lang=hr/);
      assert.match(page.url(), /next=%2Fhub%2Fsales/, 'the switch keeps where the user was going');
      // A wrong password answers in the language chosen, not the browser's.
      await page.getByLabel('E-pošta').fill('nobody@example.com');
      await page.getByLabel('Lozinka').fill('not the password');
      await page.getByRole('button', { name: 'Prijavi se' }).click();
      assert.equal(await page.getByRole('alert').textContent(), 'E-pošta ili lozinka nisu točni.');
      assert.deepEqual(missing, [], 'nothing the page asks for is missing (no favicon 404)');

      const icon = await page.locator('link[rel="icon"]').getAttribute('href');
      assert.equal((await page.request.get(`${hub.base}${icon}`)).headers()['content-type'], 'image/svg+xml');
      const manifestHref = await page.locator('link[rel="manifest"]').getAttribute('href');
      const manifest = await (await page.request.get(`${hub.base}${manifestHref}`)).json();
      assert.equal(manifest.name, 'Portico');
      assert.equal(manifest.icons[0].src, icon);
    } finally {
      await context.close();
    }
  });

  test('on a phone the navigation folds behind a menu button that opens without JavaScript', async () => {
    const context = await browser.newContext({ locale: 'en-GB', viewport: PHONE, javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await signIn(page, hub.base, hub.user('admin'));
      const nav = page.getByRole('navigation', { name: 'Glavni izbornik' });
      const customers = nav.getByRole('link', { name: 'Kupci' });
      assert.equal(await customers.isVisible(), false, 'folded at first');
      const menu = nav.getByText('Izbornik', { exact: true });
      const box = (await menu.boundingBox())!;
      assert.ok(box.height >= 44, `the menu button is a touch target of ${box.height} px`);
      await menu.click();
      assert.equal(await customers.isVisible(), true, 'open after a tap');
      await customers.click();
      await page.waitForURL(`${hub.base}/hub/customers`);
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), true);

      await page.setViewportSize({ width: 1366, height: 768 });
      assert.equal(await nav.getByText('Izbornik', { exact: true }).isVisible(), false, 'no menu button on a laptop');
      assert.equal(await nav.getByRole('link', { name: 'Kupci' }).isVisible(), true, 'the sidebar is always open');
    } finally {
      await context.close();
    }
  });

  test('on a phone a PDF is a button that opens it full-screen; a printed page has no navigation', async () => {
    const { app } = hub.app;
    const quotation = await newQuotation(app, hub.tenant, { name: 'Ana Kovač' });
    await assignCustomer(app, hub.tenant, 'quotations', quotation.id);
    const sale = await adminCall(app, hub.tenant.adminToken, 'POST', `/quotations/${quotation.id}/convert`, {});
    const saleId = JSON.parse(sale.body).data.id as string;
    const context = await browser.newContext({ locale: 'en-GB', viewport: PHONE });
    try {
      const page = await context.newPage();
      await signIn(page, hub.base, hub.user('admin'));
      for (const path of [`/hub/quotations/${quotation.id}`, `/hub/sales/${saleId}`]) {
        await page.goto(`${hub.base}${path}`);
        assert.equal(await page.locator('iframe.pdf').isVisible(), false, `${path}: no inline frame on a phone`);
        const open = page.getByRole('link', { name: /^Otvori PDF/ });
        assert.equal(await open.getAttribute('href'), `${path}/pdf`);
        assert.ok((await open.boundingBox())!.height >= 44);
        const pdf = await page.request.get(`${hub.base}${path}/pdf`);
        assert.equal(pdf.headers()['content-type'], 'application/pdf');
      }
      await page.setViewportSize({ width: 1366, height: 768 });
      assert.equal(await page.locator('iframe.pdf').isVisible(), true, 'inline on a laptop');
      assert.equal(await page.getByRole('link', { name: /^Otvori PDF/ }).isVisible(), false);

      await page.emulateMedia({ media: 'print' });
      assert.equal(await page.getByRole('navigation', { name: 'Glavni izbornik' }).isVisible(), false);
      assert.equal(await page.locator('header.top').isVisible(), false);
      assert.equal(await page.getByRole('heading', { level: 1 }).isVisible(), true, 'the content prints');
    } finally {
      await context.close();
    }
  });

  test('on a phone the print settings preview is a button opening the PDF of what is typed so far', async () => {
    const context = await browser.newContext({ locale: 'en-GB', viewport: PHONE });
    try {
      const page = await context.newPage();
      await signIn(page, hub.base, hub.user('admin'));
      await page.goto(`${hub.base}/hub/developer/print`);
      assert.equal(await page.locator('#print-preview iframe.pdf').isVisible(), false, 'no inline frame on a phone');
      const open = page.getByRole('link', { name: 'Otvori pregled (PDF)' });
      assert.equal(await open.isVisible(), true);
      assert.ok((await open.boundingBox())!.height >= 44);
      const href = (await open.getAttribute('href'))!;
      assert.match(href, /^\/hub\/developer\/print\/preview\.pdf\?/);
      const pdf = await page.request.get(`${hub.base}${href}`);
      assert.equal(pdf.headers()['content-type'], 'application/pdf');
      await page.setViewportSize({ width: 1366, height: 768 });
      assert.equal(await page.locator('#print-preview iframe.pdf').isVisible(), true, 'inline on a laptop');
      assert.equal(await open.isVisible(), false);
    } finally {
      await context.close();
    }
  });
});
