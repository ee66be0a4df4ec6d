import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { loadConfig } from '../../src/config/config.ts';
import { createContainer, type Container } from '../../src/container.ts';
import { buildApp, type App } from '../../src/http/build-app.ts';
import { createDemoCompany, type DemoCompany } from '../../src/modules/demo/demo-company.ts';
import type { Clock } from '../../src/lib/clock.ts';

/**
 * A database of its own for one test app or process group: a fresh SQLite file by default, or,
 * when TEST_DATABASE_URL is set (CI runs the whole suite both ways), a fresh database on that
 * PostgreSQL server. Sharing one would let one test's webhook worker deliver another test's
 * events with its own settings.
 */
export async function provisionDatabase(dir: string): Promise<{ url: string; drop(): Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) return { url: `sqlite:${path.join(dir, 'portico.sqlite')}`, drop: async () => {} };
  const name = `portico_t_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

export const onPostgres = () => process.env.TEST_DATABASE_URL !== undefined;

export interface TestApp {
  app: App;
  c: Container;
  dir: string;
  close(): Promise<void>;
}

export async function createTestApp(
  env: Record<string, string> = {},
  overrides: { clock?: Clock; startWorkers?: boolean; photoCa?: string } = {},
): Promise<TestApp> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `portico-test-${randomUUID().slice(0, 8)}-`));
  const database = env.DATABASE_URL ? null : await provisionDatabase(dir);
  const config = loadConfig({
    DATABASE_URL: database?.url ?? '',
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    // Never the real CIS from a test: port 9 on loopback refuses at once.
    FISCAL_CIS_URL: 'https://127.0.0.1:9/FiskalizacijaService',
    // Photo URLs in tests name hosts off this machine: fetched only where a test serves them.
    PRODUCT_PHOTO_FETCH: 'false',
    ...env,
  });
  const c = await createContainer(config, {
    clock: overrides.clock,
    ...(overrides.photoCa ? { photoCa: overrides.photoCa } : {}),
  });
  const app = await buildApp(c);
  await app.ready();
  if (overrides.startWorkers) await c.startWorkers();
  return {
    app,
    c,
    dir,
    async close() {
      await app.close();
      await c.close();
      await database?.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A new demo tenant: two locations with API keys, users of every role, a catalog. */
export function createTenant(c: Container, options: { passwords?: boolean } = {}): Promise<DemoCompany> {
  return createDemoCompany(c, options);
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
