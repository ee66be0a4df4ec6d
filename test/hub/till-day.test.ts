// test-engines: sqlite
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, signIn, startHub, withPage, type HubServer } from '../support/browser.ts';
import { tokenForRole } from '../support/http-helpers.ts';
import { adminCall, assignCustomer, newQuotation } from '../support/sales-helpers.ts';

const SCREENS = path.resolve('test-results', 'screens', 'till');

async function screen(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENS, `${name}.png`), fullPage: true });
}

/** Text as read: the no-break spaces Intl puts in money as plain ones. */
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ').trim();

/**
 * The till's day in Chromium (issue 34): money owed back after a storno given from the sale's
 * page, and the day report read on a phone and printed, A4 and 80 mm, as PNGs to look at.
 */
describe('the till’s day in the hub (Chromium)', () => {
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

  test('a refund given after the storno: proposed as it was paid, in parts; the day report fits a phone, opening before closing', async (t) => {
    const staffToken = await tokenForRole(hub.app.c, hub.tenant, 'staff');
    const location = hub.tenant.locations[0]!;
    const till = `/locations/${location.id}/drawer`;
    const opened = await adminCall(hub.app.app, staffToken, 'POST', `${till}/open`, { float: '100.00' });
    assert.equal(opened.statusCode, 201, opened.body);

    // A day's turnover at two rates with four-figure totals: the widest the VAT table gets.
    const [p25, p5] = [hub.tenant.products[0]!, hub.tenant.products.find((p) => p.taxRate.startsWith('5'))!];
    assert.ok(p5, 'the demo has a product at 5 %');
    const sale = await adminCall(hub.app.app, staffToken, 'POST', '/counter-sales', {
      lines: [
        { productId: p25.id, unitId: p25.units[0]!.id, quantity: 120 },
        { productId: p5.id, unitId: p5.units[0]!.id, quantity: 70 },
      ],
      paymentMethod: 'card',
      locationId: location.id,
    });
    assert.equal(sale.statusCode, 201, sale.body);

    // An invoice paid 10,00 by transfer, then cancelled with nothing given back yet.
    const q = await newQuotation(hub.app.app, hub.tenant);
    await assignCustomer(hub.app.app, hub.tenant, 'quotations', q.id);
    const inv = (await adminCall(hub.app.app, hub.tenant.adminToken, 'POST', `/quotations/${q.id}/convert`, {})).json()
      .data;
    await adminCall(hub.app.app, hub.tenant.adminToken, 'POST', `/sales/${inv.id}/payments`, {
      method: 'bank_transfer',
      amount: '10.00',
    });
    const storno = await adminCall(hub.app.app, hub.tenant.adminToken, 'POST', `/sales/${inv.id}/cancel`, {
      reason: 'Kupac odustao',
    });
    assert.equal(storno.statusCode, 201, storno.body);

    await withPage(t, browser, async (page) => {
      await signIn(page, hub.base, hub.user('staff'));
      await page.goto(`${hub.base}/hub/sales/${inv.id}`);
      const form = page.locator('section[aria-labelledby="refund-heading"]');
      await form.getByRole('heading', { name: 'Vrati kupcu što mu se duguje' }).waitFor();
      assert.equal(await form.getByLabel('Način plaćanja').inputValue(), 'bank_transfer', 'proposed as it was paid');
      assert.equal(await form.getByLabel('Iznos (EUR)').inputValue(), '10,00', 'all that is owed');
      // More than is owed is refused at the field, what was typed kept.
      await form.getByLabel('Iznos (EUR)').fill('10,01');
      await form.getByRole('button', { name: 'Evidentiraj povrat' }).click();
      const again = page.locator('section[aria-labelledby="refund-heading"]');
      assert.equal(await again.getByLabel('Iznos (EUR)').getAttribute('aria-invalid'), 'true');
      assert.equal(await again.getByLabel('Iznos (EUR)').inputValue(), '10,01');
      await again.getByLabel('Način plaćanja').selectOption('cash');
      await again.getByLabel('Iznos (EUR)').fill('4,00');
      await again.getByRole('button', { name: 'Evidentiraj povrat' }).click();
      await page.waitForURL(/notice=refunded/);
      assert.match(plain(await page.locator('dd[data-refund]').first().innerText()), /^4,00 € \(Gotovina\)/);
      await screen(page, 'refund-later');
      await page.getByRole('button', { name: 'Evidentiraj povrat' }).click();
      await page.waitForURL(/notice=refunded/);
      assert.equal(await page.locator('section[aria-labelledby="refund-heading"]').count(), 0, 'nothing owed any more');
    });
    const refunded = await hub.app.c.sales.get(hub.tenant.companyId, inv.id);
    assert.deepEqual(
      refunded.refunds.map((r) => [r.method, r.amount]),
      [
        ['cash', '4.00'],
        ['bank_transfer', '6.00'],
      ],
    );

    const closed = await adminCall(hub.app.app, staffToken, 'POST', `${till}/close`, { counted: '96.00' });
    assert.equal(closed.statusCode, 201, closed.body);
    const date = closed.json().data.date as string;
    await withPage(t, browser, async (page) => {
      await page.setViewportSize({ width: 390, height: 844 });
      await signIn(page, hub.base, hub.user('staff'));
      await page.goto(`${hub.base}/hub/drawer/days/${location.id}/${date}`);
      assert.equal(plain(await page.locator('dd[data-till]').innerText()), 'ZG1 / 1');
      const vat = page.locator('table', { has: page.locator('caption', { hasText: 'po stopi' }) });
      await vat.waitFor();
      // Every column on the phone: the table does not scroll in its box, "Ukupno" is in view.
      const fits = await vat.evaluate((el) => el.scrollWidth <= el.clientWidth + 1);
      assert.ok(fits, 'the VAT table fits 390 px');
      const total = vat.locator('thead th').last();
      assert.equal(plain(await total.innerText()), 'Ukupno');
      const box = (await total.boundingBox())!;
      assert.ok(box.x + box.width <= 390, `"Ukupno" ends at ${box.x + box.width} px`);
      assert.equal(
        await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth),
        false,
      );
      await screen(page, 'day-report-390');

      // The prints, A4 and 80 mm, as pictures to look at; their text in order.
      for (const layout of ['a4', 'receipt']) {
        const res = await page.request.get(
          `${hub.base}/hub/drawer/days/${location.id}/${date}/pdf${layout === 'receipt' ? '?layout=receipt' : ''}`,
        );
        assert.equal(res.status(), 200);
        const pdf = path.join(SCREENS, `day-report-${layout}.pdf`);
        fs.writeFileSync(pdf, await res.body());
        execFileSync('pdftoppm', ['-png', '-r', '100', '-singlefile', pdf, pdf.replace(/\.pdf$/, '')]);
        const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
        assert.ok(text.indexOf('Otvoreno') < text.indexOf('Zaključeno'), `${layout}: opening first`);
        assert.doesNotMatch(text, /\d\.\s*(sij|velj|ožu|tra|svi|lip|srp|kol|ruj|lis|stu|pro)\b/, layout);
      }
    });
  });
});
