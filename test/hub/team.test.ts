// test-engines: sqlite
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { signIn, withPage, type HubServer, openHubInBrowser, closeHubInBrowser } from '../support/browser.ts';

const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Serious or critical axe-core violations of the page as it is now (evaluated over CDP, which the CSP does not govern). */
async function axeProblems(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const result = await page.evaluate(async () =>
    (globalThis as any).axe.run(document, { resultTypes: ['violations'] }),
  );
  return (result.violations as Array<{ id: string; impact: string; nodes: unknown[] }>)
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.nodes.length})`);
}

describe('hub team (Chromium)', () => {
  let browser: Browser;
  let hub: HubServer;
  before(async () => ({ browser, hub } = await openHubInBrowser()));
  after(() => closeHubInBrowser(browser, hub));

  test("an admin resets a staff user's password; the staff user sets a new one through the link and signs in with it", async (t) => {
    const admin = hub.user('admin');
    const staff = hub.user('staff');
    let link = '';
    await withPage(t, browser, async (page) => {
      await signIn(page, hub.base, admin);
      await page.getByRole('link', { name: 'Tim' }).click();
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Tim');
      assert.deepEqual(await axeProblems(page), [], 'team page');
      await page
        .getByRole('row', { name: /Marija Babić/ })
        .getByRole('button', { name: /Nova lozinka/ })
        .click();
      link = (await page.locator('#reset-link').textContent())!.trim();
      assert.match(link, /^http:\/\/127\.0\.0\.1:\d+\/hub\/reset\/[\w-]{40,}$/);
      assert.ok(await page.getByRole('button', { name: 'Kopiraj poveznicu' }).isVisible(), 'a copy button beside it');
      await page.goto(`${hub.base}/hub/team`);
      assert.equal(await page.locator('#reset-link').count(), 0, 'shown once only');
      for (const path of ['/hub/account', '/hub/company']) {
        await page.goto(`${hub.base}${path}`);
        assert.deepEqual(await axeProblems(page), [], path);
      }
    });

    await withPage(t, browser, async (page) => {
      await page.goto(link);
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Set a new password');
      assert.deepEqual(await axeProblems(page), [], 'reset page');
      await page.getByLabel('New password').fill('marijina nova lozinka');
      await page.getByRole('button', { name: 'Set password' }).click();
      await page.waitForURL(/\/hub\/reset-done$/);
      await page.getByRole('link', { name: 'Sign in' }).click();
      await signIn(page, hub.base, { email: staff.email, password: 'marijina nova lozinka' });
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Danas');

      await page.goto(link);
      assert.equal(
        await page.getByRole('alert').textContent(),
        'This link has already been used.',
        'the link worked once',
      );
    });
  });
});
