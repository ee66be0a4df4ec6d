// test-engines: sqlite
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { Browser } from 'playwright-core';
import { signIn, withPage, type HubServer, openHubInBrowser, closeHubInBrowser } from '../support/browser.ts';

describe('hub sign-in (Chromium)', () => {
  let browser: Browser;
  let hub: HubServer;
  before(async () => ({ browser, hub } = await openHubInBrowser({ HUB_SIGN_IN_ATTEMPTS: '5' })));
  after(() => closeHubInBrowser(browser, hub));

  test('a wrong password gets one generic error; the right one opens Today; signing out ends the session', async (t) => {
    await withPage(t, browser, async (page, context) => {
      const admin = hub.user('admin');
      await page.goto(`${hub.base}/hub?from=bookmark`);
      assert.match(
        page.url(),
        /\/hub\/sign-in\?next=%2Fhub%3Ffrom%3Dbookmark$/,
        'a signed-out visit goes to sign-in, remembering where it was going',
      );
      await page.getByLabel('E-mail').fill(admin.email);
      await page.getByLabel('Password').fill('not the password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      assert.equal(await page.getByRole('alert').textContent(), 'The e-mail or password is wrong.');
      await page.getByLabel('E-mail').fill(`nobody-${Date.now()}@example.com`);
      await page.getByLabel('Password').fill('not the password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      assert.equal(
        await page.getByRole('alert').textContent(),
        'The e-mail or password is wrong.',
        'an unknown e-mail reads the same',
      );

      await signIn(page, hub.base, admin);
      assert.equal(
        await page.getByRole('heading', { level: 1 }).textContent(),
        'Danas',
        'the demo company is Croatian: the hub speaks its language',
      );
      const cookie = (await context.cookies()).find((c) => c.name === 'portico_session')!;
      assert.equal(cookie.httpOnly, true);
      assert.equal(cookie.sameSite, 'Lax');

      await page.getByRole('button', { name: 'Odjava' }).click();
      await page.waitForURL(/\/hub\/sign-in$/);
      // The old cookie no longer opens anything, even if it was copied before signing out.
      await context.addCookies([cookie]);
      await page.goto(`${hub.base}/hub`);
      assert.match(page.url(), /\/hub\/sign-in/);
    });
  });

  test('past too many failures for one e-mail the right password still signs in, held back, with the same words for every account', async (t) => {
    await withPage(t, browser, async (page) => {
      const support = hub.user('support');
      await page.goto(`${hub.base}/hub/sign-in`);
      for (let i = 0; i < 5; i++) {
        await page.getByLabel('E-mail').fill(support.email);
        await page.getByLabel('Password').fill(`guess ${i}`);
        await page.getByRole('button', { name: 'Sign in' }).click();
        assert.equal(await page.getByRole('alert').textContent(), 'The e-mail or password is wrong.');
      }
      await page.getByLabel('E-mail').fill(support.email);
      await page.getByLabel('Password').fill(support.password);
      const response = page.waitForResponse((r) => r.url().endsWith('/hub/sign-in') && r.request().method() === 'POST');
      const started = Date.now();
      await page.getByRole('button', { name: 'Sign in' }).click();
      assert.equal((await response).status(), 303, 'the right password is not refused');
      assert.ok(Date.now() - started >= 1000, 'but it waited its turn');
      await page.waitForURL(/\/hub$/);
    });
  });

  test('a forged cross-site form POST is refused and changes nothing', async (t) => {
    await withPage(t, browser, async (page, context) => {
      const staff = hub.user('staff');
      await signIn(page, hub.base, staff);
      // Another site (another origin on loopback) posts a form to the hub in the signed-in browser.
      const evil = http.createServer((_req, res) => {
        res.setHeader('content-type', 'text/html');
        res.end(
          `<form id="f" method="post" action="${hub.base}/hub/sign-out"><input name="x" value="1"></form><script>document.getElementById('f').submit()</script>`,
        );
      });
      await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
      try {
        const port = (evil.address() as { port: number }).port;
        const answer = page.waitForResponse((r) => r.url() === `${hub.base}/hub/sign-out`);
        // Same site (loopback, another port), so SameSite=Lax sends the cookie: the Origin check and the token must refuse it.
        await page.goto(`http://127.0.0.1:${port}/`);
        assert.equal((await answer).status(), 403);
        assert.match(await page.content(), /nije poslan s ove stranice/, "the refusal, in the user's language");
      } finally {
        evil.close();
      }
      await page.goto(`${hub.base}/hub`);
      assert.equal(new URL(page.url()).pathname, '/hub', 'still signed in: the forged sign-out did nothing');
      assert.ok((await context.cookies()).some((c) => c.name === 'portico_session'));
    });
  });
});
