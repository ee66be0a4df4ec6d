/**
 * A sale at the counter through the hub (issue 34): three items, cash with the amount handed
 * over, the counter form posted and answered by its redirect, then the 80 mm receipt fetched;
 * against the same sale through the admin API (`POST /api/v1/admin/counter-sales`, then
 * `GET /sales/{id}?format=pdf&layout=receipt`), on one `portico serve` in its own process, one
 * sale at a time over one keep-alive connection, 5 warm-up then 60 timed each, alternating in
 * blocks of 10. Target: hub ÷ API p50 ≤ 1.5.
 *
 *   node bench/hub-counter.bench.ts [--engine sqlite|postgres] [--write-readme]
 */
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import {
  enginesFromArgs,
  freePort,
  freshStorage,
  machine,
  percentile,
  round,
  runPortico,
  startPortico,
  stop,
  waitForHttp,
  watchdog,
  writeReadmeSection,
  type Child,
  type EngineName,
} from './support/harness.ts';
import { hubFormSession, type HubDemo } from './support/hub-session.ts';

const WARMUP = 5;
const SAMPLES = 60;
const BLOCK = 10;
const TARGET = 1.5;
const LINES = 3;

async function measure(engine: EngineName) {
  const storage = freshStorage(engine, 'hub-counter');
  let server: Child | null = null;
  const agent = new Agent({ connections: 1, pipelining: 1 });
  try {
    const env = { DATABASE_URL: storage.databaseUrl, DATA_DIR: storage.dataDir };
    // The JSON is the last line (a warning may come first).
    const demo = JSON.parse((await runPortico(['demo', '--json'], env)).trim().split('\n').at(-1)!) as HubDemo;
    const port = await freePort();
    server = startPortico(['serve'], {
      ...env,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      WORKER: 'off',
      RATE_LIMIT_PER_MINUTE: '1000000',
    });
    const origin = `http://127.0.0.1:${port}`;
    await waitForHttp(`${origin}/healthz`, server);

    // Signed in as a browser is, the form open.
    const staff = demo.users.find((u) => u.role === 'staff')!;
    const { cookie, csrf } = await hubFormSession(origin, agent, staff, '/hub/counter');

    const lines = Array.from({ length: LINES }, (_, i) => {
      const p = demo.products[i % demo.products.length]!;
      return { productId: p.id, unitId: p.units[0]!.id, quantity: 1 };
    });
    const form = new URLSearchParams({ _csrf: csrf, paymentMethod: 'cash', tendered: '1000,00', customerId: '' });
    for (const line of lines) {
      form.append('productId', line.productId);
      form.append('unitId', line.unitId);
      form.append('quantity', String(line.quantity));
      form.append('discountPercent', '');
      form.append('lineNote', '');
    }
    const formBody = form.toString();
    const apiBody = JSON.stringify({ lines, paymentMethod: 'cash', tendered: '1000.00' });
    const receipt = async (url: string, headers: Record<string, string>) => {
      const res = await request(url, { dispatcher: agent, headers });
      const bytes = await res.body.arrayBuffer();
      if (res.statusCode !== 200 || bytes.byteLength < 1000) throw new Error(`receipt: ${res.statusCode} ${url}`);
    };

    const hub = async () => {
      const t0 = performance.now();
      const res = await request(`${origin}/hub/counter`, {
        dispatcher: agent,
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin },
        body: formBody,
      });
      const text = await res.body.text();
      if (res.statusCode !== 303) throw new Error(`hub: ${res.statusCode} ${text.slice(0, 500)}`);
      const sale = String(res.headers.location).split('?')[0]!;
      await receipt(`${origin}${sale}/pdf?layout=receipt`, { cookie });
      return performance.now() - t0;
    };
    const api = async () => {
      const t0 = performance.now();
      const res = await request(`${origin}/api/v1/admin/counter-sales`, {
        dispatcher: agent,
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${demo.adminToken}` },
        body: apiBody,
      });
      const text = await res.body.text();
      if (res.statusCode !== 201) throw new Error(`api: ${res.statusCode} ${text.slice(0, 300)}`);
      const id = (JSON.parse(text) as { data: { id: string } }).data.id;
      await receipt(`${origin}/api/v1/admin/sales/${id}?format=pdf&layout=receipt`, {
        authorization: `Bearer ${demo.adminToken}`,
      });
      return performance.now() - t0;
    };
    for (let i = 0; i < WARMUP; i++) {
      await hub();
      await api();
    }
    const samples = { hub: [] as number[], api: [] as number[] };
    for (let done = 0; done < SAMPLES; done += BLOCK) {
      for (let i = 0; i < BLOCK; i++) samples.hub.push(await hub());
      for (let i = 0; i < BLOCK; i++) samples.api.push(await api());
    }
    const timing = (s: number[]) => {
      const sorted = [...s].sort((a, b) => a - b);
      return { p50: round(percentile(sorted, 50), 2), p95: round(percentile(sorted, 95), 2) };
    };
    const h = timing(samples.hub);
    const a = timing(samples.api);
    return { engine, hub: h, api: a, ratioP50: round(h.p50 / a.p50, 2), ratioP95: round(h.p95 / a.p95, 2) };
  } finally {
    await stop(server);
    await agent.close();
    storage.cleanup();
  }
}

async function main(): Promise<void> {
  const engines = enginesFromArgs(process.argv.slice(2));
  const results = [];
  for (const engine of engines) results.push(await measure(engine));
  console.log(JSON.stringify(results, null, 2));
  const m = machine();
  const table = [
    '| engine | hub counter form → redirect → receipt p50 / p95 | admin API sale → receipt p50 / p95 | hub ÷ API p50 (p95) | within 1.5× |',
    '| --- | ---: | ---: | ---: | --- |',
    ...results.map(
      (r) =>
        `| ${r.engine === 'sqlite' ? 'SQLite' : 'PostgreSQL'} | ${r.hub.p50} / ${r.hub.p95} ms | ${r.api.p50} / ${r.api.p95} ms | **${r.ratioP50}** (${r.ratioP95}) | ${r.ratioP50 <= TARGET ? 'yes' : 'no'} |`,
    ),
  ];
  console.log(table.join('\n'));
  if (process.argv.includes('--write-readme'))
    writeReadmeSection(
      'A sale at the counter through the hub (issue 34)',
      `## A sale at the counter through the hub (issue 34)

Measured ${m.date} with \`node bench/hub-counter.bench.ts\` — Node ${m.node}, ${m.cores} cores (${m.cpu}). Three items sold for cash with the amount handed over through the hub's counter form (a signed-in staff user's form post with its CSRF token and Origin, answered by the 303 to the sale) and its 80 mm receipt fetched, against the same sale through \`POST /api/v1/admin/counter-sales\` and \`GET /sales/{id}?format=pdf&layout=receipt\`, on one \`portico serve\`, one sale at a time over one keep-alive connection, ${WARMUP} warm-up then ${SAMPLES} timed each, alternating in blocks of ${BLOCK}, on a machine shared with other sessions (the only load: no load generator of the bench's own drives the server meanwhile). Target: hub ÷ API p50 ≤ ${TARGET}.

${table.join('\n')}
`,
    );
}

watchdog(300_000, 'hub-counter', () => {});
await main();
process.exit(0);
