/**
 * Reach-out throughput: POST /api/v1/public/reach-out requests/s on the real server, divided
 * by the requests/s of a bare Fastify JSON echo route measured in the same run, on the same
 * machine, with the same autocannon settings.
 *
 *   node bench/reach-out.bench.ts                      # SQLite and PostgreSQL
 *   node bench/reach-out.bench.ts --engine sqlite      # or --engine postgres
 *   node bench/reach-out.bench.ts --write-readme       # also replaces "## Reach-out throughput" in bench/README.md
 *   BENCH_SERVER_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/prof" node bench/reach-out.bench.ts   # profile the server
 *
 * Per engine: a fresh DATA_DIR and database (PostgreSQL: `portico_bench_reach_out`, dropped and
 * recreated), a tenant from `portico demo --json`, then `portico serve` as a child process
 * (LOG_LEVEL=warn, WORKER=off, RATE_LIMIT_PER_MINUTE=1000000 — the config's maximum, ~16 667/s,
 * far above what one process serves, so it is never hit). The echo server is
 * bench/support/echo-server.ts in its own process. autocannon runs in its own process:
 * 32 connections, pipelining 1, a 3 s warm-up (discarded), then 10 s measured; echo first,
 * then reach-out. The same reach-out body every time, no Idempotency-Key.
 * Bounded: a watchdog aborts after 110 s.
 */
import path from 'node:path';
import {
  DEFAULT_LOAD, enginesFromArgs, freePort, freshStorage, loadTest, machine, postgresVersion, readyPort, round, runPortico,
  startNode, startPortico, stop, waitForHttp, watchdog, writeReadmeSection, ROOT,
  type Child, type EngineName, type LoadResult, type LoadSettings,
} from './support/harness.ts';

const WATCHDOG_MS = 110_000;
export const TARGETS: Record<EngineName, number> = { sqlite: 0.45, postgres: 0.25 };

export const REACH_OUT_BODY = {
  topic: 'Product question',
  subject: 'Is Boja za drvo Šišmiš available in 5 L?',
  message: 'Hello, I would like to know whether the walnut wood stain comes in a 5 L can, and how long delivery to Split takes. Thank you!',
  email: 'ana.kovac@example.com',
  phone: '+385 91 555 0101',
  name: 'Ana Kovač',
};

export interface EngineResult {
  engine: EngineName;
  reachOut: LoadResult;
  echo: LoadResult;
  ratio: number;
  target: number;
  met: boolean;
}

export interface ReachOutResult {
  date: string;
  node: string;
  cores: number;
  cpu: string;
  postgres: string;
  load: LoadSettings;
  engines: EngineResult[];
}

const children = new Set<Child>();
const track = (c: Child): Child => { children.add(c); c.once('exit', () => children.delete(c)); return c; };

async function measureEcho(load: LoadSettings, body: string): Promise<LoadResult> {
  const echo = track(startNode([path.join(ROOT, 'bench/support/echo-server.ts')]));
  try {
    const port = await readyPort(echo);
    return await loadTest(`http://127.0.0.1:${port}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }, load, { server: echo.pid! });
  } finally {
    await stop(echo);
  }
}

async function runEngine(engine: EngineName, load: LoadSettings): Promise<EngineResult> {
  const storage = freshStorage(engine, 'reach-out');
  let server: Child | null = null;
  try {
    const env = { DATABASE_URL: storage.databaseUrl, DATA_DIR: storage.dataDir };
    const demo = JSON.parse(await runPortico(['demo', '--json'], env)) as { locations: Array<{ apiKey: string }> };
    const apiKey = demo.locations[0]!.apiKey;
    const port = await freePort();
    const flags = (process.env.BENCH_SERVER_FLAGS ?? '').split(' ').filter(Boolean);
    server = track(startPortico(['serve'], {
      ...env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', WORKER: 'off', RATE_LIMIT_PER_MINUTE: '1000000',
    }, flags));
    await waitForHttp(`http://127.0.0.1:${port}/healthz`, server);

    const body = JSON.stringify(REACH_OUT_BODY);
    const echo = await measureEcho(load, body);
    const reachOut = await loadTest(`http://127.0.0.1:${port}/api/v1/public/reach-out`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` }, body,
    }, load, { server: server.pid! });
    if (reachOut.non2xx > 0 || reachOut.errors > 0) {
      console.error(`reach-out (${engine}): ${reachOut.non2xx} non-2xx ${JSON.stringify(reachOut.statusCodes)}, ${reachOut.errors} errors`);
    }
    const ratio = round(reachOut.reqPerSec / echo.reqPerSec, 3);
    return { engine, reachOut, echo, ratio, target: TARGETS[engine], met: ratio >= TARGETS[engine] && reachOut.non2xx === 0 && reachOut.errors === 0 };
  } finally {
    await stop(server);
    storage.cleanup();
  }
}

export async function runReachOutBench(engines: EngineName[], load: LoadSettings = DEFAULT_LOAD): Promise<ReachOutResult> {
  const m = machine();
  const result: ReachOutResult = { date: m.date, node: m.node, cores: m.cores, cpu: m.cpu, postgres: engines.includes('postgres') ? postgresVersion() : 'n/a', load, engines: [] };
  for (const engine of engines) result.engines.push(await runEngine(engine, load));
  return result;
}

export function summary(r: ReachOutResult): string {
  const cpu = (l: LoadResult) => `${l.cpu.server ?? '?'} / ${l.cpu.autocannon ?? '?'} / ${l.cpu.machine ?? '?'}`;
  return [
    '| engine | reach-out req/s | echo req/s | ratio (target) | reach-out p50 / p99 | echo p50 / p99 | reach-out non-2xx / errors | CPU cores, reach-out run: server / autocannon / machine | CPU cores, echo run |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...r.engines.map((e) => `| ${e.engine === 'sqlite' ? 'SQLite' : 'PostgreSQL'} | ${round(e.reachOut.reqPerSec, 0)} | ${round(e.echo.reqPerSec, 0)} | **${e.ratio}** (≥ ${e.target}, ${e.met ? 'met' : 'missed'}) | ${e.reachOut.p50} / ${e.reachOut.p99} ms | ${e.echo.p50} / ${e.echo.p99} ms | ${e.reachOut.non2xx} / ${e.reachOut.errors} | ${cpu(e.reachOut)} | ${cpu(e.echo)} |`),
  ].join('\n');
}

/** Static: what profiling found when the targets were missed (kept with its date; re-check after changes). */
const DIAGNOSIS = [
  'Why the targets are missed (diagnosed 2026-11-21 with `--cpu-prof` on the server, in-process loops and patched copies of src outside the repository; the numbers below are from those runs):',
  '- SQLite: the server is CPU-bound (≈ 0.95 core) at ≈ 375 µs per reach-out against ≈ 24 µs per echo. The write transaction (BEGIN IMMEDIATE, insert inquiry, select admin/support users, insert 2 notifications, COMMIT — synchronous `node:sqlite` on the event loop) is ≈ 240 µs of it: a copy that skips it serves 7.0k req/s (ratio 0.17). COMMIT alone is 28 % of the server profile: each commit appends ≈ 11 WAL frames (≈ 22 `pwrite`s: table and random-key primary-key index pages of 1 inquiry + 2 notifications), and every ≈ 90th commit runs an autocheckpoint with `fsync` on the event loop. Kysely costs ≈ 70 µs per transaction (the same 4 statements as prepared `node:sqlite` statements: 79 µs vs 148 µs, checkpoints off).',
  '- The remaining ≈ 140 µs (key lookup + SHA-256, rate limiter, JSON parse, Ajv, response serialisation, HTTP) alone caps the ratio at ≈ 0.18: a ratio of 0.45 means ≤ ≈ 55 µs per request in all, less than the raw SQLite transaction, so it is not reachable with a durable write per request on one core.',
  '- Measured fixes: group commit (several concurrent reach-outs in one transaction) — in-process 178 → 121 µs per inquiry at 16 per commit, WAL frames 10.9 → 5.0; hot-path prepared statements instead of Kysely on SQLite — ≈ −70 µs; time-ordered ids plus checkpoints in a worker thread (`wal_autocheckpoint=0`, PASSIVE every 250 ms) — 178 → 125 µs in-process but no significant end-to-end change (2552 → 2611 req/s).',
  '- PostgreSQL: Node (≈ 0.75 core) and the PostgreSQL backends together fill both cores; each request makes 6 round trips (key lookup, BEGIN, insert, select users, insert, COMMIT with fsync). One statement (a CTE inserting the inquiry and its notifications from `select … from users`) ran at 4450 creates/s vs 1881/s for the current transaction (32 concurrent, in-process), with Node CPU 76 vs 377 µs per create.',
];

export function markdown(r: ReachOutResult, notes: string[] = DIAGNOSIS): string {
  const l = r.load;
  return [
    '## Reach-out throughput',
    '',
    `Measured ${r.date} with \`node bench/reach-out.bench.ts\` — Node ${r.node}, ${r.cores} cores (${r.cpu}), PostgreSQL ${r.postgres} on the same machine.`,
    `autocannon ${l.connections} connections, pipelining ${l.pipelining}, ${l.durationS} s measured after a ${l.warmupS} s warm-up (discarded), in its own process; echo run first, then reach-out, in the same run.`,
    '',
    summary(r),
    '',
    'How it is measured:',
    '- Server: `node src/main/cli.ts serve` as a child process with `LOG_LEVEL=warn WORKER=off RATE_LIMIT_PER_MINUTE=1000000` (the configuration maximum; `loadConfig` rejects larger values such as 100000000), a fresh `DATA_DIR` and database (SQLite file in WAL mode, or a recreated PostgreSQL database `portico_bench_reach_out`, pool of 10), the tenant from `node src/main/cli.ts demo --json`.',
    '- Request: the same ~300-byte JSON body every time, a location API key, no `Idempotency-Key`. Each request authenticates the key (one indexed read + SHA-256 compare; `last_used_at` written at most once a minute), passes the per-key rate limiter, validates the body and commits an inquiry plus one notification per admin/support user (2) in one transaction.',
    '- Baseline: `bench/support/echo-server.ts`, a bare Fastify 5 app (default options, logger off) whose `POST /echo` returns the parsed body, in its own process.',
    '- Ratio = reach-out req/s ÷ echo req/s (autocannon `requests.average`). Latencies are autocannon\'s, in ms, at 32 connections (closed loop).',
    '',
    ...notes,
    '',
    'Run: `node bench/reach-out.bench.ts [--engine sqlite|postgres|both] [--write-readme]` (PostgreSQL at `BENCH_PG_URL`, default `postgres://postgres@127.0.0.1:5432`; about 70 s for both engines). Profile the server with `BENCH_SERVER_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/prof"`; `BENCH_CLI=/path/to/other/src/main/cli.ts` runs the same bench against a patched tree. All benches in sequence: `npm run bench` (bench/run-all.ts; `--only reach-out,webhooks`, `--engine`, `--write-readme`).',
    '',
  ].join('\n');
}

if (import.meta.main) {
  const timer = watchdog(WATCHDOG_MS, 'reach-out bench', () => { for (const c of children) c.kill('SIGKILL'); });
  const result = await runReachOutBench(enginesFromArgs(process.argv));
  console.log(JSON.stringify(result, null, 2));
  console.log();
  console.log(summary(result));
  if (process.argv.includes('--write-readme')) writeReadmeSection('Reach-out throughput', markdown(result));
  clearTimeout(timer);
}
