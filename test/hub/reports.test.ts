// test-engines: both
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { createTenant, createTestApp, type TestApp } from '../support/test-app.ts';
import { adminCall, assignCustomer, newQuotation } from '../support/sales-helpers.ts';
import { answerQuote, quotationLink } from '../support/mail-helpers.ts';

const cents = (amount: string) => Math.round(Number(amount) * 100);

/** Issue 23 in the hub: the Reports page and its downloads for admins, and Today's trend. */
describe('hub reports', () => {
  let t: TestApp;
  const now = Date.parse('2026-11-20T10:00:00.000Z');
  before(async () => {
    t = await createTestApp({}, { clock: { now: () => new Date(now) } });
  });
  after(async () => {
    await t.close();
  });

  async function session(role: 'admin' | 'staff') {
    const d = await createTenant(t.c, { passwords: true });
    const user = d.users.find((u) => u.role === role)!;
    return { d, cookie: `portico_session=${(await t.c.accounts.signIn(user.email, user.password!)).token}` };
  }
  const get = (cookie: string, url: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });

  async function paidInvoice(d: Awaited<ReturnType<typeof session>>['d']) {
    const q = await newQuotation(t.app, d);
    await assignCustomer(t.app, d, 'quotations', q.id);
    const sale = (await adminCall(t.app, d.adminToken, 'POST', `/quotations/${q.id}/convert`, {})).json().data;
    const paid = await adminCall(t.app, d.adminToken, 'POST', `/sales/${sale.id}/payments`, {
      method: 'cash',
      amount: '10.00',
    });
    assert.equal(paid.statusCode, 201, paid.body);
    return sale;
  }

  test('an admin reads the VAT book in Croatian and downloads it as the page shows it', async () => {
    const { d, cookie } = await session('admin');
    const sale = await paidInvoice(d);
    const page = await get(cookie, '/hub/reports?report=book&from=2026-11-01&to=2026-11-30');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<caption id="report-caption">Knjiga izlaznih računa<\/caption>/);
    assert.ok(page.body.includes(sale.invoiceNumber), 'the invoice is listed');
    const csvLink = /href="(\/hub\/reports\/export\?[^"]*format=csv[^"]*)"/
      .exec(page.body)?.[1]
      ?.replaceAll('&amp;', '&');
    assert.ok(csvLink, 'a CSV link');
    const csv = await get(cookie, csvLink);
    assert.equal(csv.statusCode, 200);
    const rows: string[][] = parse(csv.body, { bom: true, delimiter: ';' });
    assert.equal(rows[1]![1], sale.invoiceNumber);
    assert.equal(rows[1]![6], sale.totals.withTax.replace('.', ','));

    const sales = await get(cookie, '/hub/reports?report=sales&from=2026-11-01&to=2026-11-30');
    assert.match(sales.body, /id="comparison"/);
    const bad = await get(cookie, '/hub/reports?report=sales&from=2026-11-30&to=2026-11-01');
    assert.equal(bad.statusCode, 200);
    assert.match(bad.body, /role="alert">to: Mora biti isti dan ili nakon početnog datuma\./);
  });

  test('Today shows the 30 days of takings as a chart with a table for screen readers, open quotations and what is unpaid', async () => {
    const { d, cookie } = await session('admin');
    await paidInvoice(d);
    await newQuotation(t.app, d);
    const today = await get(cookie, '/hub');
    assert.equal(today.statusCode, 200);
    assert.match(today.body, /<svg class="trend"[^>]*aria-hidden="true"/);
    const table = /<table class="sr-only">([\s\S]*?)<\/table>/.exec(today.body)?.[1] ?? '';
    assert.equal((table.match(/<th scope="row">/g) ?? []).length, 30);
    assert.match(table, /<th scope="row">20\.11\.2026\.<\/th><td>10,00\s€<\/td>/);
    assert.match(today.body, /id="open-quotations">Otvorenih: 1,/);
    assert.match(today.body, /id="unpaid-total">Računa: 1,/);
  });

  test('Today’s open quotations are the approved and the accepted ones: the card counts and lists both, the trend sums their value', async () => {
    const { d, cookie } = await session('admin');
    const approved = await newQuotation(t.app, d, { name: 'Marko Horvat' });
    const accepted = await newQuotation(t.app, d, { name: 'Ivana Perić' });
    const link = await quotationLink(t, d.companyId, accepted.id, 'hr', new Date(now));
    assert.equal((await answerQuote(t, link.token, 'accept', { name: 'Ivana Perić' })).statusCode, 303);
    const converted = await newQuotation(t.app, d);
    await assignCustomer(t.app, d, 'quotations', converted.id);
    await adminCall(t.app, d.adminToken, 'POST', `/quotations/${converted.id}/convert`, {});
    const today = await get(cookie, '/hub');
    const card = /id="card-quotations"[\s\S]*?<\/section>/.exec(today.body)?.[0] ?? '';
    assert.match(card, /Na čekanju: 2/);
    assert.match(card, /Marko Horvat/);
    assert.match(card, /Ivana Perić<\/a><br><small>Prihvaćena · /);
    const value = (cents(approved.totals.withTax) + cents(accepted.totals.withTax)) / 100;
    const worth = value
      .toFixed(2)
      .replace('.', ',')
      .replace(/\B(?=(\d{3})+,)/g, '.');
    assert.match(today.body, new RegExp(`id="open-quotations">Otvorenih: 2, vrijednost ${worth}\\s€`));
  });

  test('staff see neither the page, its downloads nor the trend', async () => {
    const { cookie } = await session('staff');
    assert.equal((await get(cookie, '/hub/reports')).statusCode, 403);
    assert.equal((await get(cookie, '/hub/reports/export?report=vat&format=csv')).statusCode, 403);
    const today = await get(cookie, '/hub');
    assert.doesNotMatch(today.body, /card-trend/);
  });

  test('the month archive: a form, a progress bar that polls while it builds, then the zip', async () => {
    const { d, cookie } = await session('admin');
    await paidInvoice(d);
    const page = await get(cookie, '/hub/reports?report=sales&from=2026-11-01&to=2026-11-30');
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body.slice(page.body.indexOf('archive-title')))?.[1];
    assert.ok(csrf, 'the archive form carries its CSRF token');
    const csrfCookie = ([page.headers['set-cookie'] ?? []].flat() as string[])
      .map((c) => c.split(';')[0]!.trim())
      .find((c) => c.startsWith('portico_csrf='));
    const posted = await t.app.inject({
      method: 'POST',
      url: '/hub/reports/archive',
      headers: {
        cookie: [cookie, csrfCookie].filter(Boolean).join('; '),
        origin: 'http://localhost:80',
        host: 'localhost:80',
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: new URLSearchParams({ _csrf: csrf, month: '2026-11' }).toString(),
    });
    assert.equal(posted.statusCode, 303, posted.body);
    const jobPath = posted.headers.location as string;
    const id = jobPath.split('/').at(-1)!;
    await t.c.monthArchives.find(d.companyId, id).finished;
    const status = await get(cookie, `${jobPath}/status`);
    assert.match(status.body, /<progress id="archive-progress" max="1" value="1">/);
    assert.doesNotMatch(status.body, /hx-trigger/, 'a finished archive stops polling');
    assert.match(status.body, /Gotovo: dokumenata 1\./);
    const zip = await get(cookie, `${jobPath}/download`);
    assert.equal(zip.statusCode, 200);
    assert.equal(zip.headers['content-type'], 'application/zip');
    assert.equal(zip.rawPayload.subarray(0, 4).toString('latin1'), 'PK\x03\x04');
    const other = await session('admin');
    assert.equal((await get(other.cookie, jobPath)).statusCode, 404);
  });
});
