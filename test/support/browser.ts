import fs from 'node:fs';
import path from 'node:path';
import type { TestContext } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { DemoCompany } from '../../src/modules/demo/demo-company.ts';
import { createTestApp, createTenant, type TestApp } from './test-app.ts';

/** Debian's Chromium, started as the env notes say: headless, and nothing that reaches for the network on its own. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

let shared: Promise<Browser> | undefined;

/**
 * The test process's Chromium. In a shard of the runner (`scripts/run-tests.ts`: a shard's files
 * one after another in one process) it is started on first use and kept for the files after it: a
 * file's `close()` closes the contexts it opened, not the browser, and Playwright kills the
 * browser when the process exits.
 */
export function launchBrowser(): Promise<Browser> {
  // A file run on its own (`node --test file`) would never exit with the browser still open.
  if (!process.env.PORTICO_TEST_SHARD)
    return chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
  shared ??= chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true }).then((browser) => {
    browser.on('disconnected', () => {
      shared = undefined;
    });
    browser.close = async () => {
      await Promise.all(browser.contexts().map((context) => context.close()));
    };
    return browser;
  });
  return shared;
}

export interface HubServer {
  base: string;
  app: TestApp;
  tenant: DemoCompany;
  /** A demo user of the role, with the password the demo gave them. */
  user(role: 'admin' | 'staff' | 'support'): { id: string; email: string; password: string };
  close(): Promise<void>;
}

/** The whole server (API and hub) on a loopback port, with a demo tenant whose users have passwords. */
export async function startHub(
  env: Record<string, string> = {},
  options: { startWorkers?: boolean } = {},
): Promise<HubServer> {
  const app = await createTestApp(env, options);
  await app.app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const tenant = await createTenant(app.c, { passwords: true });
  return {
    base: `http://127.0.0.1:${address.port}`,
    app,
    tenant,
    user(role) {
      const user = tenant.users.find((u) => u.role === role)!;
      return { id: user.id, email: user.email, password: user.password! };
    },
    close: () => app.close(),
  };
}

/**
 * A fresh browser context and page for one test. On failure the page is saved as a screenshot
 * under test-results/ (named after the test), then the failure is passed on.
 */
export async function withPage(
  t: TestContext,
  browser: Browser,
  work: (page: Page, context: BrowserContext) => Promise<void>,
): Promise<void> {
  const context = await browser.newContext({ locale: 'en-GB', viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  try {
    await work(page, context);
  } catch (error) {
    const dir = path.resolve('test-results');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${t.fullName.replace(/[^\w.-]+/g, '_').slice(0, 150)}.png`);
    await page.screenshot({ path: file, fullPage: true }).catch(() => {});
    if (error instanceof Error) error.message += `\n(screenshot: ${file})`;
    throw error;
  } finally {
    await context.close();
  }
}

/** A browser and a hub server for one test file: opened in its `before`, closed (either may be missing) in its `after`. */
export async function openHubInBrowser(
  env: Record<string, string> = {},
): Promise<{ browser: Browser; hub: HubServer }> {
  return { browser: await launchBrowser(), hub: await startHub(env) };
}

export async function closeHubInBrowser(browser: Browser | undefined, hub: HubServer | undefined): Promise<void> {
  await browser?.close();
  await hub?.close();
}

export async function signIn(page: Page, base: string, user: { email: string; password: string }): Promise<void> {
  await page.goto(`${base}/hub/sign-in`);
  await page.getByLabel('E-mail').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname === '/hub');
}
