/**
 * Webhook delivery: how close the dispatcher gets to what a local receiver can take, and how
 * long an event waits between its commit and its receipt.
 *
 *   node bench/webhooks.bench.ts                      # SQLite and PostgreSQL
 *   node bench/webhooks.bench.ts --engine sqlite      # or --engine postgres
 *   node bench/webhooks.bench.ts --write-readme       # also replaces "## Webhook delivery" in bench/README.md
 *   BENCH_WORKER_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/prof" node bench/webhooks.bench.ts   # profile the worker
 *
 * Per engine, with a fresh DATA_DIR and database (PostgreSQL: `portico_bench_webhooks`):
 * 1. Set-up in this process: a demo tenant and one signed HTTP endpoint (whsec_ secret,
 *    quote.created) on bench/support/receiver.ts — a node:http server in its own process that
 *    answers 200 after reading and JSON-parsing the body and records receive time, id, timestamp.
 * 2. Pending deliveries: `portico serve` with WORKER=off takes real POST /api/v1/public/quotes
 *    (format json, 2 lines) from autocannon (32 connections): 200 warm-up, then 4 s measured (the
 *    server's quote-creation rate); each commits a quotation, its quote.created event and one
 *    pending delivery. The server stops. The queue is then topped up to N = 20 000 with the same
 *    event through the outbox itself (`enqueueEvent`, 200 events a transaction), because the API
 *    alone would take minutes on PostgreSQL; a delivery does not know how its event was made.
 * 3. Receiver baseline: autocannon in its own process against the receiver, 32 connections,
 *    pipelining 1, 3 s warm-up, 5 s measured, POST of a stored event body.
 * 4. Throughput: `node src/main/cli.ts worker` drains the queue; rate = (count - 1) / (last
 *    receipt - first receipt), timed by the receiver; every event must arrive exactly once.
 * 5. Engine latency: `portico worker` in its own process (the split deployment), and
 *    bench/support/latency-harness.ts in another committing quote.created events through the
 *    outbox (one transaction each, as the quotation service does) at half the measured delivery
 *    rate for 6 s; latency = receive time - the time the event's transaction resolved (both wall
 *    clock, performance.timeOrigin + performance.now()). This is the figure the targets apply
 *    to: half the delivery rate is far beyond what the API can create (step 2), and an
 *    overloaded API measures HTTP queueing, not delivery.
 * 6. API end to end: `portico serve` with its in-process worker (WORKER=on) fed POST /quotes
 *    open-loop at 100/s for 6 s; latency = receive time - the event's `timestamp` (created_at,
 *    taken before pricing and the transaction; ms resolution, so up to 1 ms high).
 * Bounded: a watchdog aborts after 240 s.
 */
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { Agent, request } from 'undici';
import { sql } from 'kysely';
import { loadConfig } from '../src/config/config.ts';
import { createContainer } from '../src/container.ts';
import { createDemoCompany } from '../src/modules/demo/demo-company.ts';
import { enqueueEvent, type EventData } from '../src/modules/webhooks/index.ts';
import {
  cpuSampler,
  enginesFromArgs,
  fireAmount,
  freePort,
  freshStorage,
  loadTest,
  machine,
  percentile,
  postgresVersion,
  readyPort,
  round,
  startNode,
  startPortico,
  stop,
  waitForHttp,
  watchdog,
  writeReadmeSection,
  ROOT,
  type Child,
  type CpuUse,
  type EngineName,
  type LoadResult,
  type LoadSettings,
} from './support/harness.ts';

const WATCHDOG_MS = 240_000;
const N = Number(process.env.BENCH_WEBHOOK_N ?? 20_000);
const TOP_UP_PER_TRANSACTION = 200;
const LATENCY_SECONDS = 6;
const API_RATE = Number(process.env.BENCH_WEBHOOK_API_RATE ?? 100);
const WARM_QUOTES = 200;
const CREATE_SECONDS = 4;
const RECEIVER_LOAD: LoadSettings = { connections: 32, durationS: 5, pipelining: 1, warmupS: 3 };
export const TARGETS = { ratio: 0.3, sqliteP50: 5, sqliteP99: 50 };

export interface WebhookEngineResult {
  engine: EngineName;
  receiver: LoadResult;
  payloadBytes: number;
  /** POST /quotes per second the server took with the worker off (the pre-creation run). */
  quotesPerSecond: number;
  throughput: {
    n: number;
    viaApi: number;
    received: number;
    unique: number;
    perSecond: number;
    seconds: number;
    fromSpawnSeconds: number;
    cpu: CpuUse;
  };
  ratio: number;
  /** The engine at half the delivery rate: events committed by latency-harness.ts, delivered by `portico worker`; commit → receipt. */
  latency: {
    rate: number;
    achievedRate: number;
    committed: number;
    received: number;
    unique: number;
    failed: number;
    p50: number;
    p99: number;
    max: number;
    cpu: CpuUse;
  };
  /** End to end through the API: `serve` (WORKER=on) fed POST /quotes at API_RATE; event timestamp → receipt. */
  apiLatency: {
    rate: number;
    achievedRate: number;
    sent: number;
    created: number;
    received: number;
    p50: number;
    p99: number;
    max: number;
    createP50: number;
    cpu: CpuUse;
  };
  met: { ratio: boolean; p50: boolean | null; p99: boolean | null };
}

export interface WebhooksResult {
  date: string;
  node: string;
  cores: number;
  cpu: string;
  postgres: string;
  n: number;
  engines: WebhookEngineResult[];
}

const children = new Set<ChildProcess>();
function track<T extends ChildProcess>(c: T): T {
  children.add(c);
  c.once('exit', () => children.delete(c));
  return c;
}

/** Talks to bench/support/receiver.ts over IPC. */
function receiverControl(child: Child) {
  const ask = <T>(cmd: string): Promise<T> =>
    new Promise((resolve) => {
      child.once('message', (m) => resolve(m as T));
      child.send({ cmd });
    });
  return {
    reset: () => ask<{ ok: true }>('reset'),
    count: () => ask<{ count: number; unique: number; lastAt: number | null }>('count'),
    stats: () =>
      ask<{ count: number; unique: number; bad: number; receivedAt: number[]; sentAt: number[]; ids: string[] }>(
        'stats',
      ),
  };
}

async function waitForCount(
  rx: ReturnType<typeof receiverControl>,
  count: number,
  timeoutMs: number,
  everyMs = 50,
): Promise<number> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const c = await rx.count();
    if (c.count >= count || Date.now() > until) return c.count;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

interface Tenant {
  companyId: string;
  locationId: string;
  apiKey: string;
  quoteBody: string;
}

/** A demo tenant with one signed HTTP endpoint (quote.created) on the receiver. */
async function setUp(env: Record<string, string>, receiverUrl: string): Promise<Tenant> {
  const config = loadConfig({ ...env, LOG_LEVEL: 'silent', WORKER: 'off', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  const c = await createContainer(config);
  try {
    const demo = await createDemoCompany(c);
    await c.endpoints.create(demo.companyId, {
      kind: 'http',
      url: `${receiverUrl}/portico`,
      secret: `whsec_${randomBytes(24).toString('base64')}`,
      events: ['quote.created'],
      description: 'bench receiver',
    });
    const p0 = demo.products[0]!;
    const p4 = demo.products[4]!;
    const quoteBody = JSON.stringify({
      format: 'json',
      customer: { name: 'Ana Kovač', email: 'ana.kovac@example.com' },
      lines: [
        { productId: p0.id, unitId: p0.units[0]!.id, quantity: 2 },
        { productId: p4.id, unitId: p4.units[0]!.id, quantity: 1 },
      ],
    });
    return {
      companyId: demo.companyId,
      locationId: demo.locations[0]!.id,
      apiKey: demo.locations[0]!.apiKey,
      quoteBody,
    };
  } finally {
    await c.close();
  }
}

/** The queue left by the API: pending deliveries (in-flight requests at the end of an autocannon run are not in its count) and one stored event body, as the dispatcher sends it. */
async function queueState(
  env: Record<string, string>,
  companyId: string,
): Promise<{ pending: number; payload: string }> {
  const c = await createContainer(loadConfig({ ...env, LOG_LEVEL: 'silent', WORKER: 'off' }), { migrate: false });
  try {
    const payload = (
      await c.database.db
        .selectFrom('webhook_events')
        .select('payload')
        .where('company_id', '=', companyId)
        .executeTakeFirstOrThrow()
    ).payload;
    const { n } = await c.database.db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    return { pending: Number(n), payload };
  } finally {
    await c.close();
  }
}

/**
 * Adds `count` pending deliveries: the stored quote.created event again, through the outbox, in
 * transactions of TOP_UP_PER_TRANSACTION. On PostgreSQL the tables are then analyzed, as
 * autovacuum would have done by then in a database that is not minutes old: without statistics
 * the planner reads all 20 000 pending rows and sorts them for every claim.
 */
async function topUp(env: Record<string, string>, tenant: Tenant, payload: string, count: number): Promise<void> {
  const c = await createContainer(loadConfig({ ...env, LOG_LEVEL: 'silent', WORKER: 'off' }), { migrate: false });
  try {
    const data = (JSON.parse(payload) as { data: EventData<'quote.created'> }).data;
    const chunks = Array.from({ length: Math.ceil(count / TOP_UP_PER_TRANSACTION) }, (_, i) =>
      Math.min(TOP_UP_PER_TRANSACTION, count - i * TOP_UP_PER_TRANSACTION),
    );
    // Several transactions at once: PostgreSQL's round trips overlap; SQLite runs them in turn.
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < chunks.length) {
          const size = chunks[next++]!;
          await c.store.transaction(async (repos) => {
            for (let i = 0; i < size; i++) {
              await enqueueEvent(
                repos,
                {
                  companyId: tenant.companyId,
                  locationId: tenant.locationId,
                  type: 'quote.created',
                  data: { ...data, quotationId: c.newId('quotation') },
                },
                { now: new Date().toISOString(), newId: c.newId },
              );
            }
          });
        }
      }),
    );
    if (c.database.engine === 'postgres') await sql`analyze`.execute(c.database.db);
  } finally {
    await c.close();
  }
}

/** Sends `rate` POSTs per second for `seconds`, open-loop (a slow server does not slow the schedule). */
async function steadyQuotes(url: string, apiKey: string, body: string, rate: number, seconds: number) {
  const agent = new Agent({ connections: 64, pipelining: 1, keepAliveTimeout: 30_000 });
  const total = Math.round(rate * seconds);
  const createMs: number[] = [];
  let sent = 0;
  let created = 0;
  let failed = 0;
  const inflight = new Set<Promise<void>>();
  const started = performance.now();
  const one = async () => {
    const t0 = performance.now();
    try {
      const res = await request(url, {
        method: 'POST',
        dispatcher: agent,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
        body,
      });
      await res.body.dump();
      if (res.statusCode === 201) {
        created++;
        createMs.push(performance.now() - t0);
      } else failed++;
    } catch {
      failed++;
    }
  };
  while (sent < total) {
    const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate) + 1);
    while (sent < due) {
      sent++;
      const p = one();
      inflight.add(p);
      void p.finally(() => inflight.delete(p));
    }
    await new Promise((r) => setTimeout(r, 1));
  }
  const elapsed = (performance.now() - started) / 1000;
  await Promise.all(inflight);
  await agent.close();
  createMs.sort((a, b) => a - b);
  return {
    sent,
    created,
    failed,
    achievedRate: round(sent / elapsed, 1),
    createP50: round(percentile(createMs, 50), 2),
  };
}

async function runEngine(engine: EngineName): Promise<WebhookEngineResult> {
  const storage = freshStorage(engine, 'webhooks');
  const receiver = track(startNode([path.join(ROOT, 'bench/support/receiver.ts')], {}, { ipc: true }));
  let worker: Child | null = null;
  let server: Child | null = null;
  try {
    const receiverPort = await readyPort(receiver);
    const receiverUrl = `http://127.0.0.1:${receiverPort}`;
    const rx = receiverControl(receiver);
    const env = { DATABASE_URL: storage.databaseUrl, DATA_DIR: storage.dataDir, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' };
    const serverEnv = (worker: 'on' | 'off', port: number) => ({
      ...env,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      WORKER: worker,
      RATE_LIMIT_PER_MINUTE: '1000000',
    });
    const tenant = await setUp(env, receiverUrl);
    const quoteRequest = {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tenant.apiKey}` },
      body: tenant.quoteBody,
    };

    // 1. Real quotations through the API with the worker off: pending deliveries, and the
    //    server's quote-creation capacity (after WARM_QUOTES not timed); then the outbox tops up to N.
    let port = await freePort();
    server = track(startPortico(['serve'], serverEnv('off', port)));
    await waitForHttp(`http://127.0.0.1:${port}/healthz`, server);
    const quotesUrl = () => `http://127.0.0.1:${port}/api/v1/public/quotes`;
    await fireAmount(quotesUrl(), quoteRequest, WARM_QUOTES, 32);
    const creation = await loadTest(
      quotesUrl(),
      quoteRequest,
      { connections: 32, pipelining: 1, durationS: CREATE_SECONDS, warmupS: 0 },
      { server: server.pid! },
    );
    if (creation.non2xx > 0 || creation.errors > 0)
      throw new Error(`quote creation failed: ${JSON.stringify(creation.statusCodes)}, ${creation.errors} errors`);
    const quotesPerSecond = round(creation.reqPerSec, 0);
    await stop(server);
    server = null;
    const { pending: viaApi, payload } = await queueState(env, tenant.companyId);
    await topUp(env, tenant, payload, Math.max(0, N - viaApi));
    const { pending } = await queueState(env, tenant.companyId);

    // 2. receiver baseline, right before the delivery run it is compared with
    const receiverLoad = await loadTest(
      `${receiverUrl}/portico`,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: payload },
      RECEIVER_LOAD,
      { receiver: receiver.pid! },
    );
    await rx.reset();

    // 3. throughput: the worker drains the queue
    const spawnedAt = performance.timeOrigin + performance.now();
    const flags = (process.env.BENCH_WORKER_FLAGS ?? '').split(' ').filter(Boolean);
    worker = track(startPortico(['worker'], { ...env, LOG_LEVEL: 'warn' }, flags));
    // CPU from the first receipt on, the window the rate is timed in: the worker's start-up
    // (module loading, ≈ 1 s of CPU) is not delivery work.
    await waitForCount(rx, 1, 30_000, 2);
    const sampler = cpuSampler({ worker: worker.pid!, receiver: receiver.pid! });
    const got = await waitForCount(rx, pending, 60_000);
    const cpu = sampler.stop();
    if (got < pending)
      console.error(
        `webhooks (${engine}): only ${got}/${pending} deliveries arrived within 60 s; worker output: ${worker.output().slice(-3000)}`,
      );
    await stop(worker);
    worker = null;
    const s = await rx.stats();
    const first = Math.min(...s.receivedAt);
    const last = Math.max(...s.receivedAt);
    const seconds = (last - first) / 1000;
    const perSecond = round((s.count - 1) / seconds, 0);
    const throughput = {
      n: pending,
      viaApi,
      received: s.count,
      unique: s.unique,
      perSecond,
      seconds: round(seconds, 2),
      fromSpawnSeconds: round((last - spawnedAt) / 1000, 2),
      cpu,
    };
    if (s.unique !== s.count) console.error(`webhooks (${engine}): ${s.count - s.unique} duplicate deliveries`);

    // 4. latency of the engine at half the delivery rate: events committed by one process,
    //    delivered by `portico worker` in another, commit → receipt
    await rx.reset();
    const rate = process.env.BENCH_WEBHOOK_ENGINE_RATE
      ? Number(process.env.BENCH_WEBHOOK_ENGINE_RATE)
      : Math.max(1, Math.round(perSecond / 2));
    worker = track(startPortico(['worker'], { ...env, LOG_LEVEL: 'warn' }, flags));
    const harness = track(startNode([path.join(ROOT, 'bench/support/latency-harness.ts')], {}, { ipc: true }));
    const next = () =>
      new Promise<unknown>((resolve, reject) => {
        harness.once('message', resolve);
        harness.once('exit', (code) => reject(new Error(`latency harness exited ${code}: ${harness.output()}`)));
      });
    const data = (JSON.parse(payload) as { data: Record<string, unknown> }).data;
    let reply = next();
    harness.send({
      env,
      companyId: tenant.companyId,
      locationId: tenant.locationId,
      data,
      rate,
      seconds: LATENCY_SECONDS,
      warmup: 1,
    });
    const warm = (await reply) as { warmedUp: number }; // delivered, they also prove the worker is up
    await waitForCount(rx, warm.warmedUp, 20_000);
    await rx.reset();
    const harnessSampler = cpuSampler({ producer: harness.pid!, worker: worker.pid!, receiver: receiver.pid! });
    reply = next();
    harness.send('go');
    const run = (await reply) as { commits: Array<[string, number]>; failed: number; achievedRate: number };
    const harnessCpu = harnessSampler.stop();
    await waitForCount(rx, run.commits.length, 10_000);
    const hs = await rx.stats();
    harness.send('close');
    const committedAt = new Map(run.commits);
    const engineLat = hs.ids
      .map((id, i) => hs.receivedAt[i]! - (committedAt.get(id) ?? Number.NaN))
      .filter((x) => Number.isFinite(x))
      .sort((a, b) => a - b);
    const latency = {
      rate,
      achievedRate: run.achievedRate,
      committed: run.commits.length,
      received: hs.count,
      unique: hs.unique,
      failed: run.failed,
      p50: round(percentile(engineLat, 50), 2),
      p99: round(percentile(engineLat, 99), 2),
      max: round(engineLat.at(-1) ?? Number.NaN, 2),
      cpu: harnessCpu,
    };
    await stop(harness);
    await stop(worker);
    worker = null;

    // 5. end to end through the API: serve with its in-process worker, quotes at API_RATE
    await rx.reset();
    port = await freePort();
    server = track(startPortico(['serve'], serverEnv('on', port)));
    await waitForHttp(`http://127.0.0.1:${port}/healthz`, server);
    await steadyQuotes(quotesUrl(), tenant.apiKey, tenant.quoteBody, 50, 1); // warm-up, not measured
    await waitForCount(rx, 50, 10_000);
    await rx.reset();
    const apiSampler = cpuSampler({ server: server.pid!, receiver: receiver.pid! });
    const gen = await steadyQuotes(quotesUrl(), tenant.apiKey, tenant.quoteBody, API_RATE, LATENCY_SECONDS);
    const apiCpu = apiSampler.stop();
    await waitForCount(rx, gen.created, 10_000);
    const ls = await rx.stats();
    const lat = ls.receivedAt
      .map((at, i) => at - ls.sentAt[i]!)
      .filter((x) => Number.isFinite(x))
      .sort((a, b) => a - b);
    const apiLatency = {
      rate: API_RATE,
      achievedRate: gen.achievedRate,
      sent: gen.sent,
      created: gen.created,
      received: ls.count,
      p50: round(percentile(lat, 50), 2),
      p99: round(percentile(lat, 99), 2),
      max: round(lat.at(-1) ?? Number.NaN, 2),
      createP50: gen.createP50,
      cpu: apiCpu,
    };
    if (gen.failed > 0 || run.failed > 0)
      console.error(`webhooks (${engine}): ${gen.failed} quote requests and ${run.failed} event commits failed`);

    const ratio = round(perSecond / receiverLoad.reqPerSec, 3);
    const allArrived =
      latency.received === latency.committed && latency.unique === latency.committed && latency.failed === 0;
    return {
      engine,
      receiver: receiverLoad,
      payloadBytes: Buffer.byteLength(payload),
      quotesPerSecond,
      throughput,
      ratio,
      latency,
      apiLatency,
      met: {
        ratio: ratio >= TARGETS.ratio && s.count === pending && s.unique === pending,
        p50: engine === 'sqlite' ? latency.p50 <= TARGETS.sqliteP50 && allArrived : null,
        p99: engine === 'sqlite' ? latency.p99 <= TARGETS.sqliteP99 && allArrived : null,
      },
    };
  } finally {
    await stop(worker);
    await stop(server);
    receiver.kill('SIGTERM');
    storage.cleanup();
  }
}

export async function runWebhooksBench(engines: EngineName[]): Promise<WebhooksResult> {
  const m = machine();
  const result: WebhooksResult = {
    date: m.date,
    node: m.node,
    cores: m.cores,
    cpu: m.cpu,
    postgres: engines.includes('postgres') ? postgresVersion() : 'n/a',
    n: N,
    engines: [],
  };
  for (const engine of engines) result.engines.push(await runEngine(engine));
  return result;
}

const mark = (ok: boolean | null) => (ok === null ? 'no target' : ok ? 'met' : 'missed');

export function summary(r: WebhooksResult): string {
  const name = (e: WebhookEngineResult) => (e.engine === 'postgres' ? 'PostgreSQL' : 'SQLite');
  const target = (e: WebhookEngineResult, ok: boolean | null, limit: number) =>
    e.engine === 'postgres' ? 'no target' : `≤ ${limit}: ${mark(ok)}`;
  return [
    '| engine | deliveries/s | receiver req/s (autocannon) | ratio (target ≥ 0.3) | CPU cores while draining: worker / receiver / machine | quotes/s through the API (worker off) |',
    '|---|---:|---:|---:|---:|---:|',
    ...r.engines.map((e) => {
      const t = e.throughput;
      return `| ${name(e)} | ${t.perSecond} (${t.received}/${t.n} in ${t.seconds} s, ${t.unique} unique; ${t.viaApi} queued through the API) | ${round(e.receiver.reqPerSec, 0)} | **${e.ratio}** (${mark(e.met.ratio)}) | ${t.cpu.worker ?? '?'} / ${t.cpu.receiver ?? '?'} / ${t.cpu.machine ?? '?'} | ${e.quotesPerSecond} |`;
    }),
    '',
    '| engine | engine latency: events/s (½ delivery rate; achieved) | commit→receipt p50 | p99 | max | CPU cores: producer / worker / receiver / machine | API end to end: quotes/s | timestamp→receipt p50 | p99 | max | quote 201 p50 | CPU cores: server / receiver / machine |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...r.engines.map((e) => {
      const l = e.latency;
      const a = e.apiLatency;
      return `| ${name(e)} | ${l.rate} (${l.achievedRate}; ${l.received}/${l.committed} received, ${l.unique} unique) | **${l.p50} ms** (${target(e, e.met.p50, TARGETS.sqliteP50)}) | **${l.p99} ms** (${target(e, e.met.p99, TARGETS.sqliteP99)}) | ${l.max} ms | ${l.cpu.producer ?? '?'} / ${l.cpu.worker ?? '?'} / ${l.cpu.receiver ?? '?'} / ${l.cpu.machine ?? '?'} | ${a.achievedRate} (${a.received}/${a.created}) | ${a.p50} ms | ${a.p99} ms | ${a.max} ms | ${a.createP50} ms | ${a.cpu.server ?? '?'} / ${a.cpu.receiver ?? '?'} / ${a.cpu.machine ?? '?'} |`;
    }),
  ].join('\n');
}

/** Static: what profiling found (kept with its date; re-check after changes). */
const DIAGNOSIS = [
  'Findings (2026-11-21; `--cpu-prof` on the worker, SQLite statement timings and in-process drains of 20 000 deliveries outside the repository; single runs on a shared VM, so the figures are indicative):',
  "- What changed (the tables above are measured with it): the dispatcher is a pipeline instead of a batch loop (claim → send all → record each → claim). It keeps up to 128 deliveries on the wire (256 on PostgreSQL) and claims again once 64 (128) slots are free, so a slow send no longer holds up the others. Finished attempts are recorded set-based: on SQLite one `UPDATE … FROM (VALUES …)` and one multi-row INSERT of a power-of-two size (each statement text is prepared once), in the same transaction and commit as the next claim; on PostgreSQL one statement over `unnest`ed arrays updates the deliveries and inserts their attempt log, beside the claims on another connection. Only failures and recoveries (give-ups, 410, a failing streak starting or ending) take a transaction with notifications. The hot statements are written out instead of built with Kysely (its builder cost ≈ 10 µs a row for the attempt INSERT, more than SQLite takes to write the row), and so are the outbox's three statements in every quotation's and order's transaction. Sends use undici's `dispatch` with a small handler instead of `request()` and its response stream; the signing key, decrypted secret and parsed URL are kept per endpoint; the clock is read once per claim.",
  "- SQLite throughput is CPU-bound in the worker at ≈ 75–90 µs per delivery on a quiet machine (≈ 290 before): undici ≈ 35 µs, of which the `writev` system call alone is 10–28 µs on this VM; our channel code ≈ 10 µs (HMAC ≈ 3); SQLite ≈ 17–25 µs (lease ≈ 4, recording UPDATE ≈ 4–5, attempt INSERT ≈ 3, event read ≈ 2.5, commit ≈ 3.5–4, plus autocheckpoints); the dispatcher ≈ 6; GC ≈ 2–3.5. The receiver baseline asks for ≈ 65–75 µs per delivery in all, so the ratio sits at the target's edge: 0.299 and 0.347 in the last two quiet runs, and it moves with the machine's other load (which slows the receiver baseline as well).",
  "- PostgreSQL throughput is bound by PostgreSQL's own CPU, not by commits (`synchronous_commit=off` changed nothing): recording 500 outcomes takes ≈ 42 ms in the backend (≈ 84 µs a delivery: the `status` change is a non-HOT update with three index inserts, the attempt insert two more, and its two foreign-key checks ≈ 20 µs), the claim ≈ 20 µs more; with the worker (≈ 0.6 core) and the receiver that fills the two cores at ≈ 5–7k deliveries/s. Two plan traps are avoided: without statistics the claim read and sorted every pending row (10.8 ms instead of 1.2 ms per claim of 64; this bench analyzes after filling the queue, as autovacuum would in a database that is not minutes old), and the recording, joined by hash, read the whole table (`= any` keeps it on the primary key).",
  "- Engine latency (SQLite) with the producer and the worker in separate processes: SQLite's busy handler sleeps 1, 2, 5, 10 … ms on the event loop when another process holds the write lock. The worker's transactions now try the lock without waiting and retry on the next turns of its event loop (`tryWriteTransaction`); before, its BEGIN waited 0.7 ms on average and up to 60–80 ms at 2.5k events/s, and p99 was 65–130 ms. The producer still sleeps when it meets the worker's lock: committing one event per transaction it reached only 1.4–1.9k of 5k events/s, and one process alone commits at most ≈ 10k single-event transactions/s (≈ 5.6k before the outbox's statements were written out), so the producer groups the events of one event-loop turn in a transaction (≈ 6 a commit at 6k/s). On a quiet machine, at 5.2k–7.7k events/s: p50 2.4–3.3 ms, p99 10–42 ms; the spikes behind the p99 (20–40 ms) are garbage collections and other processes taking the CPU.",
  "- WAL checkpoints: at 6k events/s the 1000-page autocheckpoint ran about 20 times a second, and whichever commit crossed the threshold paid page copies and two fsyncs on its event loop (up to 65 ms in the worker). The worker's own commits now leave it to the other writers unless the WAL passes 10 000 pages (worker commit ≈ 280 → 76 µs on average in one pair of runs). Checkpointing off the event loop altogether is a database-layer change.",
  "- In one process (as `serve` with its worker), committing and delivering thousands of events a second saturates the one event loop: at 2.5k events/s the dispatcher's claims queued behind the producer's transactions on the one connection and latency grew to seconds. `serve` at realistic rates is the API end-to-end column.",
  '- Variance: this VM is shared with other work (a fuzzer, PDF benches and test suites ran during these measurements); across runs the SQLite drain measured 10–15k deliveries/s with the worker at a full core and 5–8k when it got less, the receiver 17k–48k req/s, and the engine-latency p99 10–217 ms. Compare runs through the CPU columns: "machine" near 2 means the run was crowded.',
  "- One slow receiver's backlog (2026-11-24, issue 12): claims stay as they were while the window has room; once it is full and an endpoint holds twice its cap of 16 (sending and waiting), a look-past claim passes over such endpoints (`endpoint_id not in (…)`, a statement of its own, so the plain claim is unchanged), their waiting deliveries stop counting against the window (never more than doubled), and a look-past that finds nothing is not repeated before a wake-up and 50 ms, or before an endpoint it passed over has room. A single endpoint's drain (this bench) pays one empty claim. Interleaved A/B of the SQLite drain alone (N = 20 000; this tree's bench, `BENCH_CLI` at main's tree for A; A then B, 8 pairs) on a crowded machine (load 5–17, \"machine\" 2.0, worker 0.17–0.65 core): main 657, 862, 507, 781, 829, 2132, 1436, 1407 deliveries/s (median 846), look-past 889, 462, 608, 750, 647, 1766, 1401, 959 (median 820); per worker core-second main median 2909 (2659–3280), look-past 2711 (2283–3293). The medians differ by less than the run-to-run spread; B came out lower per worker core in 7 of 8 pairs (≈ 7 %), always run second as the load rose, so a small cost is not excluded until a quiet machine re-runs it (with B first in half the pairs). Re-run on a quiet machine the same evening (SQLite drain, N = 20 000, order A B B A A B, A = main before the merge at 386b02a through `BENCH_CLI`): main 2152, 3799, 3578 deliveries/s (worker 0.69, 1.09, 1.00 core; per worker core-second median 3485), look-past 3268, 5126, 4029 (1.04, 1.11, 1.07; median 3765): no cost beyond the spread, and none per core.",
];

export function markdown(r: WebhooksResult, notes: string[] = DIAGNOSIS): string {
  const payload = r.engines[0]?.payloadBytes ?? 0;
  return [
    '## Webhook delivery',
    '',
    `Measured ${r.date} with \`node bench/webhooks.bench.ts\` — Node ${r.node}, ${r.cores} cores (${r.cpu}), PostgreSQL ${r.postgres} on the same machine.`,
    `Receiver baseline: autocannon ${RECEIVER_LOAD.connections} connections, pipelining ${RECEIVER_LOAD.pipelining}, ${RECEIVER_LOAD.durationS} s measured after a ${RECEIVER_LOAD.warmupS} s warm-up, POST of a ${payload}-byte quote.created body (a stored event).`,
    '',
    summary(r),
    '',
    'How it is measured:',
    '- Receiver: `bench/support/receiver.ts`, a node:http server in its own process answering 200 after reading and JSON-parsing the body and recording its receive time — the same work whether autocannon or the dispatcher drives it. Signatures are not checked.',
    `- Throughput: real \`POST /api/v1/public/quotes\` (format json, 2 lines; autocannon, 32 connections: ${WARM_QUOTES} warm-up, ${CREATE_SECONDS} s measured = "quotes/s") against \`serve\` with WORKER=off leave pending quote.created deliveries to one signed HTTP endpoint (\`whsec_\` secret: every send is HMAC-signed, and the secret is decrypted from the database); the queue is then topped up to N = ${r.n} with the same event through the outbox itself (\`enqueueEvent\`, ${TOP_UP_PER_TRANSACTION} events a transaction; the API alone would take minutes on PostgreSQL) and, on PostgreSQL, analyzed. Then \`node src/main/cli.ts worker\` (LOG_LEVEL=warn) drains it. deliveries/s = (count − 1) ÷ (last − first receipt), timed by the receiver; every event must arrive exactly once. Ratio = deliveries/s ÷ receiver req/s.`,
    `- Engine latency (the targets): the split deployment — \`node src/main/cli.ts worker\` in its own process (woken by NOTIFY on PostgreSQL, by its 2 ms \`pragma data_version\` poll on SQLite), and \`bench/support/latency-harness.ts\` in another committing quote.created events through the outbox (\`enqueueEvent\`, as the quotation service does) open-loop at half the measured delivery rate for ${LATENCY_SECONDS} s, after 1 s at the same rate that is not measured. The events due in the same turn of the producer's event loop share a transaction (\`src/lib/group-commit.ts\`; see the findings for why). Latency = receiver's receive time − the time the event's transaction resolved (both performance.timeOrigin + performance.now(), the machine's wall clock). "achieved" is the rate the producer really committed.`,
    `- API end to end: \`serve\` with its in-process worker (WORKER=on, the default deployment) fed \`POST /api/v1/public/quotes\` open-loop from the bench process at ${API_RATE}/s for ${LATENCY_SECONDS} s after a 1 s warm-up (half the delivery rate is beyond what the API can create: see quotes/s). Latency = receive time − the event's \`timestamp\` (created_at, taken before pricing and the transaction, so it includes the create work; ms resolution, so up to 1 ms high). "quote 201 p50" is the client-side create latency.`,
    '- CPU columns: cores used in the measured window by each process and by the whole machine (of 2), from /proc; PostgreSQL\'s backends are in "machine". The machine is shared, so "machine" well above the sum of ours means other load. While draining: from the first receipt to the last (the worker\'s start-up, ≈ 1 s of CPU loading modules, is left out).',
    '',
    ...notes,
    '',
    'Run: `node bench/webhooks.bench.ts [--engine sqlite|postgres|both] [--write-readme]` (about 100 s for both engines; `BENCH_WEBHOOK_N` changes N). Profile the worker with `BENCH_WORKER_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/prof"`; `BENCH_CLI=/path/to/other/src/main/cli.ts` runs it against a patched tree (the set-up still uses this tree\'s src); `BENCH_WEBHOOK_API_RATE` sets the API end-to-end rate, `BENCH_WEBHOOK_ENGINE_RATE` the engine-latency rate. Also run by `npm run bench`.',
    '',
  ].join('\n');
}

if (import.meta.main) {
  const timer = watchdog(WATCHDOG_MS, 'webhooks bench', () => {
    for (const c of children) c.kill('SIGKILL');
  });
  const result = await runWebhooksBench(enginesFromArgs(process.argv));
  console.log(JSON.stringify(result, null, 2));
  console.log();
  console.log(summary(result));
  if (process.argv.includes('--write-readme')) writeReadmeSection('Webhook delivery', markdown(result));
  clearTimeout(timer);
}
