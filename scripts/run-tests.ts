// `npm test`: every test file on SQLite; with TEST_DATABASE_URL, the files whose behaviour depends
// on the database engine, on that PostgreSQL server. Each file says which on its first line
// (`// test-engines: both`, `// test-engines: sqlite`, or `// test-engines: postgres` for what only
// PostgreSQL has): a file that says none stops the run, so a new file cannot silently skip
// PostgreSQL, nor re-run a browser test on it for nothing. A test that does not apply to an
// engine is in a file that does not run on it, never a skip that counts as passed.
// Named files (`npm test -- test/http/auth.test.ts`) run as given.
//
// Files run in a few long-lived processes (shards), not one process each: loading the code and
// warming an app costs ~1.3 s of CPU per process, paid ~300 times a CI run when every file had a
// process of its own. A shard runs its files one after another with node's `--test-isolation=none`,
// so a file may not hang hooks on the top level (they would run around every file of its shard):
// its hooks go inside a `describe`, and the runner refuses a file that does otherwise. Shards are
// balanced by the files' durations of an earlier run (`test/durations.json`, rewritten by
// `npm test -- --write-durations` from the last run's results), slowest first.
import { spawn, spawnSync } from 'node:child_process';
import readline from 'node:readline';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const onPostgres = process.env.TEST_DATABASE_URL !== undefined;
const engine = onPostgres ? 'postgres' : 'sqlite';

const TAG = /^\/\/ test-engines: (both|sqlite|postgres)\b/;
const TOP_LEVEL_HOOK = /^(before|after|beforeEach|afterEach)\(/m;

const allTestFiles = [
  ...fs.globSync('test/**/*.test.ts', { cwd: root }),
  ...fs.globSync('src/**/*.test.ts', { cwd: root }),
];

function testFiles(): string[] {
  const all = [...allTestFiles].sort();
  const untagged: string[] = [];
  const hooked: string[] = [];
  const chosen = all.filter((file) => {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    const tag = TAG.exec(text.split('\n', 1)[0] ?? '')?.[1];
    if (!tag) untagged.push(file);
    if (TOP_LEVEL_HOOK.test(text)) hooked.push(file);
    return tag === 'both' || tag === (onPostgres ? 'postgres' : 'sqlite');
  });
  if (untagged.length > 0) {
    console.error(
      `These test files do not say which database engines they need; put \`// test-engines: both\` (the engine changes what they test), \`// test-engines: sqlite\` (it cannot) or \`// test-engines: postgres\` (only PostgreSQL has it) on their first line:\n  ${untagged.join('\n  ')}`,
    );
    process.exit(1);
  }
  if (hooked.length > 0) {
    console.error(
      `These test files hang hooks (before, after, …) on the top level, where they would run around every file of a shard; put them and the tests inside a describe:\n  ${hooked.join('\n  ')}`,
    );
    process.exit(1);
  }
  return chosen;
}

/**
 * The programs the tests drive (PDF tools, a barcode reader, Java with Saxon for the official
 * e-invoice rules, Chromium). Missing ones are installed where that is possible without asking
 * (root with apt-get, as on CI); elsewhere the run stops at once with the one line to run.
 */
function ensureTools(): void {
  const script = path.join(root, 'scripts/test-tools.sh');
  const check = spawnSync('bash', [script, 'check'], { encoding: 'utf8' });
  if (check.status === 0) return;
  const canInstall = process.getuid?.() === 0 && spawnSync('bash', ['-c', 'command -v apt-get']).status === 0;
  if (canInstall) {
    console.log(`Installing the test tools (${check.stdout.trim()}) with apt-get…`);
    const install = spawnSync('bash', [script, 'install'], { stdio: 'inherit' });
    if (install.status === 0) return;
  }
  console.error(
    `The tests need programs this machine lacks (${check.stdout.trim()}). Install them first:\n  ${spawnSync('bash', [script, 'line'], { encoding: 'utf8' }).stdout.trim()}`,
  );
  process.exit(1);
}

interface Summary {
  passed: number;
  failed: number;
  skipped: number;
  /** Per file, the sum of its test cases' times (its app's start included, its imports not). */
  byFile: Map<string, number>;
}

/** A file as the junit report names it (absolute, maybe in another clone), relative to the repository. */
function relativeTestFile(file: string): string {
  return allTestFiles.find((known) => file.endsWith(`/${known}`)) ?? path.relative(root, file);
}

function summarise(junits: string[]): Summary {
  const summary: Summary = { passed: 0, failed: 0, skipped: 0, byFile: new Map() };
  for (const junit of junits) {
    if (!fs.existsSync(junit)) continue;
    const xml = fs.readFileSync(junit, 'utf8');
    for (const match of xml.matchAll(/<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g)) {
      const attributes = match[1] ?? '';
      const body = match[3] ?? '';
      const file = relativeTestFile(/\bfile="([^"]*)"/.exec(attributes)?.[1] ?? '?');
      const time = Number(/\btime="([^"]*)"/.exec(attributes)?.[1] ?? 0);
      if (/<skipped\b/.test(body)) summary.skipped++;
      else if (/<failure\b/.test(body)) summary.failed++;
      else summary.passed++;
      summary.byFile.set(file, (summary.byFile.get(file) ?? 0) + time);
    }
  }
  return summary;
}

const DURATIONS = path.join(root, 'test/durations.json');
type Durations = Record<'sqlite' | 'postgres', Record<string, number>>;

function readDurations(): Durations {
  try {
    return JSON.parse(fs.readFileSync(DURATIONS, 'utf8')) as Durations;
  } catch {
    return { sqlite: {}, postgres: {} };
  }
}

/**
 * The files split into `count` shards of about equal expected time: longest first, each to the
 * shard with the least so far. A file without a recorded time counts as the median one.
 */
function shards(files: string[], count: number): string[][] {
  const known = readDurations()[engine];
  const times = Object.values(known).sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] ?? 5;
  const expected = (file: string) => known[file] ?? median;
  const bins = Array.from({ length: Math.min(count, files.length) }, () => ({ files: [] as string[], total: 0 }));
  for (const file of [...files].sort((a, b) => expected(b) - expected(a))) {
    const bin = bins.reduce((least, b) => (b.total < least.total ? b : least));
    bin.files.push(file);
    bin.total += expected(file);
  }
  return bins.map((b) => b.files);
}

const args = process.argv.slice(2);
const results = path.join(root, 'test-results');

if (args[0] === '--write-durations') {
  // After a full run on each engine: the times the next runs balance their shards by.
  const durations = readDurations();
  for (const which of ['sqlite', 'postgres'] as const) {
    const junits = fs.globSync(`test-results/junit-${which}-*.xml`, { cwd: root }).map((f) => path.join(root, f));
    const { byFile } = summarise(junits);
    if (byFile.size > 0)
      durations[which] = Object.fromEntries([...byFile].sort().map(([file, s]) => [file, Math.round(s * 10) / 10]));
  }
  fs.writeFileSync(DURATIONS, `${JSON.stringify(durations, null, 2)}\n`);
  console.log(`wrote ${path.relative(root, DURATIONS)}`);
  process.exit(0);
}

const files = args.length > 0 ? args : testFiles();
ensureTools();

fs.mkdirSync(results, { recursive: true });
for (const old of fs.globSync(`test-results/junit-${engine}-*.xml`, { cwd: root })) fs.rmSync(path.join(root, old));
// Four shards on two cores: most of a file's time is spent waiting (the browser, the databases,
// child processes, sockets), so two per core keep both cores busy without one starving another.
const concurrency = Number(process.env.TEST_CONCURRENCY ?? os.availableParallelism() * 2);
const groups = shards(files, concurrency);

/** One shard: its files one after another in one process; its report lines prefixed with its number. */
function runShard(shardFiles: string[], index: number): Promise<number> {
  const junit = path.join(results, `junit-${engine}-${index + 1}.xml`);
  const child = spawn(
    process.execPath,
    [
      '--test',
      '--test-isolation=none',
      // A file that leaves a handle open (a failed test's server) must not keep its shard alive.
      '--test-force-exit',
      '--test-timeout=120000',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=junit',
      `--test-reporter-destination=${junit}`,
      ...shardFiles,
    ],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
      // V8's compiled code is kept between runs (and for the processes the tests start).
      // PORTICO_TEST_SHARD: the files of this process may share what outlives one file (a browser).
      env: {
        ...process.env,
        NODE_COMPILE_CACHE: path.join(root, 'node_modules/.cache/node-compile'),
        PORTICO_TEST_SHARD: String(index + 1),
      },
    },
  );
  const prefix = groups.length > 1 ? `[${index + 1}] ` : '';
  readline.createInterface({ input: child.stdout! }).on('line', (line) => process.stdout.write(`${prefix}${line}\n`));
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

const started = performance.now();
const codes = await Promise.all(groups.map(runShard));
const { passed, failed, skipped, byFile } = summarise(
  groups.map((_, i) => path.join(results, `junit-${engine}-${i + 1}.xml`)),
);
const slowest = [...byFile].sort((a, b) => b[1] - a[1]).slice(0, 10);
console.log(
  `\nSlowest files on ${engine} (their tests' time; test-results/junit-${engine}-*.xml has every test):\n${slowest
    .map(([file, seconds]) => `  ${seconds.toFixed(1).padStart(6)} s  ${file}`)
    .join('\n')}`,
);
console.log(
  `${groups.length} shards of ${files.length} files in ${((performance.now() - started) / 1000).toFixed(0)} s`,
);
console.log(`${engine}: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(codes.some((code) => code !== 0) ? 1 : 0);
