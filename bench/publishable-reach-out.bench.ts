/**
 * A contact form posted from a web page — a publishable key, an `Origin` its CORS answer
 * echoes, and an ALTCHA proof of work verified (one HMAC, one hash, the replay check) — against
 * the same inquiry from a server with a secret key: p50 and requests/s of each, in one run on
 * one server, with the same load. SQLite only, short: a 3 s warm-up, then ROUNDS pairs of 2 s
 * runs, secret and publishable alternating, so that whatever else the shared machine does
 * falls on both alike. Besides req/s and p50 it reports the server's own CPU time per request
 * of each kind (from /proc), which other load on the machine barely moves.
 *
 *   node bench/publishable-reach-out.bench.ts
 *
 * Every publishable request carries its own solved challenge (a solution counts once), solved
 * before the run at PROOF_OF_WORK_MAX_NUMBER=1000: the server's check costs the same at any
 * difficulty; only the browser's search grows with it. autocannon runs in this process and
 * rotates the bodies; the server is `portico serve` in its own.
 */
import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import {
  freePort,
  freshStorage,
  procCpuMs,
  runPortico,
  startPortico,
  stop,
  waitForHttp,
  type Child,
} from './support/harness.ts';
import { REACH_OUT_BODY } from './reach-out.bench.ts';

interface AutocannonResult {
  requests: { average: number };
  latency: { p50: number };
  non2xx: number;
  errors: number;
}
// autocannon ships no types; its programmatic API is used for setupRequest (a body per request).
const autocannon = createRequire(import.meta.url)('autocannon') as (options: object) => Promise<AutocannonResult>;

const ORIGIN = 'https://shop.example.com';
const CONNECTIONS = 16;

async function run(url: string, headers: Record<string, string>, bodies: () => string, seconds: number) {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    pipelining: 1,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        headers,
        setupRequest: (request: Record<string, unknown>) => ({ ...request, body: bodies() }),
      },
    ],
  });
  return { reqPerSec: result.requests.average, p50: result.latency.p50, non2xx: result.non2xx, errors: result.errors };
}

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ROUND_S = 2;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round3 = (x: number) => Math.round(x * 1000) / 1000;

async function main(): Promise<void> {
  const storage = freshStorage('sqlite', 'publishable');
  let server: Child | null = null;
  try {
    const env = { DATABASE_URL: storage.databaseUrl, DATA_DIR: storage.dataDir };
    const demo = JSON.parse(await runPortico(['demo', '--json'], env)) as {
      adminToken: string;
      locations: Array<{ id: string; apiKey: string }>;
    };
    const port = await freePort();
    server = startPortico(['serve'], {
      ...env,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      WORKER: 'off',
      RATE_LIMIT_PER_MINUTE: '1000000',
      RATE_LIMIT_PER_IP_PER_MINUTE: '1000000',
      INQUIRY_BUDGET_PER_KEY_PER_HOUR: '1000000',
      INQUIRY_BUDGET_PER_COMPANY_PER_HOUR: '1000000',
      PROOF_OF_WORK_MAX_NUMBER: '1000',
    });
    const base = `http://127.0.0.1:${port}`;
    await waitForHttp(`${base}/healthz`, server);
    const made = await fetch(`${base}/api/v1/admin/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${demo.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        locationId: demo.locations[0]!.id,
        name: 'bench',
        kind: 'publishable',
        allowedOrigins: [ORIGIN],
      }),
    });
    const pub = ((await made.json()) as { data: { key: string } }).data.key;

    const secretBody = JSON.stringify(REACH_OUT_BODY);
    const url = `${base}/api/v1/public/reach-out`;
    const json = { 'content-type': 'application/json' };
    const secret = (s: number) =>
      run(url, { ...json, authorization: `Bearer ${demo.locations[0]!.apiKey}` }, () => secretBody, s);

    // Enough solved challenges for every publishable round at well above the secret rate.
    await secret(3);
    const probe = await secret(ROUND_S);
    const needed = Math.ceil(probe.reqPerSec * (ROUNDS * ROUND_S + 1) * 1.5) + 2000;
    type Challenge = { algorithm: string; challenge: string; salt: string; signature: string; maxnumber: number };
    // What a browser does (SHA-256 of salt + n until it matches), done here with node:crypto, 16 at a time.
    const solve = (c: Challenge): number => {
      for (let n = 0; n <= c.maxnumber; n++)
        if (
          createHash('sha256')
            .update(c.salt + n)
            .digest('hex') === c.challenge
        )
          return n;
      throw new Error('unsolvable challenge');
    };
    const solved: string[] = [];
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (solved.length < needed) {
          const res = await fetch(`${base}/api/v1/public/spam-challenge`, {
            headers: { authorization: `Bearer ${pub}` },
          });
          const c = (await res.json()) as Challenge;
          const altcha = Buffer.from(JSON.stringify({ ...c, number: solve(c) })).toString('base64');
          solved.push(JSON.stringify({ ...REACH_OUT_BODY, altcha }));
        }
      }),
    );
    let next = 0;
    const publishable = (s: number) =>
      run(url, { ...json, authorization: `Bearer ${pub}`, origin: ORIGIN }, () => solved[next++ % solved.length]!, s);
    await publishable(1);

    // The server's CPU time over a run, per request answered.
    const pid = server.pid!;
    const measured = async (go: (s: number) => ReturnType<typeof run>) => {
      const cpu0 = procCpuMs(pid) ?? Number.NaN;
      const r = await go(ROUND_S);
      const cpuMs = (procCpuMs(pid) ?? Number.NaN) - cpu0;
      return { ...r, cpuUsPerRequest: (cpuMs * 1000) / Math.max(1, r.reqPerSec * ROUND_S) };
    };
    const rounds: Array<{
      secret: Awaited<ReturnType<typeof measured>>;
      publishable: Awaited<ReturnType<typeof measured>>;
    }> = [];
    for (let i = 0; i < ROUNDS; i++)
      rounds.push({ secret: await measured(secret), publishable: await measured(publishable) });
    const sum = (pick: (r: (typeof rounds)[number]) => number) => rounds.reduce((a, r) => a + pick(r), 0);
    console.log(
      JSON.stringify(
        {
          rounds: rounds.map((r) => ({
            secret: { reqPerSec: r.secret.reqPerSec, p50: r.secret.p50, cpuUs: Math.round(r.secret.cpuUsPerRequest) },
            publishable: {
              reqPerSec: r.publishable.reqPerSec,
              p50: r.publishable.p50,
              cpuUs: Math.round(r.publishable.cpuUsPerRequest),
            },
          })),
          failed: sum((r) => r.secret.non2xx + r.secret.errors + r.publishable.non2xx + r.publishable.errors),
          // All rounds together, and the median of each round's own ratio.
          ratioReqPerSec: round3(sum((r) => r.publishable.reqPerSec) / sum((r) => r.secret.reqPerSec)),
          medianRoundRatio: round3(median(rounds.map((r) => r.publishable.reqPerSec / r.secret.reqPerSec))),
          ratioP50: round3(
            median(rounds.map((r) => r.secret.p50)) / Math.max(median(rounds.map((r) => r.publishable.p50)), 0.001),
          ),
          // Server CPU per request, secret ÷ publishable: what the ratio would be on a machine of its own.
          ratioCpuPerRequest: round3(
            median(rounds.map((r) => r.secret.cpuUsPerRequest)) /
              median(rounds.map((r) => r.publishable.cpuUsPerRequest)),
          ),
          solvedUsed: next,
          solvedAvailable: solved.length,
        },
        null,
        2,
      ),
    );
  } finally {
    await stop(server);
    storage.cleanup();
  }
}

await main();
