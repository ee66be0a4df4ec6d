import { after, before, describe, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { englishLeaks } from './english-leaks.ts';
import { launchBrowser, signIn, startHub, withPage, type HubServer } from '../support/browser.ts';
import { reachOut, validReachOut } from '../support/http-helpers.ts';
import { adminCall, assignCustomer, newOrder, newQuotation } from '../support/sales-helpers.ts';

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const MAX_PAGES = 81;

/** A laptop, a tablet upright and a phone: every page is checked at each. */
const SIZES = [
  { width: 1366, height: 768 },
  { width: 768, height: 1024 },
  { width: 390, height: 844 },
] as const;

/**
 * The pages of the sales desk, kept as screenshots at each size in test-results/screens/ when
 * `SCREENSHOTS=1` is set (to look at a layout; CI, where nobody looks, takes none).
 */
const DESK = /^\/hub(\/(quotations|orders|sales|customers|counter)(\/[^/?]+)?(\/edit)?)?$/;
const SCREENS = path.resolve('test-results', 'screens');
const TAKE_SCREENSHOTS = process.env.SCREENSHOTS === '1';

/**
 * A page's template: its path with record ids as `{id}`. A link to a second product or customer
 * is the same page with other data; the crawl follows one of each (the seeded pages are always
 * visited: they are there for their data).
 */
const template = (url: string) => url.replace(/\b[a-z]+_[0-9A-Za-z]{20}\b/g, '{id}');

/**
 * Whether the page scrolls sideways, and if so the elements sticking out past the viewport's
 * right edge (the outermost few), to name in the failure.
 */
async function horizontalOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    if (document.documentElement.scrollWidth <= width) return [];
    const out: string[] = [];
    for (const el of document.querySelectorAll('body *')) {
      const box = el.getBoundingClientRect();
      if (box.right > width + 1 && !(el.parentElement && el.parentElement.getBoundingClientRect().right > width + 1))
        out.push(
          `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className ? `.${String(el.className).replace(/\s+/g, '.')}` : ''} (${Math.round(box.right)} px)`,
        );
      if (out.length >= 5) break;
    }
    return [`scrollWidth ${document.documentElement.scrollWidth} > ${width}`, ...out];
  });
}

/** Waits for the layout (and hub.js's resize handler) to settle after a change of viewport. */
async function settled(page: Page): Promise<void> {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[] }>;
}

/** axe-core in the page (evaluated through the DevTools protocol, so the hub's CSP stays as it is). */
async function seriousViolations(page: Page): Promise<Violation[]> {
  // Once per page load: the three sizes of a page share one copy of axe (half a megabyte of script).
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(axeSource);
  const result = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as { axe: { run(doc: Document, opts: object): Promise<{ violations: Violation[] }> } }
    ).axe;
    return axe.run(document, { resultTypes: ['violations'] });
  });
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/**
 * Every hub page, at a phone's, a tablet's and a laptop's size: axe-core finds no serious or
 * critical violation and nothing makes the page scroll sideways. The pages are the sign-in
 * page, then every page an admin can reach by following the hub's own links from Today
 * (lists, details of a real quotation, order, sale, customer and inquiry, settings), so a new
 * page is checked as soon as something links to it. The admin reads the hub in Croatian, and
 * no page may show an English text of the catalog. One browser, one visit per page: the three
 * sizes are the same page resized.
 */
/**
 * One reader's crawl as its own test file (`accessibility-hr.test.ts`, `accessibility-de.test.ts`):
 * each takes minutes in Chromium, so the two run side by side instead of one after the other. The
 * file declares the test itself (`register`), so the test's time is recorded under that file and
 * the runner can balance its shards by it.
 */
export function crawlSuite(language: 'hr' | 'de', register: (crawl: (t: TestContext) => Promise<void>) => void): void {
  describe(`accessibility in ${language}: axe-core over every hub page at three sizes (Chromium)`, () => {
    let browser: Browser;
    let hub: HubServer;
    const seeded: string[] = [];
    before(async () => {
      browser = await launchBrowser();
      hub = await startHub();
      const { app } = hub.app;
      const demo = hub.tenant;
      const quotation = await newQuotation(app, demo, { name: 'Ana Kovač' });
      const open = await newQuotation(app, demo, { name: 'Željko Šimić' });
      // A revised one: its page lists the earlier revision; its edit page is the revision form.
      const p = demo.products[1]!;
      const revised = await adminCall(app, demo.adminToken, 'PUT', `/quotations/${open.id}`, {
        customer: { name: 'Željko Šimić' },
        lines: [
          {
            productId: p.id,
            unitId: p.units[0]!.id,
            quantity: 2,
            discountPercent: 5,
            note: 'Colour: RAL 9010 - Bijela',
          },
        ],
      });
      assert.equal(revised.statusCode, 200, revised.body);
      // A counter sale to a walk-in customer: its sale page has no directory customer and no source document.
      const sold = await adminCall(app, demo.adminToken, 'POST', '/counter-sales', {
        lines: [{ productId: p.id, unitId: p.units[0]!.id, quantity: 1 }],
        paymentMethod: 'cash',
        tendered: '100',
      });
      assert.equal(sold.statusCode, 201, sold.body);
      seeded.push(`/hub/sales/${sold.json().data.id}`);
      // The pages staff make documents on (issue 22), crawled whatever the link order.
      seeded.push('/hub/quotations/new', `/hub/quotations/${open.id}/edit`, '/hub/counter');
      // A quotation in each state its page shows differently (revised and open; converted, below).
      seeded.push(`/hub/quotations/${open.id}`, `/hub/quotations/${quotation.id}`);
      const order = await newOrder(app, demo);
      await assignCustomer(app, demo, 'quotations', quotation.id);
      const sale = await adminCall(app, demo.adminToken, 'POST', `/quotations/${quotation.id}/convert`, {});
      assert.equal(sale.statusCode, 201, sale.body);
      await assignCustomer(app, demo, 'orders', order.id, { name: 'Ivić d.o.o.' });
      // A Croatian customer writes in Croatian: what the page shows of it must not read as a leak.
      const inquiry = validReachOut({
        topic: 'Pitanje o proizvodu',
        subject: 'Ima li Boje za drvo od 5 L?',
        message: 'Pozdrav, zanima me dolazi li lazura boje oraha u kantama od 5 L.',
      });
      assert.equal((await reachOut(app, demo.locations[0]!.apiKey, inquiry)).statusCode, 201);
    });
    after(async () => {
      await browser?.close();
      await hub?.close();
    });

    /**
     * The crawl as one reader: `hr`, the admin's own company language, then `de`, the same admin
     * having chosen German. Each keeps its desk screenshots in its own folder.
     */
    async function crawl(t: TestContext, language: 'hr' | 'de') {
      await withPage(t, browser, async (page) => {
        const failures: string[] = [];
        const overflow: string[] = [];
        const english: string[] = [];
        const screens = path.join(SCREENS, language);
        fs.rmSync(screens, { recursive: true, force: true });
        fs.mkdirSync(screens, { recursive: true });
        // axe judges a page's structure (names, roles, labels, contrast), which a translation does not
        // change: the German reader's crawl runs it at one size, and checks at every size what the
        // language does change (the width of its words: sideways scrolling) and its English leaks.
        const axeAt: ReadonlyArray<(typeof SIZES)[number]> = language === 'hr' ? SIZES : [SIZES[0]];
        const check = async (url: string) => {
          for (const size of SIZES) {
            // Pages load at the first size: no resize (and wait for layout) to the size it already has.
            if (page.viewportSize()?.width !== size.width) {
              await page.setViewportSize(size);
              await settled(page);
            }
            const at = `${url} at ${size.width}×${size.height}`;
            if (axeAt.includes(size))
              for (const v of await seriousViolations(page))
                failures.push(
                  `${at}: ${v.id} (${v.impact}) ${v.help} at ${JSON.stringify(v.nodes.slice(0, 3).map((n) => n.target))}`,
                );
            const wide = await horizontalOverflow(page);
            if (wide.length > 0) overflow.push(`${at}: ${wide.join(', ')}`);
            if (TAKE_SCREENSHOTS && (DESK.test(url) || url.startsWith('/hub/sign-in'))) {
              const name = url.replace(/^\/hub\/?/, '').replace(/[^\w-]+/g, '_') || 'today';
              await page.screenshot({
                path: path.join(screens, `${size.width}x${size.height}-${name}.png`),
                fullPage: true,
              });
            }
          }
        };
        const signInPage = `/hub/sign-in?lang=${language}`;
        await page.goto(`${hub.base}${signInPage}`);
        assert.equal(await page.evaluate(() => document.documentElement.lang), language);
        for (const leak of await englishLeaks(page, language)) english.push(`${signInPage}: "${leak}"`);
        await check(signInPage);

        await page.setViewportSize(SIZES[0]);
        await signIn(page, hub.base, hub.user('admin'));
        const seen = new Set<string>();
        const followed = new Set<string>();
        // Each report is a choice in a form, not a link: they are listed so every one is checked.
        const reports = ['vat', 'book', 'payments', 'receivables'].map((r) => `/hub/reports?report=${r}`);
        // Help: the index only. A guide is the hub's layout around long English text; axe over two of
        // them at three sizes tripled the crawl's time (90 s to 257-330 s in CI), so the guides'
        // rendering, escaping and wrapped tables are checked in test/hub/help.test.ts instead.
        const help = ['/hub/help'];
        const queue = ['/hub', ...seeded, ...reports, ...help];
        while (queue.length > 0 && seen.size < MAX_PAGES) {
          const url = queue.shift()!;
          if (seen.has(url)) continue;
          seen.add(url);
          const response = await page.goto(`${hub.base}${url}`);
          if (!response || !(response.headers()['content-type'] ?? '').startsWith('text/html')) continue;
          assert.ok(response.status() < 500, `${url} answered ${response.status()}`);
          assert.equal(await page.evaluate(() => document.documentElement.lang), language, `${url} is in ${language}`);
          for (const leak of await englishLeaks(page, language)) english.push(`${url}: "${leak}"`);
          // A link that downloads a file (PDF, e-invoice XML, CSV) is not a page to crawl.
          const links = await page.$$eval('a[href^="/hub"]:not([download])', (as) =>
            as.map((a) => a.getAttribute('href')!),
          );
          for (const href of links) {
            const clean = href.split('#')[0]!;
            if (
              !seen.has(clean) &&
              !followed.has(template(clean)) &&
              !clean.startsWith('/hub/help/') &&
              !/\/(pdf|download|datasheet|preview|export|e-invoice)(\b|$)|\.(pdf|csv|xlsx)$|\/assets\/|[?&]lang=/.test(
                clean,
              )
            ) {
              followed.add(template(clean));
              queue.push(clean);
            }
          }
          await check(url);
          await page.setViewportSize(SIZES[0]);
        }
        assert.ok(seen.size >= 5, `crawled ${seen.size} pages: ${[...seen].join(', ')}`);
        assert.deepEqual(failures, [], `${failures.length} violations over ${seen.size} pages`);
        assert.deepEqual(overflow, [], `${overflow.length} page views scroll sideways`);
        assert.deepEqual(english, [], `${english.length} English texts in a hub read in ${language}`);
      });
    }

    register(async (t) => {
      if (language === 'hr') return crawl(t, 'hr');
      const admin = hub.user('admin');
      await hub.app.c.accounts.setLanguage(hub.tenant.companyId, admin.id, 'de');
      try {
        await crawl(t, 'de');
      } finally {
        await hub.app.c.accounts.setLanguage(hub.tenant.companyId, admin.id, null);
      }
    });
  });
}

/** Minutes of Chromium work (every page, three sizes, axe each time): the crawl's own limit. */
export const CRAWL_TIMEOUT = 600_000;
