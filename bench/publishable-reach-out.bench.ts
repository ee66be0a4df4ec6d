/**
 * A contact form posted from a web page — a publishable key, an `Origin` its CORS answer
 * echoes, and an ALTCHA proof of work verified (one HMAC, one hash, the replay check) — against
 * the same inquiry from a server with a secret key: p50 and requests/s of each, in one run on
 * one server, with the same load. SQLite only, short (2 s warm-up, 6 s measured each).
 *
 *   node bench/publishable-reach-out.bench.ts
 *
 * Every publishable request carries its own solved challenge (a solution counts once), solved
 * before the run at PROOF_OF_WORK_MAX_NUMBER=1000: the server's check costs the same at any
 * difficulty; only the browser's search grows with it. autocannon runs in this process and
 * rotates the bodies; the server is `portico serve` in its own.
 */
import { createRequire } from 'node:module';
import { solveChallenge } from 'altcha-lib/v1';
import { freePort, freshStorage, runPortico, startPortico, stop, waitForHttp, type Child } from './support/harness.ts';
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

    // Enough solved challenges for the warm-up and the measured run at well above the secret rate.
    await secret(2);
    const reference = await secret(6);
    const needed = Math.ceil(reference.reqPerSec * 8 * 1.5) + 1000;
    const solved: string[] = [];
    for (let i = 0; i < needed; i++) {
      const c = (await (
        await fetch(`${base}/api/v1/public/spam-challenge`, { headers: { authorization: `Bearer ${pub}` } })
      ).json()) as {
        algorithm: string;
        challenge: string;
        salt: string;
        signature: string;
        maxnumber: number;
      };
      const s = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber).promise;
      solved.push(
        JSON.stringify({
          ...REACH_OUT_BODY,
          altcha: Buffer.from(JSON.stringify({ ...c, number: s!.number })).toString('base64'),
        }),
      );
    }
    let next = 0;
    const publishable = (s: number) =>
      run(url, { ...json, authorization: `Bearer ${pub}`, origin: ORIGIN }, () => solved[next++ % solved.length]!, s);
    await publishable(2);
    const browser = await publishable(6);
    const again = await secret(6); // the reference once more, after: the machine's drift shows
    console.log(
      JSON.stringify(
        {
          secret: reference,
          publishable: browser,
          secretAfter: again,
          ratioReqPerSec: Math.round((browser.reqPerSec / reference.reqPerSec) * 1000) / 1000,
          ratioP50: Math.round((reference.p50 / Math.max(browser.p50, 0.001)) * 1000) / 1000,
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
