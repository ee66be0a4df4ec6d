import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, signIn, startHub, withPage, type HubServer } from '../support/browser.ts';
import { reachOut, validReachOut } from '../support/http-helpers.ts';
import { adminCall, assignCustomer, newOrder, newQuotation } from '../support/sales-helpers.ts';

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const MAX_PAGES = 80;

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[] }>;
}

/** axe-core in the page (evaluated through the DevTools protocol, so the hub's CSP stays as it is). */
async function seriousViolations(page: Page): Promise<Violation[]> {
  await page.evaluate(axeSource);
  const result = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as { axe: { run(doc: Document, opts: object): Promise<{ violations: Violation[] }> } }
    ).axe;
    return axe.run(document, { resultTypes: ['violations'] });
  });
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/**
 * Every hub page passes axe-core with no serious or critical violation: the sign-in page, then
 * every page an admin can reach by following the hub's own links from Today (lists, details of
 * a real quotation, order, sale, customer and inquiry, settings), so a new page is checked as
 * soon as something links to it.
 */
describe('accessibility: axe-core over every hub page (Chromium)', () => {
  let browser: Browser;
  let hub: HubServer;
  before(async () => {
    browser = await launchBrowser();
    hub = await startHub();
    const { app } = hub.app;
    const demo = hub.tenant;
    const quotation = await newQuotation(app, demo, { name: 'Ana Kovač' });
    await newQuotation(app, demo, { name: 'Željko Šimić' });
    const order = await newOrder(app, demo);
    await assignCustomer(app, demo, 'quotations', quotation.id);
    const sale = await adminCall(app, demo.adminToken, 'POST', `/quotations/${quotation.id}/convert`, {});
    assert.equal(sale.statusCode, 201, sale.body);
    await assignCustomer(app, demo, 'orders', order.id, { name: 'Ivić d.o.o.' });
    assert.equal((await reachOut(app, demo.locations[0]!.apiKey, validReachOut())).statusCode, 201);
  });
  after(async () => {
    await browser?.close();
    await hub?.close();
  });

  test('no serious or critical violation on any page', async (t) => {
    await withPage(t, browser, async (page) => {
      const failures: string[] = [];
      const check = async (url: string) => {
        for (const v of await seriousViolations(page))
          failures.push(
            `${url}: ${v.id} (${v.impact}) ${v.help} at ${JSON.stringify(v.nodes.slice(0, 3).map((n) => n.target))}`,
          );
      };
      await page.goto(`${hub.base}/hub/sign-in`);
      await check('/hub/sign-in');

      await signIn(page, hub.base, hub.user('admin'));
      const seen = new Set<string>();
      const queue = ['/hub'];
      while (queue.length > 0 && seen.size < MAX_PAGES) {
        const path = queue.shift()!;
        if (seen.has(path)) continue;
        seen.add(path);
        const response = await page.goto(`${hub.base}${path}`);
        if (!response || !(response.headers()['content-type'] ?? '').startsWith('text/html')) continue;
        assert.ok(response.status() < 500, `${path} answered ${response.status()}`);
        await check(path);
        const links = await page.$$eval('a[href^="/hub"]', (as) => as.map((a) => a.getAttribute('href')!));
        for (const href of links) {
          const clean = href.split('#')[0]!;
          if (!seen.has(clean) && !/\/(pdf|download|datasheet|preview)(\b|$)|\.pdf$|\/assets\//.test(clean))
            queue.push(clean);
        }
      }
      assert.ok(seen.size >= 5, `crawled ${seen.size} pages: ${[...seen].join(', ')}`);
      assert.deepEqual(failures, [], `${failures.length} violations over ${seen.size} pages`);
    });
  });
});
