/**
 * A sale at the counter through the hub (issue 34): three items scanned (each barcode asked of the
 * counter's product search, as hub.js does when a scanner types the code and Enter), paid in cash
 * with the amount handed over, the counter form posted and answered by its redirect, then the
 * 80 mm receipt fetched; against the same sale through the admin API (`GET /products?q=<barcode>`
 * three times, `POST /counter-sales`, `GET /sales/{id}?format=pdf&layout=receipt`). Under load:
 * CLIENTS clients at once, each on its own keep-alive connection (the hub's each signed in as a
 * browser of its own), on one `portico serve` in its own process; 3 warm-up sales a client, then
 * blocks of 10 sales a client, hub and API alternating block by block, so both meet the same
 * machine. Target: hub ÷ API p50 ≤ 1.5.
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

/** Concurrent clients: a busy shop's tills and the API's POS at once on one server. */
const CLIENTS = 4;
const WARMUP = 3;
const BLOCK = 10;
const BLOCKS = 3;
const TARGET = 1.5;
const LINES = 3;

/** The first option of the counter's product search: what hub.js adds on Enter. */
function firstOption(html: string): { id: string; units: Array<{ id: string }> } {
  const match = html.match(/role="option"[^>]*data-value="([^"]+)"/);
  if (!match) throw new Error(`no option in ${html.slice(0, 300)}`);
  return JSON.parse(match[1]!.replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&amp;', '&')) as {
    id: string;
    units: Array<{ id: string }>;
  };
}

async function measure(engine: EngineName) {
  const storage = freshStorage(engine, 'hub-counter');
  let server: Child | null = null;
  const agents = Array.from({ length: CLIENTS }, () => new Agent({ connections: 1, pipelining: 1 }));
  try {
    const env = { DATABASE_URL: storage.databaseUrl, DATA_DIR: storage.dataDir };
    const demo = JSON.parse(await runPortico(['demo', '--json'], env)) as HubDemo;
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

    const staff = demo.users.find((u) => u.role === 'staff')!;
    const barcodes = demo.products.flatMap((p) => (p.barcode ? [p.barcode] : [])).slice(0, LINES);
    if (barcodes.length < LINES) throw new Error('the demo has fewer than three products with barcodes');
    const admin = { authorization: `Bearer ${demo.adminToken}` };

    const receipt = async (agent: Agent, url: string, headers: Record<string, string>) => {
      const res = await request(url, { dispatcher: agent, headers });
      const bytes = await res.body.arrayBuffer();
      if (res.statusCode !== 200 || bytes.byteLength < 1000) throw new Error(`receipt: ${res.statusCode} ${url}`);
    };
    const get = async (agent: Agent, url: string, headers: Record<string, string>) => {
      const res = await request(url, { dispatcher: agent, headers });
      const text = await res.body.text();
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${text.slice(0, 300)}`);
      return text;
    };

    // Each client signed in as a browser is, the counter form open.
    const clients = await Promise.all(
      agents.map(async (agent) => ({ agent, ...(await hubFormSession(origin, agent, staff, '/hub/counter')) })),
    );

    const hubSale = async (client: (typeof clients)[number]) => {
      const { agent, cookie, csrf } = client;
      const t0 = performance.now();
      const form = new URLSearchParams({ _csrf: csrf, paymentMethod: 'cash', tendered: '1000,00', customerId: '' });
      for (const code of barcodes) {
        const option = firstOption(
          await get(agent, `${origin}/hub/desk/product-options?q=${encodeURIComponent(code)}`, { cookie }),
        );
        form.append('productId', option.id);
        form.append('unitId', option.units[0]!.id);
        form.append('quantity', '1');
        form.append('discountPercent', '');
        form.append('lineNote', '');
      }
      const res = await request(`${origin}/hub/counter`, {
        dispatcher: agent,
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin },
        body: form.toString(),
      });
      const text = await res.body.text();
      if (res.statusCode !== 303) throw new Error(`hub: ${res.statusCode} ${text.slice(0, 500)}`);
      const sale = String(res.headers.location).split('?')[0]!;
      await receipt(agent, `${origin}${sale}/pdf?layout=receipt`, { cookie });
      return performance.now() - t0;
    };
    const apiSale = async (client: (typeof clients)[number]) => {
      const { agent } = client;
      const t0 = performance.now();
      const lines = [];
      for (const code of barcodes) {
        const found = JSON.parse(
          await get(agent, `${origin}/api/v1/admin/products?q=${encodeURIComponent(code)}&limit=1`, admin),
        ) as { data: Array<{ id: string; units: Array<{ id: string }> }> };
        lines.push({ productId: found.data[0]!.id, unitId: found.data[0]!.units[0]!.id, quantity: 1 });
      }
      const res = await request(`${origin}/api/v1/admin/counter-sales`, {
        dispatcher: agent,
        method: 'POST',
        headers: { 'content-type': 'application/json', ...admin },
        body: JSON.stringify({ lines, paymentMethod: 'cash', tendered: '1000.00' }),
      });
      const text = await res.body.text();
      if (res.statusCode !== 201) throw new Error(`api: ${res.statusCode} ${text.slice(0, 300)}`);
      const id = (JSON.parse(text) as { data: { id: string } }).data.id;
      await receipt(agent, `${origin}/api/v1/admin/sales/${id}?format=pdf&layout=receipt`, admin);
      return performance.now() - t0;
    };
    /** Every client `count` sales one after another, all clients at once: the samples of each. */
    const together = async (sale: typeof hubSale, count: number) => {
      const each = await Promise.all(
        clients.map(async (client) => {
          const times: number[] = [];
          for (let i = 0; i < count; i++) times.push(await sale(client));
          return times;
        }),
      );
      return each.flat();
    };
    await together(hubSale, WARMUP);
    await together(apiSale, WARMUP);
    const samples = { hub: [] as number[], api: [] as number[] };
    for (let b = 0; b < BLOCKS; b++) {
      samples.hub.push(...(await together(hubSale, BLOCK)));
      samples.api.push(...(await together(apiSale, BLOCK)));
    }
    const timing = (s: number[]) => {
      const sorted = [...s].sort((a, b) => a - b);
      return { p50: round(percentile(sorted, 50), 1), p95: round(percentile(sorted, 95), 1), n: s.length };
    };
    const h = timing(samples.hub);
    const a = timing(samples.api);
    return { engine, hub: h, api: a, ratioP50: round(h.p50 / a.p50, 2), ratioP95: round(h.p95 / a.p95, 2) };
  } finally {
    await stop(server);
    await Promise.all(agents.map((a) => a.close()));
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
    '| engine | hub: 3 scans, counter form → redirect → receipt, p50 / p95 | admin API: 3 product look-ups, sale → receipt, p50 / p95 | sales timed each | hub ÷ API p50 (p95) | within 1.5× |',
    '| --- | ---: | ---: | ---: | ---: | --- |',
    ...results.map(
      (r) =>
        `| ${r.engine === 'sqlite' ? 'SQLite' : 'PostgreSQL'} | ${r.hub.p50} / ${r.hub.p95} ms | ${r.api.p50} / ${r.api.p95} ms | ${r.hub.n} + ${r.api.n} | **${r.ratioP50}** (${r.ratioP95}) | ${r.ratioP50 <= TARGET ? 'yes' : 'no'} |`,
    ),
  ];
  console.log(table.join('\n'));
  if (process.argv.includes('--write-readme'))
    writeReadmeSection(
      'A sale at the counter through the hub (issue 34)',
      `## A sale at the counter through the hub (issue 34)

Measured ${m.date} with \`node bench/hub-counter.bench.ts\` — Node ${m.node}, ${m.cores} cores (${m.cpu}). A sale at the counter: three items scanned (each barcode asked of the counter's product search, \`GET /hub/desk/product-options?q=<barcode>\`, and its first option taken, as hub.js does when a scanner types the code and Enter), paid in cash with the amount handed over through the counter form (a signed-in staff user's form post with its CSRF token and Origin, answered by the 303 to the sale), and its 80 mm receipt fetched; against the same sale through the admin API (\`GET /products?q=<barcode>\` three times, \`POST /counter-sales\`, \`GET /sales/{id}?format=pdf&layout=receipt\`). **Under load**: ${CLIENTS} clients at once, each on its own keep-alive connection (each hub client signed in as a browser of its own), on one \`portico serve\` (in-process PDF pool as configured by default, no worker), ${WARMUP} warm-up sales a client, then ${BLOCKS} blocks of ${BLOCK} sales a client for each path, hub and API alternating block by block; p50 and p95 over every client's sales, each timed from the first scan to the receipt's last byte. On a 2-core machine shared with other sessions. Target: hub ÷ API p50 ≤ ${TARGET}.

${table.join('\n')}
`,
    );
}

watchdog(300_000, 'hub-counter', () => {});
await main();
process.exit(0);
