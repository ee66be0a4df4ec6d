// test-engines: sqlite
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { signIn, withPage, type HubServer, openHubInBrowser, closeHubInBrowser } from '../support/browser.ts';
import { pdfText } from '../support/quote-helpers.ts';
import { reachOut, validReachOut } from '../support/http-helpers.ts';
import { adminCall } from '../support/sales-helpers.ts';

const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core over the page as shown: no serious or critical violation. */
async function assertAccessible(page: Page): Promise<void> {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run(
            doc: Document,
            opts: object,
          ): Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
  assert.deepEqual(violations, [], `axe on ${page.url()}`);
}

/** A demo product's SKU, as the catalog has it. */
async function skuOf(hub: HubServer, productId: string): Promise<string> {
  const res = await adminCall(hub.app.app, hub.tenant.adminToken, 'GET', `/products/${productId}`);
  return res.json().data.sku as string;
}

/** The id of the element that has the focus. */
const focused = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');

/** Types into the focused combobox, waits for its list box to show `expect`, and presses Enter. */
async function pickWithKeyboard(page: Page, text: string, expect: RegExp, arrows = 0): Promise<void> {
  await page.keyboard.type(text);
  // The answer to the whole text (an earlier answer, to a part of it, may still be shown).
  await page.locator('[role="option"][aria-selected="true"]').filter({ hasText: expect }).waitFor();
  for (let i = 0; i < arrows; i++) await page.keyboard.press('ArrowDown');
  assert.match((await page.locator('[role="option"][aria-selected="true"]').textContent())!, expect);
  const combobox = page.locator(':focus');
  assert.equal(await combobox.getAttribute('aria-expanded'), 'true');
  assert.equal(
    await combobox.getAttribute('aria-activedescendant'),
    await page.locator('[role="option"][aria-selected="true"]').getAttribute('id'),
  );
  await page.keyboard.press('Enter');
}

describe('hub: a quotation made and revised, and a counter sale, by keyboard (Chromium)', () => {
  let browser: Browser;
  let hub: HubServer;
  before(async () => ({ browser, hub } = await openHubInBrowser()));
  after(() => closeHubInBrowser(browser, hub));

  test('new quotation from an inquiry: customer prefilled, lines by name and SKU, a discount and a tint note, made; then revised', async (t) => {
    const demo = hub.tenant;
    const sent = await reachOut(
      hub.app.app,
      demo.locations[0]!.apiKey,
      validReachOut({ name: 'Vesna Vuković', email: 'vesna@example.com', phone: '+385 98 765 4321' }),
    );
    assert.equal(sent.statusCode, 201, sent.body);
    const inquiryId = sent.json().data.id as string;
    await withPage(t, browser, async (page) => {
      await signIn(page, hub.base, hub.user('admin'));
      await page.goto(`${hub.base}/hub/quotations/new?inquiryId=${inquiryId}`);
      await assertAccessible(page);
      assert.equal(await page.getByLabel('Ime i prezime ili naziv').inputValue(), 'Vesna Vuković');
      assert.equal(await page.getByLabel('E-pošta').inputValue(), 'vesna@example.com');
      assert.equal(await page.getByLabel('Telefon').inputValue(), '+385 98 765 4321');
      assert.equal(await focused(page), 'product-search', 'the product search has the focus');

      // By name; then by SKU with a quantity first (a scanner types the code).
      await pickWithKeyboard(page, 'lak', /Lak za parket/);
      await page.locator('tr.line').first().waitFor();
      assert.equal(await focused(page), 'product-search', 'back in the search after a line is added');
      const sku = await skuOf(hub, demo.products[0]!.id);
      await pickWithKeyboard(page, `2*${sku}`, /Boja za drvo/);
      await page.locator('tr.line').nth(1).waitFor();
      assert.equal(await page.locator('tr.line').count(), 2);
      assert.equal(await page.locator('tr.line').nth(1).locator('[name="quantity"]').inputValue(), '2');
      await assertAccessible(page);

      // The second line: 10 % off and a tint colour, by keyboard.
      const second = page.locator('tr.line').nth(1);
      await second.locator('[name="discountPercent"]').focus();
      await page.keyboard.type('10');
      await page.keyboard.press('Tab');
      await page.keyboard.type('Colour: RAL 9010 - Reinweiß');
      await page.getByRole('button', { name: 'Izradi ponudu' }).click();
      await page.waitForURL(/\/hub\/quotations\/qt_[^/?]+\?notice=madeQuotation$/);
      await assertAccessible(page);
      const id = new URL(page.url()).pathname.split('/').at(-1)!;
      const made = (await adminCall(hub.app.app, demo.adminToken, 'GET', `/quotations/${id}`)).json().data;
      assert.equal(made.customer.name, 'Vesna Vuković');
      assert.equal(made.lines.length, 2);
      assert.equal(made.lines[1].discountPercent, '10');
      assert.equal(made.lines[1].note, 'Colour: RAL 9010 - Reinweiß');
      assert.ok(made.createdBy, 'the hub user is recorded');

      // Revise: one more tin; the number gains -2 and the first revision stays, with its PDF.
      await page.getByRole('link', { name: 'Izmijeni' }).click();
      await page.waitForURL(`${hub.base}/hub/quotations/${id}/edit`);
      await assertAccessible(page);
      const quantity = page.locator('tr.line').nth(1).locator('[name="quantity"]');
      await quantity.fill('3');
      await page.getByRole('button', { name: 'Izmijeni' }).click();
      await page.waitForURL(`${hub.base}/hub/quotations/${id}?notice=revised`);
      assert.match((await page.getByRole('heading', { level: 1 }).textContent())!, new RegExp(`${made.number}-2$`));
      const revisions = page.getByRole('region', { name: 'Izmjene' });
      assert.equal(await revisions.getByRole('row').count(), 3, 'a header, the current and the first revision');
      await assertAccessible(page);
      const first = await page.request.get(`${hub.base}/hub/quotations/${id}/revisions/1/pdf`);
      assert.equal(first.status(), 200);
      const text = await pdfText(Buffer.from(await first.body()));
      assert.match(text, new RegExp(made.number));
      assert.doesNotMatch(text, new RegExp(`${made.number}-2`));
    });
  });

  test('a bad line is shown at its row, nothing is made, the lines typed stay', async (t) => {
    await withPage(t, browser, async (page) => {
      await signIn(page, hub.base, hub.user('staff'));
      await page.goto(`${hub.base}/hub/quotations/new`);
      await page.getByLabel('Ime i prezime ili naziv').fill('Ivo Ivić');
      await page.locator('#product-search').focus();
      await pickWithKeyboard(page, 'lak', /Lak za parket/);
      await page.locator('tr.line').first().waitFor();
      await page.locator('tr.line [name="quantity"]').fill('0');
      await page.getByRole('button', { name: 'Izradi ponudu' }).click();
      await page.waitForURL(`${hub.base}/hub/quotations/new`);
      assert.equal(await page.locator('tr.line').count(), 1, 'the line stays');
      assert.equal(await page.locator('tr.line [name="quantity"]').getAttribute('aria-invalid'), 'true');
      await assertAccessible(page);
    });
  });

  test('counter sale: type, Enter, Enter, cash received, Enter; change shown live; invoice issued paid; phone width', async (t) => {
    const demo = hub.tenant;
    await withPage(t, browser, async (page) => {
      await signIn(page, hub.base, hub.user('staff'));
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${hub.base}/hub/counter`);
      assert.equal(await focused(page), 'product-search');
      assert.equal(
        await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
        true,
        'no sideways scrolling on a phone',
      );
      await assertAccessible(page);

      const sku = await skuOf(hub, demo.products[0]!.id);
      await pickWithKeyboard(page, sku, /Boja za drvo/);
      await page.locator('tr.line').first().waitFor();
      // A scanner: the product's barcode and Enter at once, before any list could answer; the
      // same product again is one more of it, not a second line.
      const { barcode } = (
        await adminCall(hub.app.app, demo.adminToken, 'GET', `/products/${demo.products[0]!.id}`)
      ).json().data as { barcode: string };
      assert.match(barcode, /^\d{13}$/, 'the demo product has an EAN-13');
      await page.keyboard.type(barcode, { delay: 0 });
      await page.keyboard.press('Enter');
      await page.waitForFunction(
        () => (document.querySelector('tr.line [name="quantity"]') as HTMLInputElement).value === '2',
      );
      assert.equal(await page.locator('tr.line').count(), 1);
      await page.locator('[data-total]').filter({ hasText: '31,00' }).waitFor();

      await page.keyboard.press('Enter');
      assert.equal(await focused(page), 'f-tendered', 'Enter on the empty search goes to the cash received');
      await page.keyboard.type('50');
      await page.locator('[data-change]').filter({ hasText: '19,00' }).waitFor();
      await assertAccessible(page);
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/hub\/sales\/sale_[^?]+\?notice=sold$/);
      const saleId = new URL(page.url()).pathname.split('/').at(-1)!;
      const sale = (await adminCall(hub.app.app, demo.adminToken, 'GET', `/sales/${saleId}`)).json().data;
      assert.equal(sale.status, 'paid');
      assert.equal(sale.totals.withTax, '31.00');
      assert.equal(sale.change, '19.00');
      assert.equal(sale.customer.kind, 'walk_in');
      assert.equal(
        await page.locator('a[href="/hub/customers/"], a[href*="undefined"]').count(),
        0,
        'a walk-in has no directory page, a counter sale no source document',
      );
      assert.match((await page.locator('main').textContent())!, /Za vratiti\s*19,00/);
      const receipt = await page.request.get(`${hub.base}/hub/sales/${saleId}/pdf?layout=receipt`);
      assert.equal(receipt.headers()['content-type'], 'application/pdf');
      await assertAccessible(page);
    });
  });
});
