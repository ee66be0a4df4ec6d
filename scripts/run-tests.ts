// `npm test`: every test file on SQLite; with TEST_DATABASE_URL, the files whose behaviour depends
// on the database engine, on that PostgreSQL server. Each file says which on its first line
// (`// test-engines: both` or `// test-engines: sqlite`): a file that says neither stops the run,
// so a new file cannot silently skip PostgreSQL, nor re-run a browser test on it for nothing.
// Named files (`npm test -- test/http/auth.test.ts`) run as given.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const onPostgres = process.env.TEST_DATABASE_URL !== undefined;
const engine = onPostgres ? 'postgres' : 'sqlite';

const TAG = /^\/\/ test-engines: (both|sqlite)\b/;

function testFiles(): string[] {
  const all = [
    ...fs.globSync('test/**/*.test.ts', { cwd: root }),
    ...fs.globSync('src/**/*.test.ts', { cwd: root }),
  ].sort();
  const untagged: string[] = [];
  const chosen = all.filter((file) => {
    const first = fs.readFileSync(path.join(root, file), 'utf8').split('\n', 1)[0] ?? '';
    const tag = TAG.exec(first)?.[1];
    if (!tag) untagged.push(file);
    return tag === 'both' || (tag === 'sqlite' && !onPostgres);
  });
  if (untagged.length > 0) {
    console.error(
      `These test files do not say which database engines they need; put \`// test-engines: both\` (the engine changes what they test) or \`// test-engines: sqlite\` (it cannot) on their first line:\n  ${untagged.join('\n  ')}`,
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

interface FileTime {
  file: string;
  seconds: number;
}

/** Per file, the sum of its top-level tests' times (its app's start included, its imports not). */
function summarise(junit: string): { passed: number; failed: number; skipped: number; slowest: FileTime[] } {
  const xml = fs.readFileSync(junit, 'utf8');
  const byFile = new Map<string, number>();
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const match of xml.matchAll(/<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const attributes = match[1] ?? '';
    const body = match[3] ?? '';
    const file = /\bfile="([^"]*)"/.exec(attributes)?.[1] ?? '?';
    const time = Number(/\btime="([^"]*)"/.exec(attributes)?.[1] ?? 0);
    if (/<skipped\b/.test(body)) skipped++;
    else if (/<failure\b/.test(body)) failed++;
    else passed++;
    byFile.set(file, (byFile.get(file) ?? 0) + time);
  }
  const slowest = [...byFile]
    .map(([file, seconds]) => ({ file: path.relative(root, file), seconds }))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, 10);
  return { passed, failed, skipped, slowest };
}

const named = process.argv.slice(2);
const files = named.length > 0 ? named : testFiles();
ensureTools();

const results = path.join(root, 'test-results');
fs.mkdirSync(results, { recursive: true });
const junit = path.join(results, `junit-${engine}.xml`);
// Two files per core: most of a file's time is spent waiting (the browser, the databases, child
// processes, sockets), so two per core keep both cores busy without one file starving another.
const concurrency = Number(process.env.TEST_CONCURRENCY ?? os.availableParallelism() * 2);

const child = spawn(
  process.execPath,
  [
    '--test',
    `--test-concurrency=${concurrency}`,
    '--test-timeout=120000',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=junit',
    `--test-reporter-destination=${junit}`,
    ...files,
  ],
  {
    cwd: root,
    stdio: 'inherit',
    // Each test file is a process that loads the same code: V8's compiled code is kept between
    // them (and between runs) instead of being compiled again for every file.
    env: { ...process.env, NODE_COMPILE_CACHE: path.join(root, 'node_modules/.cache/node-compile') },
  },
);
child.on('exit', (code, signal) => {
  if (fs.existsSync(junit)) {
    const { passed, failed, skipped, slowest } = summarise(junit);
    const lines = slowest.map(({ file, seconds }) => `  ${seconds.toFixed(1).padStart(6)} s  ${file}`);
    console.log(`\nSlowest files on ${engine} (their tests' time; ${path.relative(root, junit)} has every test):`);
    console.log(lines.join('\n'));
    console.log(`${engine}: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  }
  process.exit(code ?? (signal ? 1 : 0));
});
