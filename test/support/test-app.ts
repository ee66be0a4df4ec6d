import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../../src/config/config.ts';
import { createContainer, type Container } from '../../src/container.ts';
import { buildApp, type App } from '../../src/http/build-app.ts';
import { createDemoCompany, type DemoCompany } from '../../src/modules/demo/demo-company.ts';
import type { Clock } from '../../src/lib/clock.ts';

/**
 * The database every test runs on: SQLite in a fresh temp file by default, PostgreSQL when
 * TEST_DATABASE_URL is set (CI runs the whole suite both ways). Tests never share a tenant,
 * so they may share a PostgreSQL database.
 */
export function testDatabaseUrl(dir: string): string {
  return process.env.TEST_DATABASE_URL ?? `sqlite:${path.join(dir, 'portico.sqlite')}`;
}

export const onPostgres = () => process.env.TEST_DATABASE_URL !== undefined;

export interface TestApp {
  app: App;
  c: Container;
  dir: string;
  close(): Promise<void>;
}

export async function createTestApp(env: Record<string, string> = {}, overrides: { clock?: Clock; startWorkers?: boolean } = {}): Promise<TestApp> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `portico-test-${randomUUID().slice(0, 8)}-`));
  const config = loadConfig({
    DATABASE_URL: testDatabaseUrl(dir),
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    ...env,
  });
  const c = await createContainer(config, { clock: overrides.clock });
  const app = await buildApp(c);
  await app.ready();
  if (overrides.startWorkers) await c.startWorkers();
  return {
    app, c, dir,
    async close() {
      await app.close();
      await c.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A new demo tenant: two locations with API keys, users of every role, a catalog. */
export function createTenant(c: Container): Promise<DemoCompany> {
  return createDemoCompany(c);
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
