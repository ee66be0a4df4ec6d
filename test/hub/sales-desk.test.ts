// test-engines: sqlite
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { signIn, withPage, type HubServer, openHubInBrowser, closeHubInBrowser } from '../support/browser.ts';
import { pdfText } from '../support/quote-helpers.ts';
import { adminCall, assignCustomer, newOib, newQuotation } from '../support/sales-helpers.ts';
import { createTenant } from '../support/test-app.ts';

const AXE = fs.readFileSync(path.resolve('node_modules/axe-core/axe.min.js'), 'utf8');

/** axe-core over the page as shown (the PDF frame left out): no serious or critical violation. */
async function assertAccessible(page: Page): Promise<void> {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const result = await (
      window as unknown as {
        axe: {
          run(
            context: Document,
            options: object,
          ): Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }>;
        };
      }
    ).axe.run(document, { iframes: false, resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
  assert.deepEqual(violations, [], `axe on ${page.url()}`);
}

/** A website's quote, as its server sends it: JSON, with the location's API key. */
async function websiteQuote(
  hub: HubServer,
  customer: { name: string; email: string },
  tenant = hub.tenant,
  expiresAt?: string,
): Promise<{ id: string; number: string }> {
  const p = tenant.products[0]!;
  const q = tenant.products[4]!;
  const res = await fetch(`${hub.base}/api/v1/public/quotes`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tenant.locations[0]!.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      format: 'json',
      customer,
      ...(expiresAt ? { expiresAt } : {}),
      lines: [
        { productId: p.id, unitId: p.units[0]!.id, quantity: 2 },
        { productId: q.id, unitId: q.units[0]!.id, quantity: 1.5 },
      ],
    }),
  });
  assert.equal(res.status, 201, await res.clone().text());
  return ((await res.json()) as { data: { id: string; number: string } }).data;
}

/** Presses Tab until the focused element reads `name` (and shows its focus), as a keyboard user would. */
async function tabTo(page: Page, name: string): Promise<void> {
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return { text: el?.innerText?.trim() ?? '', visible: el ? el.matches(':focus-visible') : false };
    });
    if (focused.text === name) {
      assert.ok(focused.visible, `"${name}" shows that it has the focus`);
      return;
    }
  }
  assert.fail(`Tab never reached "${name}"`);
}

describe('hub sales desk (Chromium)', () => {
  let browser: Browser;
  let hub: HubServer;
  before(async () => ({ browser, hub } = await openHubInBrowser()));
  after(() => closeHubInBrowser(browser, hub));

  test('a website quotation: found, assigned from the suggestions, converted by keyboard, paid in cash, its sale PDF opened', async (t) => {
    const email = `ana.${Date.now()}@example.com`;
    const quotation = await websiteQuote(hub, { name: 'Ana Kovačević', email });
    await withPage(t, browser, async (page) => {
      await signIn(page, hub.base, hub.user('staff'));

      // The directory already knows her, by the same e-mail: that makes a suggestion.
      await page.goto(`${hub.base}/hub/customers/new`);
      await page.getByLabel('Ime i prezime ili naziv').fill('Ana Kovačević');
      await page.getByLabel('E-pošta').fill(email);
      await assertAccessible(page);
      await page.getByRole('button', { name: 'Spremi' }).click();
      await page.waitForURL(/\/hub\/customers\/cus_/);
      await assertAccessible(page);
      assert.equal(await page.getByRole('status').textContent(), 'Kupac je dodan u imenik.');

      await page.goto(`${hub.base}/hub/quotations`);
      await page.getByLabel('Broj ili ime kupca').fill('ana kovač');
      await page.getByRole('button', { name: 'Traži' }).click();
      await page.waitForURL(/[?&]q=ana/, { waitUntil: 'commit' });
      assert.equal(await page.locator('#results tbody tr').count(), 1, 'only her quotation matches');
      await assertAccessible(page);
      await page.getByRole('link', { name: quotation.number }).click();
      await assertAccessible(page);
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), `Ponuda ${quotation.number}`);
      const pdf = await page.request.get(`${hub.base}/hub/quotations/${quotation.id}/pdf`);
      assert.equal(pdf.headers()['content-type'], 'application/pdf', 'the inline PDF is served by the hub');
      assert.equal(await page.locator(`iframe.pdf[src="/hub/quotations/${quotation.id}/pdf"]`).count(), 1);

      await page.getByRole('link', { name: 'Dodijeli kupca' }).click();
      await assertAccessible(page);
      const suggestion = page.getByRole('row').filter({ hasText: 'Ista e-pošta' });
      await suggestion.getByRole('button', { name: 'Dodijeli: Ana Kovačević' }).click();
      await page.waitForURL(`${hub.base}/hub/quotations/${quotation.id}?notice=assigned`);
      assert.equal(await page.getByRole('status').textContent(), 'Kupac je dodijeljen.');
      assert.equal(
        await page.evaluate(() => document.activeElement?.id),
        'page-title',
        'the page after the redirect takes the focus at its heading',
      );

      // From here on, the keyboard only.
      await tabTo(page, 'Pregled i pretvorba');
      await page.keyboard.press('Enter');
      await page.waitForURL(`${hub.base}/hub/quotations/${quotation.id}/conversion`);
      const preview = page.getByRole('table', { name: 'Ponuđene cijene u usporedbi s današnjim cijenama iz kataloga' });
      assert.equal(await preview.getByRole('row').count(), 3, 'a header and the two quoted lines');
      assert.match((await preview.getByRole('row').nth(1).textContent())!, /Bez promjene/);
      await assertAccessible(page);
      await tabTo(page, 'Pretvori u prodaju');
      await page.keyboard.press('Space');
      await page.waitForURL(/\/hub\/sales\/sale_[^?]+\?notice=converted$/);
      const saleId = new URL(page.url()).pathname.split('/').at(-1)!;
      assert.match((await page.getByRole('heading', { level: 1 }).textContent())!, /^Račun \d+\/\w+\/\d+$/);
      assert.equal(await page.getByRole('status').textContent(), 'Pretvoreno: ovo je nova prodaja.');
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'page-title');

      await assertAccessible(page);
      // The invoice says bank transfer: that is proposed, with the balance; cash is asked about once.
      assert.equal(await page.getByLabel('Način plaćanja').inputValue(), 'bank_transfer');
      const amount = await page.getByLabel('Iznos (EUR)').inputValue();
      assert.match(amount, /^\d+,\d\d$/, 'the balance is offered as the amount, written the Croatian way');
      await page.getByLabel('Način plaćanja').selectOption({ label: 'Gotovina' });
      await page.getByRole('button', { name: 'Evidentiraj uplatu' }).click();
      assert.match(
        (await page.getByRole('alert').textContent())!,
        /„Uplata na račun”\. Ipak evidentirati „Gotovina”\?/,
      );
      await assertAccessible(page);
      await page.getByRole('button', { name: 'Da, evidentiraj „Gotovina”' }).click();
      await page.waitForURL(`${hub.base}/hub/sales/${saleId}?notice=paid`);
      assert.equal(await page.getByRole('status').textContent(), 'Uplata je evidentirana.');
      assert.equal(await page.locator('dl.facts .status').first().textContent(), 'Plaćena');
      assert.equal(
        await page.getByRole('table', { name: 'Uplate' }).getByRole('row').filter({ hasText: 'Gotovina' }).count(),
        1,
      );
      assert.equal(await page.getByRole('button', { name: 'Evidentiraj uplatu' }).count(), 0, 'nothing is left to pay');

      const saleNumber = (await page.getByRole('heading', { level: 1 }).textContent())!.replace('Račun ', '');
      assert.equal(
        await page.locator(`iframe.pdf[src="/hub/sales/${saleId}/pdf"]`).count(),
        1,
        'the sale PDF is shown inline',
      );
      const download = await page.request.get(`${hub.base}/hub/sales/${saleId}/pdf?download=1`);
      assert.equal(download.status(), 200);
      assert.equal(download.headers()['content-type'], 'application/pdf');
      assert.match(download.headers()['content-disposition']!, /^attachment; filename="S-/);
      const bytes = await download.body();
      assert.ok(bytes.length > 1000, 'a PDF, not an empty body');
      assert.match(await pdfText(bytes), new RegExp(saleNumber));

      // The quotation is now read-only, pointing at its sale.
      await page.goto(`${hub.base}/hub/quotations/${quotation.id}`);
      assert.equal(
        await page.getByRole('link', { name: 'Otvori prodaju' }).getAttribute('href'),
        `/hub/sales/${saleId}`,
      );
      assert.equal(await page.getByRole('button', { name: 'Otkaži ponudu' }).count(), 0);
    });
  });

  test('support reads a quotation but sees no way to assign or convert it, and a forged convert is refused', async (t) => {
    const quotation = await websiteQuote(hub, { name: 'Ivo Ivić', email: `ivo.${Date.now()}@example.com` });
    await withPage(t, browser, async (page) => {
      await signIn(page, hub.base, hub.user('support'));
      await page.goto(`${hub.base}/hub/quotations/${quotation.id}`);
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), `Ponuda ${quotation.number}`);
      assert.equal(await page.getByRole('link', { name: 'Dodijeli kupca' }).count(), 0);
      assert.equal(await page.getByRole('button', { name: 'Otkaži ponudu' }).count(), 0);
      await page.goto(`${hub.base}/hub/quotations/${quotation.id}/conversion`);
      assert.equal(await page.getByRole('button', { name: 'Pretvori u prodaju' }).count(), 0);
      assert.equal(
        await page
          .getByRole('button')
          .filter({ hasText: /Pretvori|Dodijeli/ })
          .count(),
        0,
      );

      const assignPage = await page.request.get(`${hub.base}/hub/quotations/${quotation.id}/customer`);
      assert.equal(assignPage.status(), 403);

      // A valid token of the signed-in support user, from a page's form: only the role can refuse it.
      const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
      const forged = await page.request.post(`${hub.base}/hub/quotations/${quotation.id}/convert`, {
        headers: { origin: hub.base },
        form: { _csrf: csrf },
      });
      assert.equal(forged.status(), 403);
      const assign = await page.request.post(`${hub.base}/hub/quotations/${quotation.id}/customer`, {
        headers: { origin: hub.base },
        form: { _csrf: csrf, name: 'Ivo Ivić' },
      });
      assert.equal(assign.status(), 403);
      // Nor may support record a payment or change the directory: nothing offered, a POST refused.
      const sold = await websiteQuote(hub, { name: 'Iva Ivić', email: `iva.${Date.now()}@example.com` });
      const customer = await hub.app.c.customers.create(hub.tenant.companyId, { kind: 'person', name: 'Iva Ivić' });
      await hub.app.c.customerAssignment.assign(hub.tenant.companyId, 'quotation', sold.id, {
        customerId: customer.id,
      });
      const sale = await hub.app.c.quotations.convert(
        { companyId: hub.tenant.companyId, userId: hub.user('admin').id },
        sold.id,
        { reprice: false },
      );
      await page.goto(`${hub.base}/hub/sales/${sale.id}`);
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), `Račun ${sale.invoiceNumber}`);
      assert.equal(await page.getByRole('button', { name: 'Evidentiraj uplatu' }).count(), 0);
      const pay = await page.request.post(`${hub.base}/hub/sales/${sale.id}/payments`, {
        headers: { origin: hub.base },
        form: { _csrf: csrf, method: 'cash', amount: '1.00' },
      });
      assert.equal(pay.status(), 403);
      await page.goto(`${hub.base}/hub/customers/${customer.id}`);
      assert.equal(
        await page.getByRole('button', { name: 'Spremi' }).count(),
        0,
        'support reads a customer, with no form',
      );
      const edit = await page.request.post(`${hub.base}/hub/customers/${customer.id}`, {
        headers: { origin: hub.base },
        form: { _csrf: csrf, name: 'X' },
      });
      assert.equal(edit.status(), 403);
      await page.goto(`${hub.base}/hub/customers`);
      assert.equal(await page.getByRole('link', { name: 'Novi kupac' }).count(), 0);
      assert.equal((await hub.app.c.sales.get(hub.tenant.companyId, sale.id)).payments.length, 0);

      // Another company's quotation is not found, not forbidden: its existence is not told.
      const other = await createTenant(hub.app.c);
      const theirs = await websiteQuote(hub, { name: 'Ivo Ivić', email: 'ivo@example.com' }, other);
      assert.equal((await page.request.get(`${hub.base}/hub/quotations/${theirs.id}`)).status(), 404);
      assert.equal((await page.request.get(`${hub.base}/hub/quotations/${theirs.id}/pdf`)).status(), 404);
      assert.equal((await page.request.get(`${hub.base}/hub/customers/${quotation.id}`)).status(), 404);
      const after = await hub.app.c.quotations.get(hub.tenant.companyId, quotation.id);
      assert.equal(after.status, 'approved');
      assert.equal(after.directoryCustomer, null);
    });
  });

  test('a web order: accepted, a customer created from its details (a bad tax id shown at its field first), converted, part-paid by card', async (t) => {
    const p = hub.tenant.products[1]!;
    const res = await fetch(`${hub.base}/api/v1/public/orders`, {
      method: 'POST',
      headers: { authorization: `Bearer ${hub.tenant.locations[0]!.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        customer: { name: 'Marija Šimić', email: `marija.${Date.now()}@example.com`, phone: '+385 91 555 7788' },
        lines: [{ productId: p.id, unitId: p.units[0]!.id, quantity: 3 }],
      }),
    });
    assert.equal(res.status, 201);
    const order = ((await res.json()) as { data: { id: string; number: string } }).data;
    await withPage(t, browser, async (page) => {
      await signIn(page, hub.base, hub.user('staff'));
      await page.goto(`${hub.base}/hub/orders?status=received`);
      await assertAccessible(page);
      await page.getByRole('link', { name: order.number }).click();
      await assertAccessible(page);
      await page.getByRole('button', { name: 'Prihvati' }).click();
      assert.equal(await page.getByRole('status').textContent(), 'Narudžba je prihvaćena.');
      assert.equal(
        await page.getByRole('button', { name: 'Pretvori u prodaju' }).count(),
        0,
        'no customer yet: nothing to convert',
      );

      await page.getByRole('link', { name: 'Dodijeli kupca' }).click();
      assert.equal(
        await page.locator('#new-name').inputValue(),
        'Marija Šimić',
        'the form starts from the details the website sent',
      );
      await page.locator('#new-taxId').fill('12345');
      await page.getByRole('button', { name: 'Izradi i dodijeli' }).click();
      const taxId = page.locator('#new-taxId');
      assert.equal(await taxId.getAttribute('aria-invalid'), 'true');
      assert.match((await page.locator('#new-taxId-error').textContent())!, /\S/);
      assert.equal(await taxId.getAttribute('aria-describedby'), 'new-taxId-error');
      await assertAccessible(page);
      await taxId.fill(newOib());
      await page.getByRole('button', { name: 'Izradi i dodijeli' }).click();
      await page.waitForURL(`${hub.base}/hub/orders/${order.id}?notice=assigned`);
      assert.equal(await page.getByRole('link', { name: 'Marija Šimić' }).count(), 1);

      await page.getByRole('button', { name: 'Pretvori u prodaju' }).click();
      await page.waitForURL(/\/hub\/sales\/sale_[^?]+\?notice=converted$/);
      await page.getByLabel('Iznos (EUR)').fill('99999');
      await page.getByRole('button', { name: 'Evidentiraj uplatu' }).click();
      assert.equal(
        await page.getByLabel('Iznos (EUR)').getAttribute('aria-invalid'),
        'true',
        'more than the balance is shown at the amount',
      );
      assert.match(
        (await page.locator('#pay-amount-error').textContent())!,
        /^Veće je od preostalog iznosa od \d{1,3}(\.\d{3})*,\d{2} EUR\.$/,
        "the service's refusal in the reader's language, its amount written the Croatian way",
      );
      await assertAccessible(page);
      await page.getByLabel('Način plaćanja').selectOption({ label: 'Kartica' });
      await page.getByLabel('Iznos (EUR)').fill('1,00');
      await page.getByRole('button', { name: 'Evidentiraj uplatu' }).click();
      // The invoice says bank transfer: a card payment is asked about once, the amount kept.
      await page.getByRole('button', { name: 'Da, evidentiraj „Kartica”' }).click();
      assert.equal(await page.getByRole('status').textContent(), 'Uplata je evidentirana.');
      assert.equal(await page.locator('dl.facts .status').first().textContent(), 'Djelomično plaćena');

      await page.goto(`${hub.base}/hub/sales`);
      await assertAccessible(page);
      await page.goto(`${hub.base}/hub/customers?q=marija`);
      await assertAccessible(page);
      await page.getByRole('link', { name: 'Marija Šimić' }).click();
      assert.equal(await page.getByRole('table').getByRole('row').count(), 2, 'her one sale is listed');
      await page.getByLabel('Mjesto').fill('Split');
      await page.getByRole('button', { name: 'Spremi' }).click();
      assert.equal(
        await page.getByLabel('Ulica i kućni broj').getAttribute('aria-invalid'),
        'true',
        'an address needs all its parts',
      );
      assert.equal(await page.getByLabel('Mjesto').inputValue(), 'Split', 'what was typed is kept');
      await page.getByLabel('Ulica i kućni broj').fill('Riva 1');
      await page.getByLabel('Poštanski broj').fill('21000');
      await page.getByLabel('Država (dva slova, npr. HR)').fill('HR');
      await page.getByRole('button', { name: 'Spremi' }).click();
      assert.equal(await page.getByRole('status').textContent(), 'Spremljeno.');
      assert.equal(await page.getByLabel('Mjesto').inputValue(), 'Split');
    });
  });

  test("an expired quotation: staff are told only an admin can convert it (and a forged reprice is refused); the admin converts it at today's prices", async (t) => {
    // The API takes only a future expiry: a near one, then waited out.
    const expiresAt = Date.now() + 4000;
    const quotation = await websiteQuote(
      hub,
      { name: 'Petra Horvat', email: `petra.${Date.now()}@example.com` },
      hub.tenant,
      new Date(expiresAt).toISOString(),
    );
    const customer = await hub.app.c.customers.create(hub.tenant.companyId, { kind: 'person', name: 'Petra Horvat' });
    await hub.app.c.customerAssignment.assign(hub.tenant.companyId, 'quotation', quotation.id, {
      customerId: customer.id,
    });
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt - Date.now() + 100)));
    await withPage(t, browser, async (page) => {
      await signIn(page, hub.base, hub.user('staff'));
      await page.goto(`${hub.base}/hub/quotations/${quotation.id}/conversion`);
      assert.equal(
        await page
          .getByText('Ova je ponuda istekla. Samo je administrator može pretvoriti, po današnjim cijenama.')
          .count(),
        1,
      );
      assert.equal(
        await page
          .getByRole('button')
          .filter({ hasText: /Pretvori/ })
          .count(),
        0,
      );
      const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
      const forged = await page.request.post(`${hub.base}/hub/quotations/${quotation.id}/convert`, {
        headers: { origin: hub.base },
        form: { _csrf: csrf, reprice: 'true' },
      });
      assert.equal(forged.status(), 403, "repricing is the admin's");
      const plain = await page.request.post(`${hub.base}/hub/quotations/${quotation.id}/convert`, {
        headers: { origin: hub.base },
        form: { _csrf: csrf },
      });
      assert.equal(plain.status(), 409, 'expired prices do not hold');
    });
    await withPage(t, browser, async (page) => {
      await signIn(page, hub.base, hub.user('admin'));
      await page.goto(`${hub.base}/hub/quotations/${quotation.id}/conversion`);
      assert.equal(
        await page.getByText('Ponuda je istekla: prodaja će biti obračunana po današnjim cijenama.').count(),
        1,
      );
      await page.getByRole('button', { name: 'Pretvori po današnjim cijenama' }).click();
      await page.waitForURL(/\/hub\/sales\/sale_[^?]+\?notice=converted$/);
      assert.equal(await page.getByText('Po cijenama na dan pretvorbe').count(), 1, 'the sale says it was repriced');
    });
  });

  test('corrections in the hub: staff void a payment entered twice; the admin credits returned goods (decimal comma) and cancels another invoice', async (t) => {
    const invoice = async () => {
      const q = await newQuotation(hub.app.app, hub.tenant);
      await assignCustomer(hub.app.app, hub.tenant, 'quotations', q.id);
      const res = await adminCall(hub.app.app, hub.tenant.adminToken, 'POST', `/quotations/${q.id}/convert`, {
        paymentMethod: 'cash',
      });
      assert.equal(res.statusCode, 201, res.body);
      return res.json().data as { id: string; invoiceNumber: string; lines: Array<{ productName: string }> };
    };
    const first = await invoice();
    const second = await invoice();

    await withPage(t, browser, async (page) => {
      await signIn(page, hub.base, hub.user('staff'));
      await page.goto(`${hub.base}/hub/sales/${first.id}`);
      assert.equal(await page.getByRole('heading', { name: 'Storniraj račun' }).count(), 0, 'staff may not cancel');
      assert.equal(await page.getByRole('heading', { name: 'Odobrenje (povrat robe)' }).count(), 0);
      for (let i = 0; i < 2; i++) {
        await page.getByLabel('Iznos (EUR)').fill('5,00');
        await page.getByRole('button', { name: 'Evidentiraj uplatu' }).click();
        await page.waitForURL(`${hub.base}/hub/sales/${first.id}?notice=paid`);
      }
      const payments = page.getByRole('table', { name: 'Uplate' });
      assert.equal(await payments.getByRole('row').count(), 3, 'a header and the payment entered twice');
      const twice = payments.getByRole('row').nth(2);
      await twice.getByLabel('Zašto poništavate uplatu').fill('Upisano dvaput.');
      await twice.getByRole('button', { name: 'Poništi' }).click();
      await page.waitForURL(`${hub.base}/hub/sales/${first.id}?notice=voided`);
      assert.equal(await page.getByRole('status').textContent(), 'Uplata je poništena.');
      assert.match((await payments.getByRole('row').nth(2).textContent())!, /Poništeno .*Upisano dvaput\./);
      const paid = page.locator('dl.facts dt', { hasText: /^Plaćeno$/ }).locator('xpath=following-sibling::dd[1]');
      assert.equal((await paid.textContent())!.replace(/\s/g, ' '), '5,00 €', 'the voided payment no longer counts');
      await assertAccessible(page);
    });

    await withPage(t, browser, async (page) => {
      await signIn(page, hub.base, hub.user('admin'));
      await page.goto(`${hub.base}/hub/sales/${first.id}`);
      const returned = first.lines[1]!.productName;
      const box = page.getByLabel(`Količina za odobrenje: ${returned} (najviše 1,5 pak)`);
      await box.fill('0,5');
      await page.locator('#credit-heading + form').getByLabel('Razlog').fill('Vraćena neotvorena kanta.');
      await page.getByRole('button', { name: 'Izdaj odobrenje' }).click();
      await page.waitForURL(/\/hub\/sales\/sale_[^?]+\?notice=credited$/);
      assert.equal(await page.getByRole('status').textContent(), 'Odobrenje je izdano.');
      assert.match((await page.getByRole('heading', { level: 1 }).textContent())!, /^Odobrenje \d+\/\w+\/\d+$/);
      assert.equal(
        await page.getByRole('link', { name: first.invoiceNumber }).getAttribute('href'),
        `/hub/sales/${first.id}`,
      );
      const lines = page.getByRole('table').first();
      assert.match((await lines.textContent())!, /−0,5|-0,5/, 'half a unit credited, written the Croatian way');
      await assertAccessible(page);

      // The credited invoice is not cancelled whole any more: the refusal is shown at its form.
      await page.goto(`${hub.base}/hub/sales/${first.id}`);
      assert.equal(
        await page.getByLabel(`Količina za odobrenje: ${returned} (najviše 1 pak)`).count(),
        1,
        'the form offers what is left to credit',
      );
      await page.locator('#cancel-heading + form').getByLabel('Razlog').fill('Krivi kupac.');
      const refused = page.waitForResponse((r) => r.url().endsWith(`/hub/sales/${first.id}/cancel`));
      await page.getByRole('button', { name: 'Izdaj storno račun' }).click();
      assert.equal((await refused).status(), 409);
      await page.locator('#cancel-heading + form [role="alert"]').waitFor();
      assert.equal(await page.getByRole('alert').count(), 1, 'only the form that asked says it was refused');
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), `Račun ${first.invoiceNumber}`);

      await page.goto(`${hub.base}/hub/sales/${second.id}`);
      await page.locator('#cancel-heading + form').getByLabel('Razlog').fill('Izdano krivom kupcu.');
      await page.getByRole('button', { name: 'Izdaj storno račun' }).click();
      await page.waitForURL(/\/hub\/sales\/sale_[^?]+\?notice=stornoIssued$/);
      assert.equal(await page.getByRole('status').textContent(), 'Storno račun je izdan.');
      assert.match((await page.getByRole('heading', { level: 1 }).textContent())!, /^Storno račun \d+\/\w+\/\d+$/);
      await page.getByRole('link', { name: second.invoiceNumber }).click();
      await page.waitForURL(`${hub.base}/hub/sales/${second.id}`);
      assert.equal(await page.locator('dl.facts .status').first().textContent(), 'Stornirano');
      assert.equal(
        await page.getByRole('heading', { name: 'Storniraj račun' }).count(),
        0,
        'a cancelled invoice is final',
      );
      await assertAccessible(page);
      await page.goto(`${hub.base}/hub/sales`);
      assert.equal(
        await page.getByRole('link', { name: /^Storno račun \d+\/\w+\/\d+$/ }).count(),
        1,
        'the list says which document is a storno',
      );
    });
  });
});
