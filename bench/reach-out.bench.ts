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
 * then the durable echo (bench/support/durable-echo-server.ts: the same commit, nothing else), then
 * reach-out. The same reach-out body every time, no Idempotency-Key.
 * Bounded: a watchdog aborts after 150 s.
 */
import path from 'node:path';
import {
  DEFAULT_LOAD,
  enginesFromArgs,
  freePort,
  freshStorage,
  loadTest,
  machine,
  postgresVersion,
  readyPort,
  round,
  runPortico,
  startNode,
  startPortico,
  stop,
  waitForHttp,
  watchdog,
  writeReadmeSection,
  ROOT,
  type Child,
  type EngineName,
  type LoadResult,
  type LoadSettings,
} from './support/harness.ts';

const WATCHDOG_MS = 150_000;
export const TARGETS: Record<EngineName, number> = { sqlite: 0.45, postgres: 0.25 };

export const REACH_OUT_BODY = {
  topic: 'Product question',
  subject: 'Is Boja za drvo Šišmiš available in 5 L?',
  message:
    'Hello, I would like to know whether the walnut wood stain comes in a 5 L can, and how long delivery to Split takes. Thank you!',
  email: 'ana.kovac@example.com',
  phone: '+385 91 555 0101',
  name: 'Ana Kovač',
};

export interface EngineResult {
  engine: EngineName;
  reachOut: LoadResult;
  echo: LoadResult;
  /** bench/support/durable-echo-server.ts on the same engine: the same durable write, nothing else. */
  durableEcho: LoadResult;
  ratio: number;
  /** durable echo ÷ echo: the most a commit-first endpoint reaches here. */
  durableRatio: number;
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
const track = (c: Child): Child => {
  children.add(c);
  c.once('exit', () => children.delete(c));
  return c;
};

async function measureEcho(load: LoadSettings, body: string): Promise<LoadResult> {
  const echo = track(startNode([path.join(ROOT, 'bench/support/echo-server.ts')]));
  try {
    const port = await readyPort(echo);
    return await loadTest(
      `http://127.0.0.1:${port}/echo`,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body },
      load,
      { server: echo.pid! },
    );
  } finally {
    await stop(echo);
  }
}

async function measureDurableEcho(engine: EngineName, load: LoadSettings, body: string): Promise<LoadResult> {
  const storage = freshStorage(engine, 'durable-echo');
  const target =
    engine === 'sqlite' ? `sqlite:${path.join(storage.dataDir, 'durable-echo.sqlite')}` : storage.databaseUrl;
  const server = track(startNode([path.join(ROOT, 'bench/support/durable-echo-server.ts'), target]));
  try {
    const port = await readyPort(server);
    return await loadTest(
      `http://127.0.0.1:${port}/durable-echo`,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body },
      load,
      { server: server.pid! },
    );
  } finally {
    await stop(server);
    storage.cleanup();
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
    server = track(
      startPortico(
        ['serve'],
        {
          ...env,
          HOST: '127.0.0.1',
          PORT: String(port),
          LOG_LEVEL: 'warn',
          WORKER: 'off',
          RATE_LIMIT_PER_MINUTE: '1000000',
          // The same work for every request: past a budget inquiries would go to the spam folder
          // (nobody told, no event), a cheaper path than the one measured.
          INQUIRY_BUDGET_PER_KEY_PER_HOUR: '1000000',
          INQUIRY_BUDGET_PER_COMPANY_PER_HOUR: '1000000',
        },
        flags,
      ),
    );
    await waitForHttp(`http://127.0.0.1:${port}/healthz`, server);

    const body = JSON.stringify(REACH_OUT_BODY);
    const echo = await measureEcho(load, body);
    const durableEcho = await measureDurableEcho(engine, load, body);
    const reachOut = await loadTest(
      `http://127.0.0.1:${port}/api/v1/public/reach-out`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
        body,
      },
      load,
      { server: server.pid! },
    );
    if (reachOut.non2xx > 0 || reachOut.errors > 0) {
      console.error(
        `reach-out (${engine}): ${reachOut.non2xx} non-2xx ${JSON.stringify(reachOut.statusCodes)}, ${reachOut.errors} errors`,
      );
    }
    const ratio = round(reachOut.reqPerSec / echo.reqPerSec, 3);
    const durableRatio = round(durableEcho.reqPerSec / echo.reqPerSec, 3);
    return {
      engine,
      reachOut,
      echo,
      durableEcho,
      ratio,
      durableRatio,
      target: TARGETS[engine],
      met: ratio >= TARGETS[engine] && reachOut.non2xx === 0 && reachOut.errors === 0,
    };
  } finally {
    await stop(server);
    storage.cleanup();
  }
}

export async function runReachOutBench(
  engines: EngineName[],
  load: LoadSettings = DEFAULT_LOAD,
): Promise<ReachOutResult> {
  const m = machine();
  const result: ReachOutResult = {
    date: m.date,
    node: m.node,
    cores: m.cores,
    cpu: m.cpu,
    postgres: engines.includes('postgres') ? postgresVersion() : 'n/a',
    load,
    engines: [],
  };
  for (const engine of engines) result.engines.push(await runEngine(engine, load));
  return result;
}

export function summary(r: ReachOutResult): string {
  const cpu = (l: LoadResult) => `${l.cpu.server ?? '?'} / ${l.cpu.autocannon ?? '?'} / ${l.cpu.machine ?? '?'}`;
  return [
    '| engine | reach-out req/s | echo req/s | ratio (target) | durable echo req/s (÷ echo) | R1 = reach-out ÷ durable echo | server CPU per reach-out | reach-out p50 / p99 | echo p50 / p99 | durable echo p50 / p99 | reach-out non-2xx / errors | CPU cores, reach-out run: server / autocannon / machine | CPU cores, echo run | CPU cores, durable echo run |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...r.engines.map(
      (e) =>
        `| ${e.engine === 'sqlite' ? 'SQLite' : 'PostgreSQL'} | ${round(e.reachOut.reqPerSec, 0)} | ${round(e.echo.reqPerSec, 0)} | **${e.ratio}** (≥ ${e.target}, ${e.met ? 'met' : 'missed'}) | ${round(e.durableEcho.reqPerSec, 0)} (${e.durableRatio}) | ${round(e.reachOut.reqPerSec / e.durableEcho.reqPerSec, 2)} | ${e.reachOut.cpu.server ? `${round((e.reachOut.cpu.server * 1e6) / e.reachOut.reqPerSec, 0)} µs` : '?'} | ${e.reachOut.p50} / ${e.reachOut.p99} ms | ${e.echo.p50} / ${e.echo.p99} ms | ${e.durableEcho.p50} / ${e.durableEcho.p99} ms | ${e.reachOut.non2xx} / ${e.reachOut.errors} | ${cpu(e.reachOut)} | ${cpu(e.echo)} | ${cpu(e.durableEcho)} |`,
    ),
  ].join('\n');
}

/** Static: what profiling found when the targets were missed (kept with its date; re-check after changes). */
const DIAGNOSIS = [
  "What changed since the first measurement (0.073 / 0.029), each step measured: concurrent reach-outs are group-committed (one transaction per batch of what arrived in one turn of the event loop; ≈ 15–25 per batch at 32 connections), with written-out multi-row inserts (Kysely's builder cost more per row than SQLite); verified API keys are cached (on PostgreSQL the read was a round trip costing ≈ 60 µs of Node CPU), revocations reaching other processes by NOTIFY or a file beside the SQLite database, whose size is checked at most once a millisecond (a stat per request was ≈ 10 % of the event loop); time-ordered ids keep a batch on the same index pages; the request-id and NUL hooks are callback hooks and request loggers are built only when used.",
  "SQLite, 2026-11-21 (second session): the writer thread that committed batches off the event loop is gone. A timeline of one run showed each hand-over between the event loop and the writer waiting 1.5–3.7 ms for a core (the event loop, the writer and autocannon all runnable on 2 cores), so both threads idled about half the time; in interleaved runs committing on the event loop measured ≈ 0.26–0.30 against ≈ 0.20–0.26 with the writer thread. What did hurt on the event loop was SQLite's automatic checkpoint (two fsyncs inside the commit that crosses 1000 WAL pages): raw `node:sqlite` at 22 inquiries a commit spends ≈ 17.5 µs per inquiry in COMMIT with it and ≈ 8.3 µs with PASSIVE checkpoints on a thread of their own (`src/db/sqlite-checkpointer.ts`), against ≈ 8 µs for the inserts of the inquiry and its two notifications.",
  'Why the targets are still missed (`--cpu-prof` of the server and per-thread CPU from /proc; this VM is shared and its speed swung by ±30 % within minutes during these runs — the echo alone measured 26k–46k req/s — so single ratios move by ±0.05):',
  "- SQLite: one event loop carries each request at ≈ 65–80 µs of CPU (≈ 68 in the recorded run): SQLite ≈ 30 % (inserts and commit), the socket write of the response ≈ 15 % (the same system call the echo makes), Node's HTTP and stream internals ≈ 15 %, Fastify, Ajv, the JSON parser and serializer ≈ 9 %, our own code ≈ 7 %, GC the rest. That is ≤ ≈ 12–15k req/s, 0.30–0.35 of an echo that needs ≈ 21–25 µs. 0.45 would need ≈ 50 µs a request; the durable write alone is ≈ 15–25 µs of it, and moving it to another thread costs more in waits for a core than it frees on this 2-core machine.",
  "- PostgreSQL: the backends need ≈ 76 µs of CPU per inquiry (multi-row inserts, batch 32; ≈ 30 µs of it foreign-key checks), Node ≈ 100–170 µs per request (pg protocol work for the batch's 5 round trips plus HTTP), and PostgreSQL runs on the same 2 cores: ≈ 8–9k req/s would need every core fully used, against ≈ 9k for 0.25 of the echo.",
  '',
  "The commit-first floor, 2026-11-21 (third session): a second reference now runs in the same run, the durable echo (`bench/support/durable-echo-server.ts`): a bare Fastify route that commits the same rows (an inquiry-sized row and two notification-sized rows, time-ordered ids, one index each) with the same group commit before answering, and nothing else: no authentication, rate limit, validation, foreign keys, idempotency or logging. It measured 0.45–0.64 of the echo on SQLite and 0.24–0.28 on PostgreSQL across this session's runs. The PostgreSQL target is therefore what a featureless commit-first endpoint reaches on this machine, and the SQLite target asks reach-out for 80–100 % of it. (A first version of that floor drew its notification ids from `randomUUID()`: 0.28–0.32, because random primary keys dirty a random index page per row — a reminder of why Portico's ids are time-ordered.)",
  '- Where reach-out loses against that floor (SQLite, interleaved rounds, server CPU per request): with every one of authentication, the rate limit, body validation, the response schema, idempotency, the request id, the NUL guard, the logger and the foreign keys switched off in a scratch copy, but the write kept, reach-out measured 0.38–0.42 against 0.51 for the durable echo in the same rounds; each one alone was within the ±10 % noise. With the write removed and every feature kept, 0.33–0.46. The cost is spread over many layers of a few µs each, not one hot spot.',
  "- Tried, not kept: two `serve` processes on one port (SO_REUSEPORT) sharing the SQLite file gave 7.5–8.4k req/s against 9.6–9.8k for one: SQLite's busy handler sleeps ≥ 1 ms on the event loop whenever the other process holds the write lock (and a two-process server against a one-process echo would not measure the route anyway). On PostgreSQL, dropping the foreign keys of inquiries and notifications gave +17–20 % (≈ 50 µs less backend CPU per request: each check locks the parent row FOR KEY SHARE); kept, because they are what stops a bug from writing orphans.",
  '- Not tried yet: fewer b-trees per row on SQLite (the text primary keys are a separate index beside each rowid table; a `WITHOUT ROWID` rebuild of notifications would drop one index insert per notification), and one data-modifying CTE per batch on PostgreSQL (5 round trips → 2). Neither closes the gap on its own.',
  '',
  'Fourth session, 2026-11-21 (`perf` of the server with `--perf-basic-prof`, `strace`, `EXPLAIN ANALYZE`; interleaved A/B runs of the old and new tree):',
  '- PostgreSQL: every batch sent its multi-row INSERTs unnamed, so the server parsed and planned a statement of up to a thousand parameters each time. The written-out texts (a small fixed set: power-of-two chunk sizes) now run as named prepared statements on each pooled connection (`PreparingClient` in `src/db/database.ts`): 5117 against 3789 req/s over four interleaved rounds (+35 %), PostgreSQL CPU per request down by about a quarter.',
  "- SQLite: a multi-row INSERT inside a transaction keeps a statement journal; past 64 KiB SQLite spilled it to a temporary file, created, written and unlinked on the event loop every 20–40 ms under load (209 in 1200 batches of 20). `temp_store = MEMORY` keeps it in memory. The batch's recipients query, compiled by Kysely for every batch (2.2 % of the event loop), is written out like the inserts, and the e-mail text is only built when mail is on. Each of these is below the ±10 % run-to-run noise on its own.",
  '- The idle core: in the reach-out run the server uses ≈ 1.0 core, autocannon ≈ 0.3, and ≈ 0.7 of a core stays idle. Committing on a thread of its own does not reach it: a durable echo that hands each batch to a writer thread measured 13.1–16.0k req/s against 16.6–18.4k for the same commit on the event loop (three interleaved rounds), its main thread idling while the 32 closed-loop connections wait for the hand-overs.',
  "- PostgreSQL foreign keys, per batch of 16 inquiries (`EXPLAIN ANALYZE`, warm): ≈ 1.0 ms for both INSERTs with the four foreign keys, ≈ 0.7 ms without the two on `company_id`, ≈ 0.6 ms with none. Each check locks the parent row `FOR KEY SHARE`, and concurrent batches lock the same company row. Composite keys (`(company_id, user_id)` → users, `(company_id, location_id)` → locations) would halve the checks and also enforce that a notification's user belongs to its company; not done (a table rebuild on SQLite).",
  '',
  'Fifth session, 2026-11-21 (an AMD EPYC VM; interleaved runs of the old and new tree, Node and PostgreSQL CPU per request read from /proc):',
  "- PostgreSQL: a batch was five round trips (BEGIN, the inquiries, the recipients read, the notifications, COMMIT). The recipients are now read first and the rows of all three tables go in one statement, atomic by itself, each table's rows as one JSON parameter (`json_populate_recordset`, so the text stays prepared whatever the count; `insertTogether` in `src/db/written-statements.ts`). Batches with idempotency bookkeeping keep the transaction. 7.5–10.0k against 6.5–8.7k req/s in three interleaved pairs, about a quarter less CPU per request in Node and in PostgreSQL. Batches in flight (1, 2, 4, 8) re-checked: within noise; 1 costs the least CPU per request but serialises Node's and PostgreSQL's work.",
  '- PostgreSQL foreign keys, re-measured with the one statement (backend CPU per request, same units in each pair): all four keys 90–97, composite tenant keys 79–90, none 61–70. Composite keys, as a migration with a SQLite table rebuild, measured +4 % in nine interleaved pairs before the one-statement change (6866 → 7151 req/s on average): within noise, so not landed. The keys stay: a foreign-key-free reach-out would still reach only ≈ 9.5–10.9k req/s here, below the 14k that 0.25 of the echo asks.',
  "- SQLite: the durable echo's gap to the echo is its write and nothing else: the same server with the commit skipped (group commit kept) answers 54.8–58.3k req/s, the echo's own rate. Raw `node:sqlite` at 20 requests a commit spends ≈ 8–9 µs a request inserting the three rows and ≈ 9 µs committing. A commit writes ≈ 27 WAL frames (two `pwrite` calls each; strace): 14 index leaf pages, 4 interior index pages, 6 table pages and page 1, because SQLite's b-tree balancing rewrites three sibling leaves at every split of an index that only grows at its end. 16 KiB pages (fewer frames, more bytes) and `WITHOUT ROWID` tables (one b-tree fewer a row) measured within noise of the defaults in the durable echo.",
  "- So on this machine the durable echo is 0.42–0.46 of the echo on SQLite and 0.22–0.26 on PostgreSQL in this session's runs: the targets ask reach-out, with authentication, the rate limit, validation, idempotency, logging and foreign keys, to match or beat a commit of the same rows with none of them.",
];

export function markdown(r: ReachOutResult, notes: string[] = DIAGNOSIS): string {
  const l = r.load;
  return [
    '## Reach-out throughput',
    '',
    `Measured ${r.date} with \`node bench/reach-out.bench.ts\` — Node ${r.node}, ${r.cores} cores (${r.cpu}), PostgreSQL ${r.postgres} on the same machine.`,
    `autocannon ${l.connections} connections, pipelining ${l.pipelining}, ${l.durationS} s measured after a ${l.warmupS} s warm-up (discarded), in its own process; the echo, then the durable echo, then reach-out, in the same run.`,
    '',
    summary(r),
    '',
    'How it is measured:',
    '- Server: `node src/main/cli.ts serve` as a child process with `LOG_LEVEL=warn WORKER=off RATE_LIMIT_PER_MINUTE=1000000` (the configuration maximum; `loadConfig` rejects larger values such as 100000000), a fresh `DATA_DIR` and database (SQLite file in WAL mode, or a recreated PostgreSQL database `portico_bench_reach_out`, pool of 10), the tenant from `node src/main/cli.ts demo --json`.',
    '- Request: the same ~300-byte JSON body every time, a location API key, no `Idempotency-Key`. Each request authenticates the key (the cached key + SHA-256 compare on both engines; `last_used_at` written at most once a minute), passes the per-key rate limiter, validates the body and is answered 201 only after its inquiry and one notification per admin/support user (2) are committed (group commit: one transaction per batch of concurrent requests).',
    '- Baseline: `bench/support/echo-server.ts`, a bare Fastify 5 app (default options, logger off) whose `POST /echo` returns the parsed body, in its own process.',
    "- Second reference, the durable echo: `bench/support/durable-echo-server.ts`, a bare Fastify app that answers 201 only after committing the same rows reach-out commits (one inquiry-sized and two notification-sized rows, Portico's time-ordered ids, one index per table; group commit, one batch at a time; SQLite in WAL with Portico's `SQLITE_SYNCHRONOUS` (default FULL: an fsync in every commit) and its checkpoint thread, PostgreSQL one statement per batch), on its own fresh database, and nothing else. Its ratio to the echo is about the most a commit-first endpoint reaches on this machine.",
    "- Ratio = reach-out req/s ÷ echo req/s (autocannon `requests.average`). Latencies are autocannon's, in ms, at 32 connections (closed loop).",
    '',
    ...notes,
    '',
    'Run: `node bench/reach-out.bench.ts [--engine sqlite|postgres|both] [--write-readme]` (PostgreSQL at `BENCH_PG_URL`, default `postgres://postgres@127.0.0.1:5432`; about 100 s for both engines). Profile the server with `BENCH_SERVER_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/prof"`; `BENCH_CLI=/path/to/other/src/main/cli.ts` runs the same bench against a patched tree. All benches in sequence: `npm run bench` (bench/run-all.ts; `--only reach-out,webhooks`, `--engine`, `--write-readme`).',
    '',
  ].join('\n');
}

if (import.meta.main) {
  const timer = watchdog(WATCHDOG_MS, 'reach-out bench', () => {
    for (const c of children) c.kill('SIGKILL');
  });
  const result = await runReachOutBench(enginesFromArgs(process.argv));
  console.log(JSON.stringify(result, null, 2));
  console.log();
  console.log(summary(result));
  if (process.argv.includes('--write-readme')) writeReadmeSection('Reach-out throughput', markdown(result));
  clearTimeout(timer);
}
