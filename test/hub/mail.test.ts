// test-engines: sqlite
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, signIn, startHub, withPage, type HubServer } from '../support/browser.ts';
import { reachOut, validReachOut, waitFor } from '../support/http-helpers.ts';
import { newQuotation } from '../support/sales-helpers.ts';
import { pdfText, startMailServer } from '../support/mail-helpers.ts';

const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

async function assertAccessible(page: Page): Promise<void> {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run(doc: Document, opts: object): Promise<{ violations: Array<{ id: string; impact: string | null }> }>;
        };
      }
    ).axe;
    return (await axe.run(document, { iframes: false, resultTypes: ['violations'] })).violations;
  });
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
  assert.deepEqual(serious, [], `axe: ${serious.join(', ')}`);
}

describe('e-mail from the hub (Chromium, real SMTP)', () => {
  let browser: Browser;
  let hub: HubServer;
  let smtp: Awaited<ReturnType<typeof startMailServer>>;
  before(async () => {
    smtp = await startMailServer();
    browser = await launchBrowser();
    hub = await startHub(
      { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, SMTP_FROM: 'Šišić <prodaja@portico.test>' },
      { startWorkers: true },
    );
  });
  after(async () => {
    await browser?.close();
    await hub?.close();
    await smtp?.close();
  });

  test('staff send a quotation from its page with a message; the sending shows on the page, delivered', async (t) => {
    const q = await newQuotation(hub.app.app, hub.tenant, { name: 'Marko Horvat' });
    await withPage(t, browser, async (page) => {
      await signIn(page, hub.base, hub.user('staff'));
      await page.goto(`${hub.base}/hub/quotations/${q.id}`);
      await page.getByRole('heading', { name: 'Poslano e-poštom' }).waitFor();
      await page.getByRole('link', { name: 'Pošalji e-poštom' }).click();
      await assertAccessible(page);
      assert.match((await page.locator('#send-to-hint').textContent()) ?? '', /ana@example\.com/);
      await page.getByLabel('Osobna poruka (iznad teksta)').fill('Pozdrav Marko, šaljem ponudu za lazuru.');
      await page.getByRole('button', { name: 'Pošalji', exact: true }).click();
      await page.waitForURL(new RegExp(`/hub/quotations/${q.id}\\?notice=sent`));
      assert.equal(
        await page.getByRole('status').textContent(),
        'E-pošta je u redu za slanje; stanje je prikazano ispod.',
      );
      const mail = await waitFor('the e-mail', () => smtp.mails.find((m) => m.subject.includes(q.number)), 60_000);
      assert.match(mail.text, /^Pozdrav Marko, šaljem ponudu za lazuru\./);
      assert.match(pdfText(mail.attachments[0]!.content), new RegExp(q.number));
      await waitFor(
        'the page to show it delivered',
        async () => {
          await page.reload();
          return (await page.getByText('Predano poslužitelju pošte').count()) > 0 ? true : undefined;
        },
        60_000,
      );
      await assertAccessible(page);
    });
  });

  test('an admin writes the Croatian e-mail text: an unknown placeholder is refused at its field, then saved', async (t) => {
    await withPage(t, browser, async (page) => {
      await signIn(page, hub.base, hub.user('admin'));
      await page.goto(`${hub.base}/hub/developer/mail`);
      await assertAccessible(page);
      await page.getByLabel('Predmet (hrvatski)').fill('Ponuda {broj}');
      await page.getByLabel('Tekst (hrvatski)').fill('Poštovani {customerName}, u privitku je ponuda.');
      await page.getByRole('button', { name: 'Spremi' }).click();
      await page.getByText('Nepoznata oznaka {broj}', { exact: false }).waitFor();
      assert.equal(await page.getByLabel('Predmet (hrvatski)').getAttribute('aria-invalid'), 'true');
      await page.getByLabel('Predmet (hrvatski)').fill('Ponuda {number}');
      await page.getByRole('button', { name: 'Spremi' }).click();
      await page.waitForURL(/notice=saved/);
      assert.equal(await page.getByLabel('Predmet (hrvatski)').inputValue(), 'Ponuda {number}');
      await assertAccessible(page);
    });
  });

  test('support replies to an inquiry from its page: kept with the author, e-mailed, handled; then reopened', async (t) => {
    const made = await reachOut(
      hub.app.app,
      hub.tenant.locations[0]!.apiKey,
      validReachOut({ subject: 'Temeljna boja za metal?', email: 'ivan@example.com' }),
    );
    const id = made.json().data.id as string;
    await withPage(t, browser, async (page) => {
      await signIn(page, hub.base, hub.user('support'));
      await page.goto(`${hub.base}/hub/inquiries/${id}`);
      assert.equal(await page.getByRole('link', { name: 'Izradi ponudu' }).count(), 0, 'support makes no quotations');
      await page
        .getByLabel('Vaš odgovor (šalje se na ivan@example.com)')
        .fill('Imamo temeljnu boju za metal u sivoj i crvenoj.');
      await page.getByRole('button', { name: 'Pošalji odgovor' }).click();
      await page.waitForURL(/notice=replied/);
      await page.getByRole('heading', { name: 'Odgovori' }).waitFor();
      await assertAccessible(page);
      const mail = await waitFor(
        'the reply',
        () => smtp.mails.find((m) => m.rcptTo.includes('ivan@example.com')),
        60_000,
      );
      assert.equal(mail.subject, 'Re: Temeljna boja za metal?');
      await page.getByRole('button', { name: 'Ponovno otvori' }).click();
      await page.waitForURL(/notice=reopened/);
      assert.equal((await hub.app.c.inquiries.get(hub.tenant.companyId, id)).handledAt, null);
    });
    await withPage(t, browser, async (page) => {
      await signIn(page, hub.base, hub.user('admin'));
      await page.goto(`${hub.base}/hub/inquiries/${id}`);
      const make = page.getByRole('link', { name: 'Izradi ponudu' });
      assert.equal(await make.getAttribute('href'), `/hub/quotations/new?inquiryId=${id}`);
    });
  });
});
