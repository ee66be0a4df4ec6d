/**
 * Quotation PDF flood: how fast /healthz answers while quotes with large datasheets print, and
 * what a small quotation's PDF costs end to end.
 *
 *   node bench/pdf-flood.bench.ts                  # prints a JSON result + a markdown table
 *   node bench/pdf-flood.bench.ts --write-readme   # also replaces "## Quotation PDF flood" in bench/README.md
 *   BENCH_CLI=/other/tree/src/main/cli.ts node bench/pdf-flood.bench.ts   # the same against another tree (before/after)
 *
 * One `portico serve` on SQLite in a fresh DATA_DIR (LOG_LEVEL=warn, WORKER=off, rate limit at the
 * configuration maximum), a tenant from `portico demo --json`, and SHEETS generated datasheets of
 * about SHEET_MB each (pages of incompressible image data and text, made here with pdf-lib),
 * uploaded through the admin API to the tenant's first SHEETS products. Then, in order:
 * 1. small quote: sequential `POST /quotes` of a 10-line quotation as PDF, after WARM_UP_MS of the
 *    same requests; p50/p95 of SMALL_SAMPLES;
 * 2. flood: /healthz probed (from a thread of its own) one request at a time every PROBE_GAP_MS, IDLE_MS alone, then while
 *    FLOOD quotes (those SHEETS products, `includeDatasheets`, PDF) are sent at once and until the
 *    last one is answered; the server's RSS sampled from /proc every 100 ms.
 * Everything goes to 127.0.0.1; every request has a timeout; a watchdog ends the run after 170 s.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import {
  concatTransformationMatrix,
  drawObject,
  PDFDocument,
  popGraphicsState,
  pushGraphicsState,
  StandardFonts,
} from 'pdf-lib';
import {
  CLI,
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
} from './support/harness.ts';

const WATCHDOG_MS = 170_000;
const SHEETS = 4;
const SHEET_MB = 4;
const FLOOD = 16;
const WARM_UP_MS = 3000;
const SMALL_SAMPLES = 100;
const PROBE_GAP_MS = 10;
const IDLE_MS = 2000;
const REQUEST_TIMEOUT_MS = 120_000;

interface Demo {
  adminToken: string;
  locations: Array<{ apiKey: string }>;
  products: Array<{ id: string; units: Array<{ id: string }> }>;
}

interface Latencies {
  samples: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export interface FloodResult {
  date: string;
  node: string;
  cores: number;
  cpu: string;
  cli: string;
  sheets: { count: number; bytesEach: number };
  smallQuote: Latencies;
  healthzIdle: Latencies;
  healthzFlood: Latencies;
  flood: {
    quotes: number;
    statuses: Record<string, number>;
    firstMs: number;
    lastMs: number;
    pdfBytes: number;
    retryAfter: string | null;
  };
  serverPeakRssMiB: number;
}

function latencies(ms: number[]): Latencies {
  const sorted = [...ms].sort((a, b) => a - b);
  return {
    samples: sorted.length,
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.at(-1) ?? Number.NaN),
  };
}

/** A datasheet of about `megabytes`: pages of random (incompressible) image data and a little text. */
async function largeDatasheet(title: string, megabytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const side = 200; // 200 × 200 RGB = 120,000 bytes a page
  const pages = Math.ceil((megabytes * 1_000_000) / (side * side * 3));
  for (let p = 0; p < pages; p++) {
    const image = pdf.context.register(
      pdf.context.stream(randomBytes(side * side * 3), {
        Type: 'XObject',
        Subtype: 'Image',
        Width: side,
        Height: side,
        ColorSpace: 'DeviceRGB',
        BitsPerComponent: 8,
      }),
    );
    const page = pdf.addPage([595.28, 841.89]);
    const name = page.node.newXObject('Im', image);
    page.pushOperators(
      pushGraphicsState(),
      concatTransformationMatrix(400, 0, 0, 400, 97, 380),
      drawObject(name),
      popGraphicsState(),
    );
    page.drawText(`${title}, page ${p + 1}`, { x: 50, y: 800, size: 14, font });
    for (let l = 0; l < 20; l++)
      page.drawText(`Specification row ${l + 1}: value ${(p * 31 + l * 7) % 997}`, {
        x: 50,
        y: 340 - l * 14,
        size: 9,
        font,
      });
  }
  return new Uint8Array(await pdf.save({ useObjectStreams: true }));
}

const children = new Set<Child>();

async function timed(
  url: string,
  init: RequestInit = {},
): Promise<{ ms: number; status: number; bytes: number; headers: Headers }> {
  const started = performance.now();
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  const body = await res.arrayBuffer();
  return { ms: performance.now() - started, status: res.status, bytes: body.byteLength, headers: res.headers };
}

function rssSampler(pid: number): { stop(): number } {
  let peakKb = 0;
  const sample = () => {
    try {
      const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
      peakKb = Math.max(peakKb, kb);
    } catch {
      // the process is gone
    }
  };
  const timer = setInterval(sample, 100);
  sample();
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return round(peakKb / 1024, 1);
    },
  };
}

export async function runFloodBench(): Promise<FloodResult> {
  const storage = freshStorage('sqlite', 'pdf-flood');
  let server: Child | null = null;
  try {
    const env = { DATABASE_URL: storage.databaseUrl, DATA_DIR: storage.dataDir };
    const demo = JSON.parse(await runPortico(['demo', '--json'], env)) as Demo;
    const port = await freePort();
    server = startPortico(['serve'], {
      ...env,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      WORKER: 'off',
      RATE_LIMIT_PER_MINUTE: '1000000',
    });
    children.add(server);
    const base = `http://127.0.0.1:${port}`;
    await waitForHttp(`${base}/healthz`, server);

    let bytesEach = 0;
    for (let i = 0; i < SHEETS; i++) {
      const sheet = await largeDatasheet(`Datasheet ${i + 1}`, SHEET_MB);
      bytesEach = Math.max(bytesEach, sheet.byteLength);
      const upload = await timed(
        `${base}/api/v1/admin/products/${demo.products[i]!.id}/datasheet?filename=sheet-${i + 1}.pdf`,
        {
          method: 'PUT',
          headers: { authorization: `Bearer ${demo.adminToken}`, 'content-type': 'application/pdf' },
          body: sheet,
        },
      );
      if (upload.status >= 300) throw new Error(`datasheet upload answered ${upload.status}`);
    }

    const quotes = `${base}/api/v1/public/quotes`;
    const headers = { authorization: `Bearer ${demo.locations[0]!.apiKey}`, 'content-type': 'application/json' };
    const lineOf = (i: number) => ({
      productId: demo.products[i % demo.products.length]!.id,
      unitId: demo.products[i % demo.products.length]!.units[0]!.id,
      quantity: (i % 4) + 1,
    });

    // 1. A small quotation's PDF, end to end.
    const small = JSON.stringify({
      customer: { name: 'Ana Kovač' },
      lines: Array.from({ length: 10 }, (_, i) => lineOf(i)),
    });
    const smallQuote = async () => {
      const r = await timed(quotes, { method: 'POST', headers, body: small });
      if (r.status !== 201) throw new Error(`small quote answered ${r.status}`);
      return r.ms;
    };
    for (const until = performance.now() + WARM_UP_MS; performance.now() < until; ) await smallQuote();
    const smallTimes: number[] = [];
    for (let i = 0; i < SMALL_SAMPLES; i++) smallTimes.push(await smallQuote());

    // 2. /healthz alone, then during the flood: probed from a thread of its own, so that taking in
    // the flood's PDFs here does not delay the probes' answers.
    const prober = new Worker(new URL(import.meta.url), {
      workerData: { role: 'healthz-prober', url: `${base}/healthz` } satisfies ProberData,
    });
    const probesDone = new Promise<Array<{ at: number; ms: number }>>((resolve, reject) => {
      prober.once('message', resolve);
      prober.once('error', reject);
    });
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const rss = rssSampler(server.pid!);
    const floodStart = performance.timeOrigin + performance.now();
    const big = JSON.stringify({
      includeDatasheets: true,
      customer: { name: 'Veliki kupac' },
      lines: Array.from({ length: SHEETS }, (_, i) => lineOf(i)),
    });
    const flood = await Promise.all(
      Array.from({ length: FLOOD }, () => timed(quotes, { method: 'POST', headers, body: big })),
    );
    const floodEnd = performance.timeOrigin + performance.now();
    prober.postMessage('stop');
    const probes = await probesDone;
    await prober.terminate();
    const serverPeakRssMiB = rss.stop();

    const statuses: Record<string, number> = {};
    for (const r of flood) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    const m = machine();
    const floodMs = flood.map((r) => r.ms);
    return {
      date: m.date,
      node: m.node,
      cores: m.cores,
      cpu: m.cpu,
      cli: CLI,
      sheets: { count: SHEETS, bytesEach },
      smallQuote: latencies(smallTimes),
      healthzIdle: latencies(probes.filter((p) => p.at < floodStart).map((p) => p.ms)),
      healthzFlood: latencies(probes.filter((p) => p.at >= floodStart && p.at < floodEnd).map((p) => p.ms)),
      flood: {
        quotes: FLOOD,
        statuses,
        firstMs: round(Math.min(...floodMs), 0),
        lastMs: round(Math.max(...floodMs), 0),
        pdfBytes: Math.max(...flood.map((r) => (r.status === 201 ? r.bytes : 0))),
        retryAfter: flood.find((r) => r.status === 503)?.headers.get('retry-after') ?? null,
      },
      serverPeakRssMiB,
    };
  } finally {
    await stop(server);
    storage.cleanup();
  }
}

export function summary(r: FloodResult): string {
  const ms = (l: Latencies) => `${l.p50} / ${l.p99} / ${l.max} ms (${l.samples})`;
  return [
    '| | |',
    '|---|---:|',
    `| 10-line quotation PDF, \`POST /quotes\` end to end, p50 / p95 | ${r.smallQuote.p50} / ${r.smallQuote.p95} ms (${r.smallQuote.samples} sequential) |`,
    `| /healthz idle, p50 / p99 / max (probes) | ${ms(r.healthzIdle)} |`,
    `| **/healthz while ${r.flood.quotes} quotes with ${r.sheets.count} × ${round(r.sheets.bytesEach / 1_048_576, 1)} MiB datasheets print, p50 / p99 / max** | **${ms(r.healthzFlood)}** |`,
    `| flood: answers | ${Object.entries(r.flood.statuses)
      .map(([s, n]) => `${n} × ${s}`)
      .join(', ')}${r.flood.retryAfter ? ` (Retry-After ${r.flood.retryAfter})` : ''} |`,
    `| flood: first / last answer | ${r.flood.firstMs} / ${r.flood.lastMs} ms |`,
    `| flood: PDF size | ${round(r.flood.pdfBytes / 1_048_576, 1)} MiB |`,
    `| server peak RSS during the flood | ${r.serverPeakRssMiB} MiB |`,
  ].join('\n');
}

export function markdown(r: FloodResult): string {
  return [
    '## Quotation PDF flood',
    '',
    `Measured ${r.date} with \`node bench/pdf-flood.bench.ts\` — Node ${r.node}, ${r.cores} cores (${r.cpu}), SQLite.`,
    '',
    summary(r),
    '',
    `How: one \`portico serve\` (LOG_LEVEL=warn, WORKER=off), a demo tenant whose first ${r.sheets.count} products carry generated datasheets (random image data, pdf-lib); ${SMALL_SAMPLES} sequential 10-line PDF quotes after ${WARM_UP_MS / 1000} s of the same; then /healthz probed one at a time every ${PROBE_GAP_MS} ms, ${IDLE_MS / 1000} s idle and then while ${r.flood.quotes} quotes of those products with \`includeDatasheets\` are sent at once, until the last is answered; server RSS from /proc every 100 ms. \`BENCH_CLI=/other/tree/src/main/cli.ts\` runs it against another tree.`,
    '',
  ].join('\n');
}

interface ProberData {
  role: 'healthz-prober';
  url: string;
}

/** The prober thread: /healthz one request at a time until told to stop; posts [{ at (wall ms), ms }]. */
async function probe(data: ProberData): Promise<void> {
  const probes: Array<{ at: number; ms: number }> = [];
  let probing = true;
  parentPort!.once('message', () => {
    probing = false;
  });
  while (probing) {
    const at = performance.timeOrigin + performance.now();
    const r = await timed(data.url);
    if (r.status !== 200) throw new Error(`/healthz answered ${r.status}`);
    probes.push({ at, ms: r.ms });
    await new Promise((resolve) => setTimeout(resolve, PROBE_GAP_MS));
  }
  parentPort!.postMessage(probes);
}

if (!isMainThread && (workerData as Partial<ProberData> | null)?.role === 'healthz-prober') {
  await probe(workerData as ProberData);
} else if (import.meta.main) {
  const timer = watchdog(WATCHDOG_MS, 'pdf-flood bench', () => {
    for (const c of children) c.kill('SIGKILL');
  });
  const result = await runFloodBench();
  console.log(JSON.stringify(result, null, 2));
  console.log();
  console.log(summary(result));
  if (process.argv.includes('--write-readme')) writeReadmeSection('Quotation PDF flood', markdown(result));
  clearTimeout(timer);
}
