// test-engines: both
import { after, before, describe, test } from 'node:test';
import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { HUB_ROUTES } from '../../src/http/hub/index.ts';
import type { DemoCompany } from '../../src/modules/demo/demo-company.ts';
import { reachOut, validReachOut } from '../support/http-helpers.ts';
import { adminCall, assignCustomer, newOrder, newQuotation } from '../support/sales-helpers.ts';
import { bearer, createTestApp, createTenant, type TestApp } from '../support/test-app.ts';

// Pages that are not lists or details of rows (PDFs, previews, forms, one-line fragments, served files).
// The logo is an image and the DSFinV-K export a zip; a drawer day's page needs a closed day (test/hub/drawer.test.ts reads it).
const NOT_PAGES =
  /\/(pdf|preview\.pdf|preview-frame|preview|count|status|datasheet|photo|new|e-invoice|original\.xml|:index|kpd|logo|dsfinvk)$|\/reset|\/sign-in|\/assets\/|\/import(\/|$)|\/reports\/(archive|export)|\/drawer\/days\//;

/**
 * "Pages render in one round trip of queries (no per-row queries)": every hub page an admin can
 * open sends the same number of statements for a company with a few rows as for one with many
 * (more inquiries, quotations, orders, sales, customers, and a quotation with more lines).
 * Statements are counted from the database layer's diagnostics channel; the session's own
 * last-seen bookkeeping is left out, as it depends on the clock, not on the page.
 */
const RECEIVED = readFileSync(new URL('../fixtures/purchase/hr-cius-eracun-pdv25.xml', import.meta.url), 'utf8');
let purchases = 0;

describe('hub pages make a fixed number of queries', () => {
  let t: TestApp;
  let demo: DemoCompany;
  let cookie: string;
  before(async () => {
    t = await createTestApp();
    demo = await createTenant(t.c, { passwords: true });
    const admin = demo.users.find((u) => u.role === 'admin')!;
    cookie = `portico_session=${(await t.c.accounts.signIn(admin.email, admin.password!)).token}`;
  });
  after(async () => {
    await t.close();
  });

  async function addRows(n: number, lines: number) {
    const ids = { quotation: '', order: '', sale: '', customer: '', inquiry: '', purchase: '' };
    for (let i = 0; i < n; i++) {
      const res = await reachOut(t.app, demo.locations[0]!.apiKey, validReachOut({ subject: `Upit ${i}` }));
      ids.inquiry = res.json().data.id;
      const quotation = await newQuotation(t.app, demo, { name: `Kupac ${i}` });
      ids.customer = await assignCustomer(t.app, demo, 'quotations', quotation.id, { name: `Kupac ${i} d.o.o.` });
      ids.sale = (
        await adminCall(t.app, demo.adminToken, 'POST', `/quotations/${quotation.id}/convert`, {})
      ).json().data.id;
      ids.order = (await newOrder(t.app, demo)).id;
      const received = await t.app.inject({
        method: 'POST',
        url: '/api/v1/admin/purchase-invoices',
        headers: { ...bearer(demo.adminToken), 'content-type': 'application/xml' },
        payload: RECEIVED.replace('<cbc:ID>1-P1-1</cbc:ID>', `<cbc:ID>${++purchases}-P1-1</cbc:ID>`),
      });
      assert.equal(received.statusCode, 201, received.body);
      ids.purchase = received.json().data.id;
    }
    // The quotation whose detail is counted: `lines` lines.
    const p = demo.products[0]!;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/public/quotes',
      headers: bearer(demo.locations[0]!.apiKey),
      payload: {
        format: 'json',
        customer: { name: 'Ana Kovač', email: 'ana@example.com' },
        lines: Array.from({ length: lines }, (_, i) => ({ productId: p.id, unitId: p.units[0]!.id, quantity: i + 1 })),
      },
    });
    assert.equal(res.statusCode, 201, res.body);
    ids.quotation = res.json().data.id;
    return ids;
  }

  function pagesFor(ids: Record<string, string>): string[] {
    const routes = [
      ...new Set(HUB_ROUTES.filter((r) => r.method === 'GET' && r.access !== 'public').map((r) => r.url)),
    ].filter((u) => !NOT_PAGES.test(u));
    return routes.map((url) =>
      url
        .replace(
          /^\/hub\/(quotations|orders|sales|customers|inquiries|purchases)\/:id/,
          (_m, kind: string) => `/hub/${kind}/${ids[kind === 'inquiries' ? 'inquiry' : kind.replace(/s$/, '')]}`,
        )
        .replace('/hub/catalog/products/:id', `/hub/catalog/products/${demo.products[0]!.id}`)
        .replace('/hub/developer/webhooks/:id', `/hub/developer/webhooks/${ids.webhook}`)
        .replace('/hub/help/:guide', '/hub/help/fiscalisation-hr'),
    );
  }

  async function countQueries(url: string): Promise<number> {
    let count = 0;
    const onQuery = (message: unknown) => {
      if (!(message as { sql: string }).sql.includes('hub_sessions')) count++;
    };
    subscribe('portico:db:query', onQuery);
    try {
      const res = await t.app.inject({ method: 'GET', url, headers: { cookie } });
      assert.equal(res.statusCode, 200, `${url}: ${res.statusCode}`);
    } finally {
      unsubscribe('portico:db:query', onQuery);
    }
    return count;
  }

  test('with 1 row of each and a 2-line quotation, then 9 rows and a 40-line quotation: the same counts on every page', async () => {
    const hook = await adminCall(t.app, demo.adminToken, 'POST', '/webhooks', {
      kind: 'http',
      url: 'http://127.0.0.1:9/hook',
      events: ['quote.created'],
    });
    assert.equal(hook.statusCode, 201, hook.body);
    const webhook = hook.json().data.id as string;
    const few = { ...(await addRows(1, 2)), webhook };
    const pages = pagesFor(few);
    assert.ok(pages.length >= 20, `${pages.length} pages: ${pages.join(' ')}`);
    const before = new Map<string, number>();
    for (const url of pages) before.set(url.replace(/\/[a-z]{2,5}_[\w-]{10,}/g, '/:id'), await countQueries(url));
    const many = { ...(await addRows(8, 40)), webhook };
    const changed: string[] = [];
    for (const url of pagesFor(many)) {
      const key = url.replace(/\/[a-z]{2,5}_[\w-]{10,}/g, '/:id');
      const n = await countQueries(url);
      if (n !== before.get(key)) changed.push(`${key}: ${before.get(key)} → ${n}`);
      assert.ok(n < 25, `${key}: ${n} queries`);
    }
    assert.deepEqual(changed, [], 'pages whose query count grew with the rows');
    assert.ok(
      [...before.values()].some((n) => n > 3),
      JSON.stringify(Object.fromEntries(before)),
    );
    if (process.env.SHOW_QUERY_COUNTS) console.log(Object.fromEntries(before));
  });
});
