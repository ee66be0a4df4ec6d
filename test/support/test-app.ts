import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash, randomUUID } from 'node:crypto';
import pg from 'pg';
import { loadConfig } from '../../src/config/config.ts';
import { createDatabase } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { createContainer, type Container } from '../../src/container.ts';
import { buildApp, type App } from '../../src/http/build-app.ts';
import { createDemoCompany, type DemoCompany } from '../../src/modules/demo/demo-company.ts';
import type { Clock } from '../../src/lib/clock.ts';

/**
 * A database of its own for one test app or process group: a fresh SQLite file by default, or,
 * when TEST_DATABASE_URL is set (CI runs the engine-dependent files both ways), a fresh database
 * on that PostgreSQL server. Sharing one would let one test's webhook worker deliver another
 * test's events with its own settings.
 *
 * It starts migrated: a copy of a template migrated once per set of migrations (a SQLite file
 * in the temporary folder; a PostgreSQL template database), which saves each test app the
 * migrations' second of work. The app's own migrator then finds nothing to do.
 */
export async function provisionDatabase(dir: string): Promise<{ url: string; drop(): Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) {
    const file = path.join(dir, 'portico.sqlite');
    fs.copyFileSync(await sqliteTemplate(), file);
    return { url: `sqlite:${file}`, drop: async () => {} };
  }
  const name = `portico_t_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const template = await postgresTemplate(base);
  await onServer(base, (admin) => admin.query(`create database ${name} template ${template}`));
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => onServer(base, (admin) => admin.query(`drop database if exists ${name} with (force)`)).then(() => {}),
  };
}

/** The migrations' identity: a template is reused only by the code that would migrate the same way. */
function migrationsKey(): string {
  const folder = path.join(import.meta.dirname, '../../src/db');
  const hash = createHash('sha256');
  for (const file of [
    'migrate.ts',
    ...fs
      .readdirSync(path.join(folder, 'migrations'))
      .sort()
      .map((f) => `migrations/${f}`),
  ])
    hash.update(file).update(fs.readFileSync(path.join(folder, file)));
  return hash.digest('hex').slice(0, 16);
}

async function migrated(url: string): Promise<void> {
  const database = createDatabase(url);
  try {
    await migrateToLatest(database);
  } finally {
    await database.close();
  }
}

/**
 * Made by whichever test process needs it first: each migrates a file of its own and renames it
 * into place, so processes racing at the start of a run each get a whole template, never half of one.
 */
async function sqliteTemplate(): Promise<string> {
  const template = path.join(os.tmpdir(), `portico-template-${migrationsKey()}.sqlite`);
  if (fs.existsSync(template)) return template;
  const own = `${template}.${process.pid}-${randomUUID().slice(0, 8)}`;
  await migrated(`sqlite:${own}`);
  for (const suffix of ['-wal', '-shm']) fs.rmSync(`${own}${suffix}`, { force: true });
  fs.renameSync(own, template);
  return template;
}

/** As for SQLite: migrated under a name of its own, renamed into place; a loser of the race drops its copy. */
async function postgresTemplate(base: string): Promise<string> {
  const template = `portico_tpl_${migrationsKey()}`;
  const exists = await onServer(base, (admin) =>
    admin.query('select 1 from pg_database where datname = $1', [template]).then((r) => r.rowCount === 1),
  );
  if (exists) return template;
  const own = `${template}_${randomUUID().replace(/-/g, '').slice(0, 8)}`;
  await onServer(base, (admin) => admin.query(`create database ${own}`));
  const url = new URL(base);
  url.pathname = `/${own}`;
  await migrated(url.toString());
  await onServer(base, async (admin) => {
    try {
      await admin.query(`alter database ${own} rename to ${template}`);
    } catch (error) {
      if ((error as { code?: string }).code !== '42P04') throw error; // duplicate_database: another process won
      await admin.query(`drop database if exists ${own} with (force)`);
    }
  });
  return template;
}

async function onServer<T>(base: string, work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
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

/** A demo tenant whose prices include VAT (pricesIncludeTax is fixed when a company is made: set here directly). */
export async function createGrossTenant(c: Container): Promise<DemoCompany> {
  const demo = await createDemoCompany(c);
  await c.database.db
    .updateTable('companies')
    .set({ prices_include_tax: true })
    .where('id', '=', demo.companyId)
    .execute();
  return demo;
}
