// test-engines: sqlite
// (Once, not on both passes: both tests start a PostgreSQL server of their own, whichever engine the run is on.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../../src/config/config.ts';
import { createContainer } from '../../src/container.ts';
import { createDemoCompany, type DemoCompany } from '../../src/modules/demo/demo-company.ts';
import { exited, freePort, startPortico, waitForHttp } from '../support/processes.ts';
import {
  postgresBinaries,
  redisBinary,
  startPrivatePostgres,
  startPrivateRedis,
  type PrivatePostgres,
} from '../support/private-servers.ts';

const CLIENTS = 4;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Bounded load (a few clients, to 127.0.0.1 only) of quotes and contact-form inquiries until
 * told to stop. Every answer is counted by status; a 503 must be problem+json with Retry-After.
 */
function startLoad(base: string, demo: DemoCompany) {
  const statuses = new Map<string, number>();
  const quotes: string[] = [];
  const inquiries: string[] = [];
  const bad503: string[] = [];
  let stopped = false;
  const product = demo.products[0]!;
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${demo.locations[0]!.apiKey}` };
  const quote = JSON.stringify({
    format: 'json',
    customer: { name: 'Outage Test' },
    lines: [{ productId: product.id, unitId: product.units[0]!.id, quantity: 1 }],
  });
  const inquiry = JSON.stringify({
    topic: 'Outage',
    subject: 'Still there?',
    message: 'A message sent while the database restarts.',
    email: 'outage@example.com',
    phone: '+385 91 000 0000',
  });
  const count = (key: string) => statuses.set(key, (statuses.get(key) ?? 0) + 1);
  const done = Promise.all(
    Array.from({ length: CLIENTS }, async (_, i) => {
      for (let n = 0; !stopped; n++) {
        const isQuote = (n + i) % 2 === 0;
        try {
          const res = await fetch(`${base}/api/v1/public/${isQuote ? 'quotes' : 'reach-out'}`, {
            method: 'POST',
            headers,
            body: isQuote ? quote : inquiry,
          });
          count(String(res.status));
          if (res.status === 201) {
            const { data } = (await res.json()) as { data: { id: string } };
            (isQuote ? quotes : inquiries).push(data.id);
          } else {
            const text = await res.text();
            if (
              res.status === 503 &&
              (!res.headers.get('retry-after') ||
                !res.headers.get('content-type')?.startsWith('application/problem+json'))
            )
              bad503.push(`${res.headers.get('content-type')} ${res.headers.get('retry-after')} ${text.slice(0, 200)}`);
            if (res.status === 503) await sleep(50); // a client honouring Retry-After, compressed
          }
        } catch (error) {
          count(`network:${(error as Error).cause ?? (error as Error).message}`);
          await sleep(50);
        }
      }
    }),
  );
  return {
    statuses,
    quotes,
    inquiries,
    bad503,
    async stop() {
      stopped = true;
      await done;
    },
  };
}

function summary(statuses: Map<string, number>): string {
  return [...statuses].map(([k, v]) => `${k}: ${v}`).join(', ');
}

function onlyOkOr503(statuses: Map<string, number>): string[] {
  return [...statuses.keys()].filter((k) => !/^2\d\d$/.test(k) && k !== '503');
}

async function seed(databaseUrl: string, dir: string): Promise<DemoCompany> {
  const c = await createContainer(loadConfig({ DATABASE_URL: databaseUrl, DATA_DIR: dir, LOG_LEVEL: 'silent' }));
  try {
    return await createDemoCompany(c);
  } finally {
    await c.close();
  }
}

async function missing(url: string, table: 'quotations' | 'inquiries', ids: string[]): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>(`select id from ${table} where id = any($1)`, [ids]);
    const found = new Set(rows.map((r) => r.id));
    return ids.filter((id) => !found.has(id));
  } finally {
    await client.end();
  }
}

// The outage tests start servers of their own: without the binaries the run fails, it never skips.
const needPostgres = () =>
  assert.ok(
    postgresBinaries() !== null,
    'PostgreSQL server binaries (initdb, pg_ctl) are not installed: apt-get install -y postgresql',
  );
const needRedis = () =>
  assert.ok(redisBinary() !== null, 'redis-server is not installed: apt-get install -y redis-server');

test('PostgreSQL stopped, restarted and its connections cut under load: only 2xx and 503, the process lives, every 201 is stored', {
  timeout: 120_000,
}, async (t) => {
  needPostgres();
  const cluster: PrivatePostgres = await startPrivatePostgres();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-outage-'));
  t.after(async () => {
    await cluster.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const demo = await seed(cluster.url, dir);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = startPortico(['serve'], {
    DATABASE_URL: cluster.url,
    DATA_DIR: dir,
    HOST: '127.0.0.1',
    PORT: String(port),
    RATE_LIMIT_PER_MINUTE: '1000000',
    LOG_LEVEL: 'error',
  });
  t.after(async () => {
    server.kill('SIGKILL');
    await exited(server);
  });
  await waitForHttp(`${base}/readyz`);

  const load = startLoad(base, demo);
  t.after(() => load.stop()); // a failed assertion must not leave the clients running
  await sleep(1_000);

  // 1. Stopped: liveness stays 200, readiness turns 503, requests are 503 with Retry-After.
  await cluster.stop();
  await sleep(1_500);
  const live = await fetch(`${base}/healthz`);
  const ready = await fetch(`${base}/readyz`);
  assert.equal(live.status, 200, 'liveness while the database is down');
  assert.equal(ready.status, 503, 'readiness while the database is down');
  assert.ok(ready.headers.get('retry-after'));
  await cluster.start();
  const back = Date.now();
  let readyAgain = false;
  while (Date.now() - back < 20_000 && !readyAgain) {
    readyAgain = (await fetch(`${base}/readyz`)).status === 200;
    if (!readyAgain) await sleep(100);
  }
  assert.ok(readyAgain, '/readyz is 200 again once the database is back');

  // 2. Restarted (fast shutdown: every session terminated, as `pg_ctlcluster … restart`).
  await sleep(1_000);
  await cluster.restart();
  await sleep(2_000);

  // 3. Connections cut one by one: pg_terminate_backend every 100 ms for 3 s, catching
  // clients checked out between two statements of a transaction.
  const until = Date.now() + 3_000;
  while (Date.now() < until) {
    await cluster
      .admin(
        `select pg_terminate_backend(pid) from pg_stat_activity where datname = 'portico' and pid <> pg_backend_pid()`,
      )
      .catch(() => {});
    await sleep(100);
  }
  await sleep(1_500);
  await load.stop();

  const figures = `statuses: ${summary(load.statuses)}; quotes stored: ${load.quotes.length}, inquiries: ${load.inquiries.length}`;
  t.diagnostic(figures);
  assert.equal(server.exitCode, null, `the server is still running\n${server.output()}`);
  assert.deepEqual(onlyOkOr503(load.statuses), [], figures);
  assert.deepEqual(load.bad503.slice(0, 3), [], '503s are problem+json with Retry-After');
  assert.ok((load.statuses.get('201') ?? 0) > 20, figures);
  assert.ok((load.statuses.get('503') ?? 0) > 0, `the outages were seen: ${figures}`);
  assert.equal((await fetch(`${base}/readyz`)).status, 200, 'ready after the outages');
  assert.deepEqual(await missing(cluster.url, 'quotations', load.quotes), [], 'every acknowledged quotation');
  assert.deepEqual(await missing(cluster.url, 'inquiries', load.inquiries), [], 'every acknowledged inquiry');
});

test('Redis stopped and started under load: rate limits fail open, every request answered 2xx', {
  timeout: 120_000,
}, async (t) => {
  needPostgres();
  needRedis();
  const redis = await startPrivateRedis();
  const cluster = await startPrivatePostgres();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-outage-'));
  t.after(async () => {
    await redis.destroy();
    await cluster.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const demo = await seed(cluster.url, dir);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = startPortico(['serve'], {
    DATABASE_URL: cluster.url,
    DATA_DIR: dir,
    HOST: '127.0.0.1',
    PORT: String(port),
    REDIS_URL: redis.url,
    RATE_LIMIT_PER_MINUTE: '1000000',
    LOG_LEVEL: 'error',
  });
  t.after(async () => {
    server.kill('SIGKILL');
    await exited(server);
  });
  await waitForHttp(`${base}/readyz`);
  const load = startLoad(base, demo);
  t.after(() => load.stop());
  await sleep(1_000);
  await redis.stop();
  await sleep(2_000);
  await redis.start();
  await sleep(2_000);
  await load.stop();

  const figures = `statuses: ${summary(load.statuses)}`;
  t.diagnostic(figures);
  assert.equal(server.exitCode, null, `the server is still running\n${server.output()}`);
  assert.deepEqual(
    [...load.statuses.keys()].filter((k) => !/^2\d\d$/.test(k)),
    [],
    figures,
  );
  assert.deepEqual(await missing(cluster.url, 'quotations', load.quotes), []);
  assert.deepEqual(await missing(cluster.url, 'inquiries', load.inquiries), []);
});
