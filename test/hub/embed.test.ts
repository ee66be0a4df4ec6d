// test-engines: sqlite
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { closeHubInBrowser, openHubInBrowser, signIn, withPage, type HubServer } from '../support/browser.ts';
import { bearer } from '../support/test-app.ts';

/** A shop's web page on its own origin (another loopback port), with the embed on it. */
async function shopPage(html: (origin: string) => string): Promise<{ origin: string; close(): Promise<void> }> {
  let origin = '';
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html(origin));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('the drop-in contact form on a shop page (Chromium)', () => {
  let browser: Browser;
  let hub: HubServer;
  before(async () => ({ browser, hub } = await openHubInBrowser({ PROOF_OF_WORK_MAX_NUMBER: '2000' })));
  after(() => closeHubInBrowser(browser, hub));

  const page = (key: string) => () =>
    `<!doctype html><html lang="hr"><head><title>Trgovina</title></head><body><main><h1>Trgovina bojama</h1>
<script src="${hub.base}/embed/contact.js" data-key="${key}" data-topic="Web"></script></main></body></html>`;

  async function publishableKey(origin: string): Promise<string> {
    const res = await hub.app.app.inject({
      method: 'POST',
      url: '/api/v1/admin/api-keys',
      headers: bearer(hub.tenant.adminToken),
      payload: { locationId: hub.tenant.locations[0]!.id, name: 'Web', kind: 'publishable', allowedOrigins: [origin] },
    });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data.key;
  }

  const stored = async (subject: string) =>
    (await hub.app.c.inquiries.list(hub.tenant.companyId, { limit: 50 })).filter((i) => i.subject === subject);

  test('a page on an allowed origin shows the form in its language, shows field errors, sends, and says thank you', async (t) => {
    let shop: { origin: string; close(): Promise<void> } | undefined;
    const keyed = { key: '' };
    shop = await shopPage(() => page(keyed.key)());
    try {
      keyed.key = await publishableKey(shop.origin);
      await withPage(t, browser, async (p, context) => {
        await p.goto(shop!.origin);
        const form = p.getByRole('form', { name: 'Kontaktirajte nas' });
        await form.waitFor();
        await p.getByLabel('Ime (neobavezno)').fill('Ana Kovač');
        await p.getByLabel('E-pošta').fill('ana@');
        await p.getByLabel('Telefon').fill('+385 1 234 5678');
        await p.getByLabel('Predmet').fill('Boja za drvo 5 L');
        await p.getByLabel('Poruka').fill('Imate li orah u 5 L?');
        await p.getByRole('button', { name: 'Pošalji' }).click();
        // The API's details, shown at their field.
        const email = p.getByLabel('E-pošta');
        await p.locator('[aria-invalid="true"]').first().waitFor();
        assert.equal(await email.getAttribute('aria-invalid'), 'true');
        const describedBy = await email.getAttribute('aria-describedby');
        assert.ok(describedBy && (await p.locator(`#${describedBy}`).textContent())!.length > 0);
        assert.equal((await stored('Boja za drvo 5 L')).length, 0);

        await email.fill('ana.kovac@example.com');
        await p.getByRole('button', { name: 'Pošalji' }).click();
        await p.getByText('Hvala! Vaša je poruka poslana').waitFor();
        const [inquiry] = await stored('Boja za drvo 5 L');
        assert.ok(inquiry, 'stored in the inbox, not the spam folder: the proof of work was solved');
        assert.equal(inquiry.topic, 'Web');
        assert.equal(inquiry.name, 'Ana Kovač');
        assert.deepEqual(await context.cookies(), [], 'no cookie anywhere');
      });
    } finally {
      await shop.close();
    }
  });

  test('a page on an origin the key does not list cannot send', async (t) => {
    const allowed = await shopPage(() => '');
    const keyed = { key: '' };
    const third = await shopPage(() => page(keyed.key)());
    try {
      keyed.key = await publishableKey(allowed.origin);
      await withPage(t, browser, async (p) => {
        await p.goto(third.origin);
        await p.getByLabel('E-pošta').fill('ana.kovac@example.com');
        await p.getByLabel('Telefon').fill('+385 1 234 5678');
        await p.getByLabel('Predmet').fill('Iz tuđe stranice');
        await p.getByLabel('Poruka').fill('Ne smije proći.');
        await p.getByRole('button', { name: 'Pošalji' }).click();
        await p.getByText('Poruku nije bilo moguće poslati').waitFor();
      });
      assert.equal((await stored('Iz tuđe stranice')).length, 0);
      const spam = await hub.app.c.inquiries.list(hub.tenant.companyId, { limit: 50 }, { folder: 'spam' });
      assert.ok(!spam.some((i) => i.subject === 'Iz tuđe stranice'));
    } finally {
      await allowed.close();
      await third.close();
    }
  });

  test('staff make a publishable key in the developer settings, see what the spam folder caught, release it, and see test data only behind the switch', async (t) => {
    const server = hub.tenant.locations[0]!.apiKey;
    const testKey = (
      await hub.app.c.apiKeys.createApiKey(hub.tenant.companyId, {
        locationId: hub.tenant.locations[0]!.id,
        name: 'T',
        mode: 'test',
      })
    ).key;
    await hub.app.c.inquiries.create(
      { companyId: hub.tenant.companyId, locationId: hub.tenant.locations[0]!.id, apiKeyId: 'x' },
      {
        topic: 'Web',
        subject: 'Caught by mistake',
        message: 'Real person',
        email: 'a@example.com',
        phone: '+385 1 234 5678',
      },
      { spamReason: 'proof_of_work' },
    );
    const inquiry = (subject: string, key: string) =>
      hub.app.app.inject({
        method: 'POST',
        url: '/api/v1/public/reach-out',
        headers: bearer(key),
        payload: { topic: 'Web', subject, message: 'm', email: 'a@example.com', phone: '+385 1 234 5678' },
      });
    assert.equal((await inquiry('A test inquiry', testKey)).statusCode, 201);
    assert.equal((await inquiry('A live inquiry', server)).statusCode, 201);

    await withPage(t, browser, async (p) => {
      await signIn(p, hub.base, hub.user('admin'));
      await p.goto(`${hub.base}/hub/developer`);
      await p.getByLabel('Naziv').fill('Ključ trgovine');
      await p.getByLabel('Vrsta').selectOption('publishable');
      await p.getByLabel('Dopušteni izvori (javni ključevi, jedan po retku)').fill('https://shop.example.com');
      await p.getByRole('button', { name: 'Izradi ključ' }).click();
      assert.match((await p.locator('.secret').textContent())!.trim(), /^ptc_pub_key_/);
      await p.goto(`${hub.base}/hub/developer`);
      const row = p.getByRole('row').filter({ hasText: 'Ključ trgovine' });
      assert.match((await row.textContent())!, /https:\/\/shop\.example\.com/);

      await p.goto(`${hub.base}/hub/inquiries`);
      assert.ok(await p.getByRole('link', { name: 'A live inquiry' }).isVisible());
      assert.equal(await p.getByRole('link', { name: 'A test inquiry' }).count(), 0, 'test data is behind the switch');
      assert.equal(await p.getByRole('link', { name: 'Caught by mistake' }).count(), 0, 'spam is in its folder');
      await p.getByLabel('Testni podaci').check();
      await p.getByRole('button', { name: 'Traži' }).click();
      await p.getByRole('link', { name: 'A test inquiry' }).waitFor();
      assert.equal(await p.getByRole('link', { name: 'A live inquiry' }).count(), 0);

      await p.goto(`${hub.base}/hub/inquiries`);
      await p.getByRole('link', { name: 'Mapa neželjenih' }).click();
      await p.getByRole('link', { name: 'Caught by mistake' }).click();
      await p.getByRole('button', { name: 'Nije neželjeno: propusti' }).click();
      await p.getByRole('status').filter({ hasText: 'Propušteno' }).waitFor();
      await p.goto(`${hub.base}/hub/inquiries`);
      assert.ok(await p.getByRole('link', { name: 'Caught by mistake' }).isVisible(), 'released into the inbox');
    });
  });
});
