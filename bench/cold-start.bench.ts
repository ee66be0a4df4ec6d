/**
 * The production server's cold start: `portico serve` spawned to its first 200 on `/readyz`, on a
 * database already migrated (a restart, a deploy, a new instance). Two trees are compared in the
 * same run, interleaved start by start so machine load falls on both:
 *
 *   node bench/cold-start.bench.ts --before /path/to/older/checkout [--runs 7]
 *
 * The older checkout needs its own node_modules (a symlink to this one's does for a small
 * change). Each tree's compile cache (Node's, in a folder of this run) starts empty, so its first
 * start is reported apart from the later ones, which find the cache as a restarted server does.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const argv = process.argv.slice(2);
const option = (name: string) => {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
};
const before = option('--before');
if (!before) throw new Error('--before <older checkout> is required');
const runs = Number(option('--runs') ?? 7);
const after = path.resolve(import.meta.dirname, '..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-cold-start-'));

interface Tree {
  name: string;
  root: string;
  dataDir: string;
  cache: string;
  port: number;
  times: number[];
}

const trees: Tree[] = [
  { name: 'before', root: path.resolve(before), port: 39411 },
  { name: 'after', root: after, port: 39412 },
].map((t) => ({
  ...t,
  dataDir: path.join(work, `${t.name}-data`),
  cache: path.join(work, `${t.name}-cache`),
  times: [],
}));

/** Spawns the server, polls /readyz every 5 ms, answers the milliseconds to the first 200. */
async function coldStart(tree: Tree): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(tree.root, 'bin/portico.js'), 'serve'], {
    cwd: tree.root,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      DATABASE_URL: `sqlite:${path.join(tree.dataDir, 'portico.sqlite')}`,
      DATA_DIR: tree.dataDir,
      PORT: String(tree.port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      // The older tree runs as it shipped (no compile cache unless it enabled one itself).
      NODE_COMPILE_CACHE: tree.name === 'after' ? tree.cache : '',
    },
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`${tree.name} exited with ${code}: ${stderr}`))),
  );
  try {
    const deadline = started + 60_000;
    let last = 'no answer';
    while (performance.now() < deadline) {
      const ok = await Promise.race([
        fetch(`http://127.0.0.1:${tree.port}/readyz`).then(
          async (r) => {
            last = `${r.status} ${await r.text()}`;
            return r.status === 200;
          },
          (e: Error) => {
            last = String(e.cause ?? e);
            return false;
          },
        ),
        exited,
      ]);
      if (ok) return performance.now() - started;
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error(`${tree.name}: no 200 on /readyz within 60 s (last: ${last}; stderr: ${stderr})`);
  } finally {
    child.removeAllListeners('exit');
    child.kill('SIGTERM');
    await new Promise((r) => child.once('close', r));
  }
}

// The first start of each tree migrates its database; it is not measured.
for (const tree of trees) await coldStart(tree);
const firstWithEmptyCache: Record<string, number> = {};
for (const tree of trees) {
  fs.rmSync(tree.cache, { recursive: true, force: true });
  firstWithEmptyCache[tree.name] = await coldStart(tree);
}
for (let i = 0; i < runs; i++)
  for (const tree of i % 2 ? [...trees].reverse() : trees) tree.times.push(await coldStart(tree));

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const [b, a] = trees as [Tree, Tree];
const result = {
  node: process.version,
  runs,
  firstStartWithEmptyCacheMs: firstWithEmptyCache,
  p50Ms: { before: p50(b.times), after: p50(a.times) },
  ratioAfterToBefore: p50(a.times) / p50(b.times),
  timesMs: { before: b.times.map(Math.round), after: a.times.map(Math.round) },
};
console.log(JSON.stringify(result, null, 2));
console.log(
  `\ncold start to the first 200 on /readyz, p50 of ${runs}: before ${p50(b.times).toFixed(0)} ms, after ${p50(a.times).toFixed(0)} ms, after ÷ before ${result.ratioAfterToBefore.toFixed(2)}`,
);
fs.rmSync(work, { recursive: true, force: true });
