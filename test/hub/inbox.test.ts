// test-engines: sqlite
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { signIn, withPage, type HubServer, openHubInBrowser, closeHubInBrowser } from '../support/browser.ts';
import { validReachOut } from '../support/http-helpers.ts';
import { newOrder, newQuotation } from '../support/sales-helpers.ts';
import { createTenant } from '../support/test-app.ts';

const PHOTO_URL = 'https://shop.example.com/images/boja-5l.jpg';
// A 1×1 PNG, served in place of the shop's photo: the test reaches nothing beyond loopback.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core over the page as shown (evaluated by the driver, so the page's CSP does not stop it): no serious or critical violations. */
async function assertAccessible(page: Page): Promise<void> {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const result = await (
      window as unknown as {
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

/** Only the hub itself is reached; a request for the inquiry's photo URL (a tracking pixel) is counted. */
const pixelRequests: string[] = [];
async function loopbackOnly(context: BrowserContext, base: string): Promise<void> {
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url === PHOTO_URL) {
      pixelRequests.push(url);
      return route.fulfill({ status: 200, contentType: 'image/png', body: PNG });
    }
    return url.startsWith(base) ? route.continue() : route.abort();
  });
}

describe('hub inbox: Today, inquiries, notifications (Chromium)', () => {
  let browser: Browser;
  let hub: HubServer;
  before(async () => ({ browser, hub } = await openHubInBrowser()));
  after(() => closeHubInBrowser(browser, hub));

  test('an inquiry from the website shows in the header count live, opens with its photo, is marked handled; Today counts it', async (t) => {
    await withPage(t, browser, async (page, context) => {
      await loopbackOnly(context, hub.base);
      await signIn(page, hub.base, hub.user('support'));
      const badge = page.locator('#unread');
      // The badge's first fetch has answered (empty: nothing unread yet).
      await page.waitForResponse((r) => r.url().endsWith('/hub/notifications/count'));
      assert.equal(await badge.textContent(), '');
      assert.equal(await page.locator('#card-webhooks').count(), 0, 'support cannot manage webhooks: no card');

      const subject = `Boja za drvo 5 L? ${Date.now()}`;
      const res = await fetch(`${hub.base}/api/v1/public/reach-out`, {
        method: 'POST',
        headers: { authorization: `Bearer ${hub.tenant.locations[0]!.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(validReachOut({ subject, name: 'Ana Kovač', productPhotoUrl: PHOTO_URL })),
      });
      const answer = await res.text();
      assert.equal(res.status, 201, answer);
      const inquiryId = (JSON.parse(answer) as { data: { id: string } }).data.id;

      // No reload: the header polls every 15 s.
      await page.waitForFunction(() => document.querySelector('#unread')?.textContent === '1', null, {
        timeout: 20_000,
        polling: 250,
      });
      assert.match(page.url(), /\/hub$/);

      await page.reload();
      assert.match((await page.locator('#card-inquiries').textContent())!, /Na čekanju: 1/);
      assert.match(
        (await page.locator('#card-inquiries').textContent())!,
        new RegExp(subject.replace(/[?.]/g, '\\$&')),
      );

      await page.getByRole('link', { name: 'Obavijesti' }).click();
      await page.waitForURL(/\/hub\/notifications$/);
      // Stored as its kind and parameters, said in the reader's language; a row from before 0012 as written.
      const mine = page.locator('.notifications li', { hasText: subject });
      assert.match((await mine.textContent())!, new RegExp(`Novi upit: ${subject.replace(/[?.]/g, '\\$&')}`));
      assert.match((await mine.textContent())!, /piše o temi "/);
      await hub.app.c.store.repos.notifications.insertNotifications([
        {
          id: `ntf_old${Date.now()}`,
          company_id: hub.tenant.companyId,
          user_id: hub.user('support').id,
          kind: 'inquiry.created',
          title: 'New inquiry: written before parameters were kept',
          body: 'Someone wrote about "Old".',
          subject_type: null,
          subject_id: null,
          read_at: null,
          created_at: new Date().toISOString(),
          message_params: null,
        },
      ]);
      await page.reload();
      assert.equal(
        await page
          .locator('.notifications li', { hasText: 'New inquiry: written before parameters were kept' })
          .count(),
        1,
      );
      await page
        .locator('.notifications li', { hasText: subject })
        .getByRole('link', { name: /^Otvori/ })
        .click();
      await page.waitForURL(new RegExp(`/hub/inquiries/${inquiryId}$`));
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), subject);
      // The photo is fetched by the server (off in tests: no traffic off this machine), never by
      // the staff's browser from the sender's server: shown as its link with the reason.
      assert.equal(
        await page.getByRole('img', { name: `Fotografija proizvoda poslana uz upit „${subject}”` }).count(),
        0,
      );
      assert.ok(await page.getByRole('link', { name: PHOTO_URL }).isVisible());
      assert.match((await page.locator('main').textContent())!, /još nije dohvaćena/);
      assert.deepEqual(pixelRequests, [], 'the staff browser never loads the photo from the sender');

      await page.getByRole('button', { name: 'Označi kao riješeno' }).click();
      await page.waitForURL(/\?notice=handled$/);
      assert.equal(await page.getByRole('status').textContent(), 'Upit je označen kao riješen.');
      assert.match((await page.locator('dl.facts').textContent())!, /Riješen/);
      assert.equal(await page.getByRole('button', { name: 'Označi kao riješeno' }).count(), 0);

      // Today: the handled inquiry no longer waits; a new quotation and web order do.
      await newQuotation(hub.app.app, hub.tenant, { name: 'Marko Horvat' });
      await newOrder(hub.app.app, hub.tenant, { name: 'Ivo Ivić' });
      await page.goto(`${hub.base}/hub`);
      assert.match((await page.locator('#card-inquiries').textContent())!, /Na čekanju: 0/);
      assert.match((await page.locator('#card-quotations').textContent())!, /Na čekanju: 1[\s\S]*Marko Horvat/);
      assert.match((await page.locator('#card-orders').textContent())!, /Na čekanju: 1[\s\S]*Ivo Ivić/);
      assert.match((await page.locator('#card-sales').textContent())!, /Na čekanju: 0[\s\S]*Ništa ne čeka\./);

      // Mark all read: the badge empties.
      await page.goto(`${hub.base}/hub/notifications`);
      await page.getByRole('button', { name: 'Označi sve kao pročitano' }).click();
      await page.waitForURL(/notice=all-read$/);
      await page.waitForResponse((r) => r.url().endsWith('/hub/notifications/count'));
      assert.equal(await badge.textContent(), '');
    });
  });

  test('the inquiry list filters by state and text; a bad date is a field error, not a failure', async (t) => {
    await withPage(t, browser, async (page, context) => {
      await loopbackOnly(context, hub.base);
      const key = hub.tenant.locations[0]!.apiKey;
      for (const subject of ['Lak za parket', 'Vijci M8']) {
        const res = await fetch(`${hub.base}/api/v1/public/reach-out`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify(validReachOut({ subject, topic: 'Stock' })),
        });
        assert.equal(res.status, 201);
      }
      await signIn(page, hub.base, hub.user('admin'));
      await page.goto(`${hub.base}/hub/inquiries`);
      await page.getByLabel('Naslov, e-pošta ili ime').fill('parket');
      await page.getByLabel('Stanje').selectOption('open');
      await page.getByRole('button', { name: 'Traži' }).click();
      await page.waitForURL(/q=parket/);
      const rows = page.locator('tbody tr');
      assert.equal(await rows.count(), 1);
      assert.match((await rows.first().textContent())!, /Lak za parket[\s\S]*Otvoren/);

      const response = await page.goto(`${hub.base}/hub/inquiries?from=2026-13-45`);
      assert.equal(response!.status(), 400);
      assert.equal(await page.getByLabel('Primljeno od').getAttribute('aria-invalid'), 'true');
      assert.equal(await page.locator('#f-from-error').textContent(), 'Upišite datum u obliku GGGG-MM-DD.');
      assert.equal(await page.locator('#card-webhooks').count(), 0);
      await assertAccessible(page);
      const healthy = await hub.app.c.endpoints.create(hub.tenant.companyId, {
        kind: 'http',
        url: 'http://127.0.0.1:9/healthy',
        description: 'Zdrav',
      });
      const off = await hub.app.c.endpoints.create(hub.tenant.companyId, {
        kind: 'http',
        url: 'http://127.0.0.1:9/off',
        description: 'Ugašen',
      });
      await hub.app.c.endpoints.update(hub.tenant.companyId, off.id, { enabled: false });
      await page.goto(`${hub.base}/hub`);
      const webhooks = page.locator('#card-webhooks');
      assert.match(
        (await webhooks.textContent())!,
        /Na čekanju: 1[\s\S]*Ugašen[\s\S]*Isključen/,
        'an admin sees the disabled endpoint',
      );
      assert.doesNotMatch((await webhooks.textContent())!, /Zdrav/);
      assert.equal(
        await webhooks.getByRole('link', { name: 'Ugašen' }).getAttribute('href'),
        `/hub/developer/webhooks/${off.id}`,
      );
      await hub.app.c.endpoints.remove(hub.tenant.companyId, healthy.id);
      await hub.app.c.endpoints.remove(hub.tenant.companyId, off.id);
      await assertAccessible(page);
      await page.goto(`${hub.base}/hub/inquiries`);
      await assertAccessible(page);
      await page.locator('tbody a').first().click();
      await page.waitForURL(/\/hub\/inquiries\/inq_/);
      await assertAccessible(page);
      await page.goto(`${hub.base}/hub/notifications`);
      await assertAccessible(page);
      const markOne = page.getByRole('button', { name: /^Označi kao pročitano/ });
      const unread = await markOne.count();
      assert.ok(unread >= 2, 'the admin was told of both inquiries');
      await markOne.first().click();
      await page.waitForURL(/notice=read$/);
      assert.equal(await page.getByRole('status').textContent(), 'Obavijest je označena kao pročitana.');
      assert.equal(await markOne.count(), unread - 1);
    });
  });

  test('staff see the inquiries (nav item, card, list, detail) but not the spam folder, and reopen none', async (t) => {
    await withPage(t, browser, async (page, context) => {
      await loopbackOnly(context, hub.base);
      const res = await fetch(`${hub.base}/api/v1/public/reach-out`, {
        method: 'POST',
        headers: { authorization: `Bearer ${hub.tenant.locations[0]!.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(validReachOut()),
      });
      const inquiryId = ((await res.json()) as { data: { id: string } }).data.id;
      await signIn(page, hub.base, hub.user('staff'));
      assert.equal(await page.getByRole('navigation').getByRole('link', { name: 'Upiti' }).count(), 1);
      assert.equal(await page.locator('#card-inquiries').count(), 1);
      assert.equal((await page.goto(`${hub.base}/hub/inquiries`))!.status(), 200);
      assert.equal(await page.getByRole('link', { name: 'Mapa neželjenih' }).count(), 0);
      assert.equal((await page.goto(`${hub.base}/hub/inquiries?folder=spam`))!.status(), 403);
      assert.equal((await page.goto(`${hub.base}/hub/inquiries/${inquiryId}`))!.status(), 200);
      const csrf = await page.locator('header input[name=_csrf]').getAttribute('value');
      const post = await page.request.post(`${hub.base}/hub/inquiries/${inquiryId}/reopen`, {
        headers: { origin: hub.base },
        form: { _csrf: csrf! },
      });
      assert.equal(post.status(), 403);
      // Staff get no inquiry notifications: the badge stays empty, the page is theirs to open.
      assert.equal((await page.goto(`${hub.base}/hub/notifications`))!.status(), 200);
    });
  });

  test("another company's inquiry is not found, and cannot be marked handled", async (t) => {
    const other = await createTenant(hub.app.c);
    const res = await fetch(`${hub.base}/api/v1/public/reach-out`, {
      method: 'POST',
      headers: { authorization: `Bearer ${other.locations[0]!.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(validReachOut()),
    });
    const foreignId = ((await res.json()) as { data: { id: string } }).data.id;
    await withPage(t, browser, async (page, context) => {
      await loopbackOnly(context, hub.base);
      await signIn(page, hub.base, hub.user('support'));
      assert.equal((await page.goto(`${hub.base}/hub/inquiries/${foreignId}`))!.status(), 404);
      await page.goto(`${hub.base}/hub/inquiries`);
      const csrf = await page.locator('header input[name=_csrf]').getAttribute('value');
      const post = await page.request.post(`${hub.base}/hub/inquiries/${foreignId}/handled`, {
        headers: { origin: hub.base },
        form: { _csrf: csrf! },
      });
      assert.equal(post.status(), 404);
      assert.equal((await hub.app.c.inquiries.get(other.companyId, foreignId)).handledAt, null);
    });
  });

  test('Today, the inquiry list and notifications make the same number of queries with 1 row or 8', async (t) => {
    await withPage(t, browser, async (page, context) => {
      await loopbackOnly(context, hub.base);
      const tenant = await createTenant(hub.app.c, { passwords: true });
      const admin = tenant.users.find((u) => u.role === 'admin')!;
      await signIn(page, hub.base, { email: admin.email, password: admin.password! });
      await page.goto('about:blank'); // no badge polling while counting

      // Every statement the app sends through its Kysely instance (the repositories use it), but
      // the session's own bookkeeping, which depends on the clock rather than on the page.
      const executor = hub.app.c.database.db.getExecutor() as unknown as {
        executeQuery: (q: { sql: string }, ...rest: unknown[]) => Promise<unknown>;
      };
      const original = executor.executeQuery;
      let count = 0;
      executor.executeQuery = function (this: unknown, q, ...rest) {
        if (!q.sql.includes('hub_sessions')) count++;
        return original.call(this, q, ...rest);
      };
      t.after(() => {
        executor.executeQuery = original;
      });
      const queriesOf = async (url: string) => {
        count = 0;
        const res = await page.request.get(`${hub.base}${url}`);
        assert.equal(res.status(), 200, url);
        return count;
      };
      const add = async (n: number) => {
        for (let i = 0; i < n; i++) {
          const res = await fetch(`${hub.base}/api/v1/public/reach-out`, {
            method: 'POST',
            headers: { authorization: `Bearer ${tenant.locations[0]!.apiKey}`, 'content-type': 'application/json' },
            body: JSON.stringify(validReachOut({ subject: `Upit ${i}` })),
          });
          assert.equal(res.status, 201);
          await newQuotation(hub.app.app, tenant);
          await newOrder(hub.app.app, tenant);
        }
      };
      const pages = ['/hub', '/hub/inquiries', '/hub/notifications'];
      await add(1);
      const few = [];
      for (const url of pages) few.push(await queriesOf(url));
      await add(7);
      const many = [];
      for (const url of pages) many.push(await queriesOf(url));
      assert.deepEqual(many, few, `queries per page ${pages.join(', ')}`);
      assert.ok(
        few.every((n) => n > 0 && n < 30),
        String(few),
      );
    });
  });
});
