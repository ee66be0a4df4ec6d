/**
 * `npm run bench`: the benches in sequence, each in its own process, then their summaries.
 *
 *   node bench/run-all.ts                          # pdf (if bench/pdf.bench.ts exists), pdf-flood, reach-out, webhooks, lists
 *   node bench/run-all.ts --only reach-out,webhooks
 *   node bench/run-all.ts --write-readme           # each bench replaces its own section of bench/README.md
 *   node bench/run-all.ts --engine sqlite          # passed to reach-out, webhooks and lists
 *
 * Runs one after the other (never in parallel: they would measure each other on 2 cores).
 * Each bench has its own watchdog; this runner also kills a bench that overstays its limit.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

interface Bench {
  name: string;
  file: string;
  args: string[];
  limitMs: number;
}

const argv = process.argv.slice(2);
const writeReadme = argv.includes('--write-readme') ? ['--write-readme'] : [];
const engineAt = argv.indexOf('--engine');
const engine = engineAt >= 0 && argv[engineAt + 1] ? ['--engine', argv[engineAt + 1]!] : [];
const onlyAt = argv.indexOf('--only');
const only = onlyAt >= 0 && argv[onlyAt + 1] ? new Set(argv[onlyAt + 1]!.split(',')) : null;

const benches: Bench[] = [
  { name: 'pdf', file: 'bench/pdf.bench.ts', args: [...writeReadme], limitMs: 200_000 },
  { name: 'pdf-flood', file: 'bench/pdf-flood.bench.ts', args: [...writeReadme], limitMs: 200_000 },
  { name: 'reach-out', file: 'bench/reach-out.bench.ts', args: [...engine, ...writeReadme], limitMs: 170_000 },
  { name: 'webhooks', file: 'bench/webhooks.bench.ts', args: [...engine, ...writeReadme], limitMs: 240_000 },
  { name: 'lists', file: 'bench/lists.bench.ts', args: [...engine, ...writeReadme], limitMs: 1_000_000 },
  { name: 'hub-quotation', file: 'bench/hub-quotation.bench.ts', args: [...engine, ...writeReadme], limitMs: 320_000 },
  { name: 'hub-counter', file: 'bench/hub-counter.bench.ts', args: [...engine, ...writeReadme], limitMs: 320_000 },
].filter((b) => (only ? only.has(b.name) : true) && existsSync(path.join(ROOT, b.file)));

/** What a bench prints after its JSON result: its summary table (or everything, if it has no JSON block). */
function summaryOf(stdout: string): string {
  const end = stdout.indexOf('\n}\n');
  return (end >= 0 && stdout.trimStart().startsWith('{') ? stdout.slice(end + 3) : stdout).trim();
}

function run(b: Bench): Promise<{ code: number | null; stdout: string; seconds: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, b.file), ...b.args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    const timer = setTimeout(() => {
      process.stderr.write(`run-all: ${b.name} exceeded ${b.limitMs / 1000} s, killing it\n`);
      child.kill('SIGKILL');
    }, b.limitMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, seconds: Math.round((Date.now() - started) / 1000) });
    });
  });
}

const results: Array<{ bench: Bench; code: number | null; summary: string; seconds: number }> = [];
for (const bench of benches) {
  process.stderr.write(`run-all: ${bench.name} (${bench.file} ${bench.args.join(' ')})…\n`);
  const r = await run(bench);
  results.push({ bench, code: r.code, summary: summaryOf(r.stdout), seconds: r.seconds });
}

for (const r of results) {
  console.log(`\n=== ${r.bench.name} — ${r.code === 0 ? 'ok' : `FAILED (exit ${r.code})`}, ${r.seconds} s ===\n`);
  console.log(r.summary);
}
process.exitCode = results.every((r) => r.code === 0) ? 0 : 1;
