// test-engines: sqlite
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { signIn, withPage, type HubServer, openHubInBrowser, closeHubInBrowser, startHub } from '../support/browser.ts';
import { createTenant } from '../support/test-app.ts';
import { pdfText } from '../support/quote-helpers.ts';
import { createQuote, eventually } from '../support/webhook-helpers.ts';
import { startWebhookReceiver } from '../support/webhook-receiver.ts';

const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's violations on the page as it is (evaluated over CDP, which the page's CSP does not govern). */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const result = await page.evaluate(async () =>
    (
      globalThis as unknown as {
        axe: { run(): Promise<{ violations: Array<{ id: string; nodes: Array<{ target: unknown }> }> }> };
      }
    ).axe.run(),
  );
  return result.violations.map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);
}

/** The CSRF token a signed-in page carries for htmx (on <body>): what a forged form would need. */
async function csrfOf(page: Page): Promise<string> {
  const headers = await page.locator('body').getAttribute('hx-headers');
  return (JSON.parse(headers!) as { 'x-csrf-token': string })['x-csrf-token'];
}

describe('hub developer settings (Chromium)', () => {
  let browser: Browser;
  let hub: HubServer;
  before(async () => ({ browser, hub } = await openHubInBrowser()));
  after(() => closeHubInBrowser(browser, hub));

  test('an API key made in the hub works on the public API at once, and is refused right after it is revoked', async (t) => {
    await withPage(t, browser, async (page) => {
      await signIn(page, hub.base, hub.user('admin'));
      await page.goto(`${hub.base}/hub/developer`);
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'API ključevi');
      await page.getByLabel('Poslovnica').selectOption(hub.tenant.locations[1]!.id);
      await page.getByLabel('Naziv').fill('Web-trgovina čćžšđ');
      await page.getByRole('button', { name: 'Izradi ključ' }).click();
      const key = (await page.locator('.secret').textContent())!.trim();
      assert.ok(await page.locator('button[data-copy="new-key"]').isVisible(), 'the key has a copy button');

      const call = () => fetch(`${hub.base}/api/v1/public/products`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal((await call()).status, 200, 'the new key works on the public API at once');

      // Reloaded, the list no longer shows the key itself: it was shown once.
      await page.goto(`${hub.base}/hub/developer`);
      assert.equal(await page.locator('.secret').count(), 0);
      assert.ok(!(await page.content()).includes(key));
      const row = page.getByRole('row').filter({ hasText: 'Web-trgovina čćžšđ' });
      page.once('dialog', (dialog) => void dialog.accept());
      await row.getByRole('button', { name: 'Opozovi' }).click();
      await page.getByRole('status').filter({ hasText: 'opozvan' }).waitFor();
      assert.match((await row.textContent())!, /Opozvan/);
      assert.equal((await call()).status, 401, 'the revoked key is refused on the next call');
    });
  });

  test("a webhook to a real receiver: the test ping shows the receiver's answer inline, and plain POST works too", async (t) => {
    const receiver = await startWebhookReceiver({
      respond: () => ({ status: 202, headers: { 'content-type': 'text/plain' }, body: 'pong from the receiver' }),
    });
    try {
      await withPage(t, browser, async (page) => {
        await signIn(page, hub.base, hub.user('admin'));
        await page.goto(`${hub.base}/hub/developer/webhooks`);
        const form = page
          .locator('section')
          .filter({ has: page.getByRole('heading', { name: 'Novo HTTP odredište' }) });
        await form.getByLabel('URL').fill(`${receiver.url}/hooks`);
        await form.getByLabel('quote.created').check();
        await form.getByRole('button', { name: 'Dodaj odredište' }).click();
        // The generated secret is shown once, then the endpoint's page has only its hint.
        const secret = (await page.locator('.secret').textContent())!.trim();
        assert.match(secret, /^whsec_/);
        await page.getByRole('link', { name: 'Otvori odredište' }).click();
        assert.ok(!(await page.content()).includes(secret), 'the secret is not shown again');

        await page.getByRole('button', { name: 'Pošalji probni ping' }).click();
        const result = page.locator('#ping-result');
        await result.getByText('pong from the receiver').waitFor();
        assert.match((await result.textContent())!, /HTTP 202/);
        assert.equal(receiver.requests.length, 1);
        assert.equal(receiver.requests[0]!.path, '/hooks');
        assert.match(receiver.requests[0]!.body, /"ping"/);
        assert.match(page.url(), /\/hub\/developer\/webhooks\/[^/?]+$/, 'htmx kept the page; no navigation');

        // Without htmx the same form posts and redirects back with the status.
        const endpointUrl = page.url();
        const response = await page.request.post(`${endpointUrl}/ping`, {
          form: { _csrf: await csrfOf(page) },
          headers: { origin: hub.base },
          maxRedirects: 0,
        });
        assert.equal(response.status(), 303);
        assert.match(response.headers().location!, /\?ping=202$/);
        assert.equal(receiver.requests.length, 2);
      });
    } finally {
      await receiver.close();
    }
  });

  test('a support user gets 403 on the developer pages and on a forged POST with their own valid token', async (t) => {
    await withPage(t, browser, async (page) => {
      await signIn(page, hub.base, hub.user('support'));
      assert.equal(
        await page.getByRole('link', { name: 'Postavke za razvojne programere' }).count(),
        0,
        'not in their navigation',
      );
      const csrf = await csrfOf(page);
      const shown = await page.goto(`${hub.base}/hub/developer`);
      assert.equal(shown!.status(), 403);
      const before = (await hub.app.c.apiKeys.listApiKeys(hub.tenant.companyId)).length;
      const forged = await page.request.post(`${hub.base}/hub/developer/api-keys`, {
        form: { _csrf: csrf, locationId: hub.tenant.locations[0]!.id, name: 'sneaky' },
        headers: { origin: hub.base },
        maxRedirects: 0,
      });
      assert.equal(forged.status(), 403);
      assert.equal((await hub.app.c.apiKeys.listApiKeys(hub.tenant.companyId)).length, before, 'no key was made');
    });
  });

  test('the print preview is a PDF of a sample quotation with the header as typed, before saving', async (t) => {
    await withPage(t, browser, async (page) => {
      await signIn(page, hub.base, hub.user('admin'));
      await page.goto(`${hub.base}/hub/developer/print`);
      const frame = page.locator('iframe.pdf');
      await page.getByLabel('Zaglavlje').fill('Ponuda {number} – Šišić boje, hvala!');
      await page.waitForFunction(() => document.querySelector('iframe.pdf')?.getAttribute('src')?.includes('hvala'));
      const src = (await frame.getAttribute('src'))!;
      const response = await page.request.get(new URL(src, hub.base).toString());
      assert.equal(response.status(), 200);
      assert.equal(response.headers()['content-type'], 'application/pdf');
      const text = await pdfText(await response.body());
      assert.match(text, /Ponuda Q-SAMPLE-0001 – Šišić boje, hvala!/);
      const company = await hub.app.c.companies.getCompany(hub.tenant.companyId);
      assert.notEqual(company.template.header, 'Ponuda {number} – Šišić boje, hvala!', 'the preview saved nothing');
    });
  });

  test('every developer page passes axe-core, with a validation error shown too', async (t) => {
    await withPage(t, browser, async (page) => {
      await signIn(page, hub.base, hub.user('admin'));
      const endpoint = await hub.app.c.endpoints.create(hub.tenant.companyId, {
        kind: 'telegram',
        botToken: '123456:ABCDEFGHIJKLMNOPQRSTUVWXYZ',
        chatId: '-100123',
      });
      for (const path of [
        '/hub/developer',
        '/hub/developer/webhooks',
        `/hub/developer/webhooks/${endpoint.id}`,
        '/hub/developer/catalog-scope',
        '/hub/developer/print',
      ]) {
        await page.goto(`${hub.base}${path}`);
        assert.deepEqual(await axeViolations(page), [], path);
      }
      // A bad IBAN: the form comes back with the message by the field, status 400, nothing saved.
      await page.getByLabel('IBAN').fill('HR00 1234');
      await page.getByLabel('Vlasnik računa').fill('Šišić boje d.o.o.');
      const answer = page.waitForResponse(
        (r) => r.url().endsWith('/hub/developer/print') && r.request().method() === 'POST',
      );
      await page.getByRole('button', { name: 'Spremi' }).click();
      assert.equal((await answer).status(), 400);
      assert.equal(await page.getByLabel('IBAN').getAttribute('aria-invalid'), 'true');
      assert.ok(await page.locator('#print-iban-error').isVisible());
      assert.deepEqual(await axeViolations(page), [], 'print form with errors');
      // And the webhook form with a bad URL.
      await page.goto(`${hub.base}/hub/developer/webhooks`);
      const form = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Novo HTTP odredište' }) });
      await form.getByLabel('URL').fill('ftp://example.com/x');
      await form.getByRole('button', { name: 'Dodaj odredište' }).click();
      assert.equal(await form.getByLabel('URL').getAttribute('aria-invalid'), 'true');
      assert.deepEqual(await axeViolations(page), [], 'webhook form with errors');
    });
  });

  test('an endpoint is edited, re-enabled, its secret rotated (shown once) and deleted, all from its page', async (t) => {
    await withPage(t, browser, async (page) => {
      await signIn(page, hub.base, hub.user('admin'));
      const c = hub.app.c;
      const endpoint = await c.endpoints.create(hub.tenant.companyId, {
        kind: 'http',
        url: 'http://127.0.0.1:9/old',
        secret: 'an-old-secret-of-16+',
      });
      await c.endpoints.update(hub.tenant.companyId, endpoint.id, { enabled: false });
      await page.goto(`${hub.base}/hub/developer/webhooks/${endpoint.id}`);
      assert.ok(!(await page.content()).includes('an-old-secret-of-16+'), 'the stored secret never appears');

      await page.getByLabel('URL').fill('http://127.0.0.1:9/new');
      await page.getByLabel('Opis').fill('Skladište');
      await page.getByRole('button', { name: 'Spremi' }).click();
      await page.getByRole('status').filter({ hasText: 'spremljeno' }).waitFor();
      let stored = await c.endpoints.get(hub.tenant.companyId, endpoint.id);
      assert.equal(stored.url, 'http://127.0.0.1:9/new');
      assert.equal(stored.description, 'Skladište');
      assert.equal(stored.secretHint, endpoint.secretHint, 'a blank secret field keeps the secret');

      await page.getByRole('button', { name: 'Ponovno uključi' }).click();
      await page.getByRole('status').filter({ hasText: 'ponovno uključeno' }).waitFor();
      assert.equal((await c.endpoints.get(hub.tenant.companyId, endpoint.id)).enabled, true);

      page.once('dialog', (dialog) => void dialog.accept());
      await page.getByRole('button', { name: 'Zamijeni tajnu' }).click();
      const secret = (await page.locator('.secret').textContent())!.trim();
      assert.match(secret, /^whsec_/);
      stored = await c.endpoints.get(hub.tenant.companyId, endpoint.id);
      assert.notEqual(stored.secretHint, endpoint.secretHint);

      await page.goto(`${hub.base}/hub/developer/webhooks/${endpoint.id}`);
      page.once('dialog', (dialog) => void dialog.accept());
      await page.getByRole('button', { name: 'Obriši odredište' }).click();
      await page.getByRole('status').filter({ hasText: 'obrisano' }).waitFor();
      assert.equal(
        (await c.endpoints.list(hub.tenant.companyId)).some((e) => e.id === endpoint.id),
        false,
      );
      const gone = await page.goto(`${hub.base}/hub/developer/webhooks/${endpoint.id}`);
      assert.equal(gone!.status(), 404);
    });
  });

  test('the catalog scope is chosen from lists, and the preview shows exactly what a chosen key gets from the public API', async (t) => {
    await withPage(t, browser, async (page) => {
      await signIn(page, hub.base, hub.user('admin'));
      const [first, second] = hub.tenant.products;
      await page.goto(`${hub.base}/hub/developer/catalog-scope`);
      await page.getByRole('radio', { name: 'Odabrane proizvode' }).check();
      await page.getByLabel('Proizvodi', { exact: true }).selectOption([first!.id, second!.id]);
      await page.getByRole('button', { name: 'Spremi' }).click();
      await page.getByRole('status').filter({ hasText: 'spremljen' }).waitFor();
      assert.deepEqual(await hub.app.c.catalogScope.get(hub.tenant.companyId), {
        kind: 'products',
        ids: [first!.id, second!.id],
      });

      const key = hub.tenant.locations[0]!;
      await page.getByLabel('API ključ', { exact: true }).selectOption({ label: `Website (${key.code})` });
      const preview = page.locator('#scope-preview');
      await preview.locator('tbody tr').first().waitFor();
      const shown = await preview.locator('tbody tr td:first-child').allTextContents();
      const api = (await (
        await fetch(`${hub.base}/api/v1/public/products?limit=100`, {
          headers: { authorization: `Bearer ${key.apiKey}` },
        })
      ).json()) as { data: Array<{ name: string }> };
      assert.deepEqual(
        shown,
        api.data.map((p) => p.name),
        'the preview lists what the public API lists for the key',
      );
      assert.deepEqual([...shown].sort(), [first!.name, second!.name].sort());

      await page.getByRole('radio', { name: 'Cijeli katalog' }).check();
      await page.getByRole('button', { name: 'Spremi' }).click();
      await page.getByRole('status').filter({ hasText: 'spremljen' }).waitFor();
      assert.equal((await hub.app.c.catalogScope.get(hub.tenant.companyId)).kind, 'all');
    });
  });

  test("another company's admin finds neither the endpoint nor the key: 404, and nothing changes", async (t) => {
    const other = await createTenant(hub.app.c, { passwords: true });
    const endpoint = await hub.app.c.endpoints.create(hub.tenant.companyId, {
      kind: 'http',
      url: 'http://127.0.0.1:9/mine',
    });
    const key = (await hub.app.c.apiKeys.listApiKeys(hub.tenant.companyId)).find((k) => k.revokedAt === null)!;
    await withPage(t, browser, async (page) => {
      const admin = other.users.find((u) => u.role === 'admin')!;
      await signIn(page, hub.base, { email: admin.email, password: admin.password! });
      assert.equal((await page.goto(`${hub.base}/hub/developer/webhooks/${endpoint.id}`))!.status(), 404);
      const csrf = await csrfOf(page);
      for (const path of [
        `/hub/developer/api-keys/${key.id}/revoke`,
        `/hub/developer/webhooks/${endpoint.id}/delete`,
        `/hub/developer/webhooks/${endpoint.id}/ping`,
      ]) {
        const answer = await page.request.post(`${hub.base}${path}`, {
          form: { _csrf: csrf },
          headers: { origin: hub.base },
          maxRedirects: 0,
        });
        assert.equal(answer.status(), 404, path);
      }
      assert.equal(
        (await hub.app.c.apiKeys.listApiKeys(hub.tenant.companyId)).find((k) => k.id === key.id)!.revokedAt,
        null,
      );
      assert.ok(await hub.app.c.endpoints.get(hub.tenant.companyId, endpoint.id));
    });
  });

  test('a failed delivery is in the log with every attempt, and redelivering it from the hub delivers it', async (t) => {
    // Its own server with the delivery worker running and one quick retry.
    const live = await startHub({ WEBHOOK_RETRY_DELAYS_MS: '10' }, { startWorkers: true });
    const receiver = await startWebhookReceiver({
      respond: (_request, n) => (n <= 2 ? { status: 503, body: 'busy' } : { status: 200, body: 'ok' }),
    });
    try {
      const { companyId } = live.tenant;
      const endpoint = await live.app.c.endpoints.create(companyId, {
        kind: 'http',
        url: `${receiver.url}/in`,
        events: ['quote.created'],
      });
      await createQuote(live.app, live.tenant);
      await eventually(
        async () => (await live.app.c.endpoints.deliveries(companyId, endpoint.id, 10))[0]?.status === 'failed',
      );
      await withPage(t, browser, async (page) => {
        await signIn(page, live.base, live.user('admin'));
        await page.goto(`${live.base}/hub/developer/webhooks/${endpoint.id}`);
        const row = page.getByRole('row').filter({ hasText: 'Neuspjelo' });
        assert.equal(await row.getByRole('listitem').count(), 2, 'both attempts listed');
        assert.match((await row.textContent())!, /HTTP 503/);
        await row.getByRole('button', { name: 'Isporuči ponovno' }).click();
        await page.getByRole('status').filter({ hasText: 'ponovno u redu' }).waitFor();
        await eventually(
          async () => (await live.app.c.endpoints.deliveries(companyId, endpoint.id, 10))[0]?.status === 'delivered',
        );
        await page.reload();
        const delivered = page.getByRole('row').filter({ hasText: 'Isporučeno' });
        assert.equal(await delivered.getByRole('listitem').count(), 3);
        assert.match((await delivered.textContent())!, /HTTP 200/);
      });
    } finally {
      await receiver.close();
      await live.close();
    }
  });
});
