// test-engines: sqlite
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, startHub, withPage, type HubServer } from '../support/browser.ts';
import { newQuotation } from '../support/sales-helpers.ts';
import { quotationLink } from '../support/mail-helpers.ts';

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const SCREENS = path.resolve('test-results', 'screens');

async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const result = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run(
            doc: Document,
            opts: object,
          ): Promise<{ violations: Array<{ id: string; impact: string | null; help: string }> }>;
        };
      }
    ).axe;
    return axe.run(document, { resultTypes: ['violations'] });
  });
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help}`);
}

async function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
}

/** Tabs forward until the element with `id` has the focus; fails after `max` presses. */
async function tabTo(page: Page, id: string, max = 15): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if ((await page.evaluate(() => document.activeElement?.id)) === id) return;
  }
  assert.fail(`#${id} not reached with Tab`);
}

describe("the customer's quotation page in Chromium: a phone, the keyboard, axe", () => {
  let browser: Browser;
  let hub: HubServer;
  before(async () => {
    browser = await launchBrowser();
    hub = await startHub();
  });
  after(async () => {
    await browser?.close();
    await hub?.close();
  });

  test('on a phone, by keyboard only: read, accept with name and PO; the page then says so; axe clean throughout', async (t) => {
    const q = await newQuotation(hub.app.app, hub.tenant, { name: 'Ana Kovač' });
    const link = await quotationLink(hub.app, hub.tenant.companyId, q.id, 'hr');
    await withPage(t, browser, async (page) => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${hub.base}/q/${link.token}`);
      assert.equal(await page.locator('html').getAttribute('lang'), 'hr');
      await page.getByRole('heading', { level: 1, name: `Ponuda ${q.number}` }).waitFor();
      assert.deepEqual(await seriousViolations(page), []);
      assert.equal(await scrollsSideways(page), false, 'nothing scrolls sideways at 390 px');
      fs.mkdirSync(SCREENS, { recursive: true });
      await page.screenshot({ path: path.join(SCREENS, 'customer-quote-phone.png'), fullPage: true });

      // An empty name is refused with the message at the field, focus kept on the form.
      await tabTo(page, 'f-name');
      await page.keyboard.press('Enter');
      assert.equal(
        await page.evaluate(() => document.activeElement?.id),
        'f-name',
        'the browser keeps the required field',
      );

      await page.keyboard.type('Ana Kovač');
      await page.keyboard.press('Tab');
      await page.keyboard.type('NAR-2026-118');
      await page.keyboard.press('Tab');
      await page.keyboard.type('Dostava u petak, molim.');
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Prihvaćam ponudu');
      await Promise.all([page.waitForURL(`${hub.base}/q/${link.token}`), page.keyboard.press('Enter')]);
      await page.getByRole('status').filter({ hasText: 'Prihvatili ste ovu ponudu' }).waitFor();
      assert.equal(await page.locator('form').count(), 0, 'no second answer offered');
      assert.deepEqual(await seriousViolations(page), []);
      await page.screenshot({ path: path.join(SCREENS, 'customer-quote-accepted.png'), fullPage: true });
    });
    const status = (await hub.app.c.quotations.get(hub.tenant.companyId, q.id)).status;
    assert.equal(status, 'accepted');
  });

  test('decline with a reason; a refused empty reason names the field; an unknown link says so', async (t) => {
    const q = await newQuotation(hub.app.app, hub.tenant);
    const link = await quotationLink(hub.app, hub.tenant.companyId, q.id, 'en');
    await withPage(t, browser, async (page) => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${hub.base}/q/${link.token}`);
      // Whitespace passes the browser's `required` but not the server: the message is at the field.
      await page.getByLabel('Why are you declining?').fill('   ');
      await page.getByRole('button', { name: 'Decline the quotation' }).click();
      await page.getByText('Please fill this in.').waitFor();
      assert.equal(await page.getByLabel('Why are you declining?').getAttribute('aria-invalid'), 'true');
      assert.deepEqual(await seriousViolations(page), []);
      await page.getByLabel('Why are you declining?').fill('We found it closer to home.');
      await page.getByRole('button', { name: 'Decline the quotation' }).click();
      await page.getByRole('status').filter({ hasText: 'You declined this quotation' }).waitFor();

      const unknown = await page.goto(`${hub.base}/q/${'x'.repeat(43)}`);
      assert.equal(unknown?.status(), 404);
      await page.getByRole('heading', { level: 1 }).waitFor();
      assert.deepEqual(await seriousViolations(page), []);
    });
  });
});
