/**
 * A 10-line quotation made in the hub (the "New quotation" form posted, answered by its redirect)
 * against the same 10-line quotation through `POST /api/v1/public/quotes` (JSON: the same
 * pricing, numbering, storing and `quote.created`; no PDF on either side), on one `portico serve`
 * in its own process, one request at a time over one keep-alive connection, 10 warm-up then 150
 * timed each, alternating in blocks of 25. Target: hub ÷ API p50 ≤ 1.5.
 *
 *   node bench/hub-quotation.bench.ts [--engine sqlite|postgres] [--write-readme]
 *
 * The hub is signed in as a browser is (the sign-in form, its CSRF cookie and token, the Origin
 * header); the form carries what a person types: a name, an e-mail, 10 lines with a unit,
 * a quantity, and on some lines a discount and a tint note.
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

const WARMUP = 10;
const SAMPLES = 150;
const BLOCK = 25;
const TARGET = 1.5;
const LINES = 10;

async function measure(engine: EngineName) {
  const storage = freshStorage(engine, 'hub-quotation');
  let server: Child | null = null;
  const agent = new Agent({ connections: 1, pipelining: 1 });
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

    // Signed in as a browser is, the form open.
    const staff = demo.users.find((u) => u.role === 'staff')!;
    const { cookie, csrf } = await hubFormSession(origin, agent, staff, '/hub/quotations/new');

    const lines = Array.from({ length: LINES }, (_, i) => {
      const p = demo.products[i % demo.products.length]!;
      return {
        productId: p.id,
        unitId: p.units[0]!.id,
        quantity: (i % 4) + 1,
        ...(i % 3 === 0 ? { discountPercent: 10 } : {}),
        ...(i % 5 === 0 ? { note: 'Colour: RAL 9010 - Reinweiß' } : {}),
      };
    });
    const form = new URLSearchParams({ _csrf: csrf, name: 'Ana Kovač', email: 'ana@example.com' });
    for (const line of lines) {
      form.append('productId', line.productId);
      form.append('unitId', line.unitId);
      form.append('quantity', String(line.quantity));
      form.append('discountPercent', 'discountPercent' in line ? String(line.discountPercent) : '');
      form.append('lineNote', line.note ?? '');
    }
    const formBody = form.toString();
    const apiBody = JSON.stringify({
      format: 'json',
      customer: { name: 'Ana Kovač', email: 'ana@example.com' },
      lines: lines.map(({ discountPercent: _d, ...line }) => line),
    });

    const hub = async () => {
      const t0 = performance.now();
      const res = await request(`${origin}/hub/quotations/new`, {
        dispatcher: agent,
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin },
        body: formBody,
      });
      const text = await res.body.text();
      if (res.statusCode !== 303) throw new Error(`hub: ${res.statusCode} ${text.slice(0, 500)}`);
      return performance.now() - t0;
    };
    const api = async () => {
      const t0 = performance.now();
      const res = await request(`${origin}/api/v1/public/quotes`, {
        dispatcher: agent,
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${demo.locations[0]!.apiKey}` },
        body: apiBody,
      });
      const text = await res.body.text();
      if (res.statusCode !== 201) throw new Error(`api: ${res.statusCode} ${text.slice(0, 300)}`);
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
    '| engine | hub form → redirect p50 / p95 | `POST /public/quotes` (JSON) p50 / p95 | hub ÷ API p50 (p95) | within 1.5× |',
    '| --- | ---: | ---: | ---: | --- |',
    ...results.map(
      (r) =>
        `| ${r.engine === 'sqlite' ? 'SQLite' : 'PostgreSQL'} | ${r.hub.p50} / ${r.hub.p95} ms | ${r.api.p50} / ${r.api.p95} ms | **${r.ratioP50}** (${r.ratioP95}) | ${r.ratioP50 <= TARGET ? 'yes' : 'no'} |`,
    ),
  ];
  console.log(table.join('\n'));
  if (process.argv.includes('--write-readme'))
    writeReadmeSection(
      'A quotation made in the hub (issue 22)',
      `## A quotation made in the hub (issue 22)

Measured ${m.date} with \`node bench/hub-quotation.bench.ts\` — Node ${m.node}, ${m.cores} cores (${m.cpu}). A 10-line quotation made through the hub's "New quotation" form (a signed-in staff user's form post, with its CSRF token and Origin, answered by the 303 to the new quotation) against the same 10 lines through \`POST /api/v1/public/quotes\` with \`format: json\` (the same pricing, numbering, rows and \`quote.created\`; neither renders a PDF), on one \`portico serve\`, one request at a time over one keep-alive connection, ${WARMUP} warm-up then ${SAMPLES} timed each, alternating in blocks of ${BLOCK}. Target: hub ÷ API p50 ≤ ${TARGET}.

${table.join('\n')}

The hub's extra work: the session read, the CSRF token and Origin check, reading the form's repeated fields into the admin API's body and checking it with the same schema, and the company's locations read to choose the series (an API key names its location). The machine is shared by six sessions: PostgreSQL's absolute times in particular move from run to run; the ratio is what the target is about.
`,
    );
}

watchdog(300_000, 'hub-quotation', () => {});
await main();
process.exit(0);
