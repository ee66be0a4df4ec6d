// test-engines: sqlite
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, signIn, startHub, withPage, type HubServer } from '../support/browser.ts';
import { reachOut, tokenForRole, validReachOut, waitFor } from '../support/http-helpers.ts';
import { adminCall, assignCustomer } from '../support/sales-helpers.ts';
import { quotationLink, startMailServer } from '../support/mail-helpers.ts';

const SCREENS = path.resolve('test-results', 'screens', 'shop');

async function screen(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENS, `${name}.png`), fullPage: true });
}

/** Text as read: the no-break spaces Intl puts in money and percentages as plain ones. */
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ').trim();

const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

/**
 * A day at a Croatian paint shop's counter, in Chromium (issue 34, items 3 to 5): the payment form
 * proposes what the invoice says, staff answer a web inquiry and take back their own wrong
 * receipt, the customer's page shows discount and VAT as the PDF does.
 */
describe('the shop at the counter (Chromium)', () => {
  let browser: Browser;
  let hub: HubServer;
  let smtp: Awaited<ReturnType<typeof startMailServer>>;
  before(async () => {
    smtp = await startMailServer();
    browser = await launchBrowser();
    hub = await startHub(
      { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, SMTP_FROM: 'Boje Šišić <prodaja@portico.test>' },
      { startWorkers: true },
    );
  });
  after(async () => {
    await browser?.close();
    await hub?.close();
    await smtp?.close();
  });

  /** A quotation made by staff with a 10 % discount on its first line, assigned to a business customer. */
  async function discountedQuotation() {
    const p = hub.tenant.products[0]!;
    const q = hub.tenant.products[4]!;
    const res = await adminCall(hub.app.app, hub.tenant.adminToken, 'POST', '/quotations', {
      customer: { name: 'Obrt Kovač', email: 'kovac@example.com' },
      lines: [
        { productId: p.id, unitId: p.units[0]!.id, quantity: 3, discountPercent: 10 },
        { productId: q.id, unitId: q.units[0]!.id, quantity: 1 },
      ],
    });
    assert.equal(res.statusCode, 201, res.body);
    const data = res.json().data as {
      id: string;
      number: string;
      lines: Array<{ unitPrice: string; net: string; tax: string; total: string }>;
      totals: { net: string; tax: string; withTax: string };
    };
    await assignCustomer(hub.app.app, hub.tenant, 'quotations', data.id);
    return data;
  }

  test("the customer's page shows unit price, discount, net, VAT and gross per line and in total", async (t) => {
    const q = await discountedQuotation();
    const link = await quotationLink(hub.app, hub.tenant.companyId, q.id, 'hr');
    const euro = (s: string) => `${s.replace('.', ',')} €`;
    await withPage(t, browser, async (page) => {
      for (const width of [1366, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`${hub.base}/q/${link.token}`);
        const table = page.locator('table.quote-lines');
        const headers = (await table.locator('thead th').allTextContents()).map(plain);
        assert.deepEqual(headers, ['Proizvod', 'Količina', 'Cijena', 'Popust', 'Neto', 'PDV %', 'PDV', 'Iznos']);
        const first = (await table.locator('tbody tr').first().locator('td').allTextContents()).map(plain);
        assert.equal(first[2], euro(q.lines[0]!.unitPrice), 'the unit price as listed');
        assert.equal(first[3], '10 %', 'the discount');
        assert.equal(first[4], euro(q.lines[0]!.net));
        assert.equal(first[5], '25 %');
        assert.equal(first[6], euro(q.lines[0]!.tax));
        assert.equal(first[7], euro(q.lines[0]!.total), 'the line after its discount, with VAT');
        const foot = plain(await page.locator('dl.quote-totals').innerText()).replace(/\s+/g, ' ');
        assert.match(foot, new RegExp(`Ukupno bez PDV-a ${euro(q.totals.net)}`));
        assert.match(foot, /PDV 25 % na osnovicu/);
        assert.match(foot, new RegExp(`Ukupno PDV ${euro(q.totals.tax)}`));
        assert.match(foot, new RegExp(`Ukupno ${euro(q.totals.withTax)}`));
        assert.equal(await scrollsSideways(page), false, `the page fits ${width} px (the table scrolls in its box)`);
        await screen(page, `customer-quote-${width}`);
      }
    });
  });

  test('the conversion preview compares like with like: a discounted quotation at unchanged prices is unchanged', async (t) => {
    const q = await discountedQuotation();
    await withPage(t, browser, async (page) => {
      await signIn(page, hub.base, hub.user('staff'));
      await page.goto(`${hub.base}/hub/quotations/${q.id}/conversion`);
      const facts = plain(await page.locator('dl.facts').innerText()).replace(/\s+/g, ' ');
      const total = `${q.totals.withTax.replace('.', ',')} €`;
      assert.equal(facts, `Ponuđeni iznos ${total} Iznos po današnjim cijenama ${total}`, 'both after the discount');
      assert.match(await page.locator('main').innerText(), /Nijedna stavka nije se promijenila od ponude\./);
      const row = (await page.getByRole('row').nth(1).locator('td').allTextContents()).map(plain);
      assert.equal(row[6], '10 %');
      assert.equal(row[7], row[8], 'the quoted line and the line at today’s price, both after the discount');
      await screen(page, 'conversion-preview');

      // A price changed since: the line is named, and today's total moves by that line alone.
      const p = hub.tenant.products[4]!;
      const unit = p.units[0]!;
      const res = await adminCall(hub.app.app, hub.tenant.adminToken, 'PATCH', `/units/${unit.id}`, {
        price: '99.00',
      });
      assert.equal(res.statusCode, 200, res.body);
      await page.reload();
      const changed = await page.locator('main ul li').allTextContents();
      assert.deepEqual(changed, [`2. ${p.name}: Cijena je promijenjena`]);
    });
  });

  test('the payment form proposes the invoice’s own method: transfer with the balance; cash typed by hand', async (t) => {
    const transfer = await discountedQuotation();
    const staffToken = await tokenForRole(hub.app.c, hub.tenant, 'staff');
    const converted = await adminCall(hub.app.app, staffToken, 'POST', `/quotations/${transfer.id}/convert`, {
      paymentMethod: 'bank_transfer',
    });
    assert.equal(converted.statusCode, 201, converted.body);
    // Part of it came in already: the form proposes what is left, not the total.
    const transferId = converted.json().data.id as string;
    const part = await adminCall(hub.app.app, staffToken, 'POST', `/sales/${transferId}/payments`, {
      method: 'bank_transfer',
      amount: '10.00',
    });
    assert.equal(part.statusCode, 201, part.body);
    const balance = part.json().data.balance as string;
    assert.notEqual(balance, transfer.totals.withTax);
    const cash = await discountedQuotation();
    const cashSale = await adminCall(hub.app.app, staffToken, 'POST', `/quotations/${cash.id}/convert`, {
      paymentMethod: 'cash',
    });
    assert.equal(cashSale.statusCode, 201, cashSale.body);
    await withPage(t, browser, async (page) => {
      await signIn(page, hub.base, hub.user('staff'));
      await page.goto(`${hub.base}/hub/sales/${transferId}`);
      assert.equal(await page.getByLabel('Način plaćanja').inputValue(), 'bank_transfer');
      assert.equal(await page.getByLabel('Iznos (EUR)').inputValue(), balance.replace('.', ','), 'the balance');
      await screen(page, 'payment-transfer');
      // Cash on a transfer invoice (the one click that booked cash by mistake) is asked about first.
      await page.getByLabel('Način plaćanja').selectOption('cash');
      await page.getByRole('button', { name: 'Evidentiraj uplatu' }).click();
      await page.getByRole('button', { name: 'Da, evidentiraj „Gotovina”' }).waitFor();
      assert.equal(
        (await hub.app.c.sales.get(hub.tenant.companyId, transferId)).payments.length,
        1,
        'nothing recorded unasked',
      );
      await page.goto(`${hub.base}/hub/sales/${transferId}`);
      await page.getByRole('button', { name: 'Evidentiraj uplatu' }).click();
      await page.waitForURL(/notice=paid/);
      assert.deepEqual(
        (await hub.app.c.sales.get(hub.tenant.companyId, transferId)).payments.map((x) => [x.method, x.amount]),
        [
          ['bank_transfer', '10.00'],
          ['bank_transfer', balance],
        ],
      );

      await page.goto(`${hub.base}/hub/sales/${cashSale.json().data.id}`);
      assert.equal(await page.getByLabel('Način plaćanja').inputValue(), 'cash');
      assert.equal(await page.getByLabel('Iznos (EUR)').inputValue(), '', 'cash at the desk is counted, then typed');
      // Card on a cash invoice is asked about once; nothing is recorded until confirmed.
      await page.getByLabel('Način plaćanja').selectOption('card');
      await page.getByLabel('Iznos (EUR)').fill('10,00');
      await page.getByRole('button', { name: 'Evidentiraj uplatu' }).click();
      await page.getByRole('button', { name: 'Da, evidentiraj „Kartica”' }).waitFor();
      assert.equal((await hub.app.c.sales.get(hub.tenant.companyId, cashSale.json().data.id)).payments.length, 0);
      assert.equal(await page.getByLabel('Iznos (EUR)').inputValue(), '10,00', 'what was typed is kept');
      await page.getByRole('button', { name: 'Da, evidentiraj „Kartica”' }).click();
      await page.waitForURL(/notice=paid/);
      const paid = await hub.app.c.sales.get(hub.tenant.companyId, cashSale.json().data.id);
      assert.deepEqual(
        paid.payments.map((x) => [x.method, x.amount]),
        [['card', '10.00']],
      );
    });
  });

  test('staff answer a web inquiry from the menu, and cancel their own receipt the same day with a reason', async (t) => {
    const made = await reachOut(
      hub.app.app,
      hub.tenant.locations[0]!.apiKey,
      validReachOut({ subject: 'Imate li lazuru za drvo?', email: 'marija@example.com' }),
    );
    assert.equal(made.statusCode, 201, made.body);
    const inquiryId = made.json().data.id as string;
    const staffToken = await tokenForRole(hub.app.c, hub.tenant, 'staff');
    const p = hub.tenant.products[0]!;
    const sell = async (token: string) => {
      const res = await adminCall(hub.app.app, token, 'POST', '/counter-sales', {
        lines: [{ productId: p.id, unitId: p.units[0]!.id, quantity: 1 }],
        paymentMethod: 'card',
      });
      assert.equal(res.statusCode, 201, res.body);
      return res.json().data as { id: string; invoiceNumber: string };
    };
    const own = await sell(staffToken);
    const admins = await sell(hub.tenant.adminToken);
    const staffsOther = await sell(staffToken);
    await withPage(t, browser, async (page) => {
      await signIn(page, hub.base, hub.user('staff'));
      await page.getByRole('navigation').getByRole('link', { name: 'Upiti' }).click();
      await page.getByRole('link', { name: 'Imate li lazuru za drvo?' }).click();
      await page.getByLabel('Vaš odgovor (šalje se na marija@example.com)').fill('Imamo, u šest tonova. Dođite!');
      await page.getByRole('button', { name: 'Pošalji odgovor' }).click();
      await page.waitForURL(/notice=replied/);
      await waitFor('the reply', () => smtp.mails.find((m) => m.rcptTo.includes('marija@example.com')), 60_000);
      assert.equal(await page.getByRole('button', { name: 'Ponovno otvori' }).count(), 0, 'reopening is not staff’s');
      assert.ok((await hub.app.c.inquiries.get(hub.tenant.companyId, inquiryId)).handledAt);
      await screen(page, 'staff-inquiry');

      // Another's receipt: no cancel form, and a forged post is refused with the reason.
      await page.goto(`${hub.base}/hub/sales/${admins.id}`);
      assert.equal(await page.getByRole('button', { name: 'Izdaj storno račun' }).count(), 0);
      assert.equal(
        await page.getByRole('button', { name: 'Izdaj odobrenje' }).count(),
        0,
        'credit notes stay the owner’s',
      );

      await page.goto(`${hub.base}/hub/sales/${own.id}`);
      await page.getByRole('button', { name: 'Izdaj storno račun' }).click();
      assert.equal(await page.getByLabel('Razlog').getAttribute('aria-invalid'), 'true', 'a reason is required');
      await page.getByLabel('Razlog').fill('Krivo otkucana boja.');
      await page.getByRole('button', { name: 'Izdaj storno račun' }).click();
      await page.waitForURL(/notice=stornoIssued/);
      assert.match((await page.getByRole('heading', { level: 1 }).textContent())!, /^Storno račun /);
      assert.equal((await hub.app.c.sales.get(hub.tenant.companyId, own.id)).status, 'cancelled');
      await screen(page, 'staff-storno');

      const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
      const forged = await page.request.post(`${hub.base}/hub/sales/${admins.id}/cancel`, {
        headers: { origin: hub.base },
        form: { _csrf: csrf, reason: 'Nije moj.' },
      });
      assert.equal(forged.status(), 403);
      assert.equal((await hub.app.c.sales.get(hub.tenant.companyId, admins.id)).status, 'paid');
    });
    // An admin cancels any receipt: here one the staff user issued.
    await withPage(t, browser, async (page) => {
      await signIn(page, hub.base, hub.user('admin'));
      await page.goto(`${hub.base}/hub/sales/${staffsOther.id}`);
      const cancel = page.locator('section[aria-labelledby="cancel-heading"]');
      await cancel.getByLabel('Razlog').fill('Kupac vratio robu neotvorenu.');
      await cancel.getByRole('button', { name: 'Izdaj storno račun' }).click();
      await page.waitForURL(/notice=stornoIssued/);
      assert.equal((await hub.app.c.sales.get(hub.tenant.companyId, staffsOther.id)).status, 'cancelled');
    });
  });
});
