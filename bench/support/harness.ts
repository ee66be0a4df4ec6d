/**
 * Shared plumbing of the HTTP benches (reach-out, webhooks): child processes, autocannon in
 * its own process, throw-away databases, percentiles and the README section writer.
 * Everything listens on 127.0.0.1 only.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(import.meta.dirname, '../..');
/** The CLI under test; BENCH_CLI points the HTTP benches at another tree's cli.ts (to compare a patch). */
export const CLI = process.env.BENCH_CLI ? path.resolve(process.env.BENCH_CLI) : path.join(ROOT, 'src/main/cli.ts');
const AUTOCANNON = path.join(ROOT, 'node_modules/autocannon/autocannon.js');

export type EngineName = 'sqlite' | 'postgres';

/** `--engine sqlite|postgres|both` (default both); PG_URL overrides the server (no database part). */
export function enginesFromArgs(argv: string[]): EngineName[] {
  const i = argv.indexOf('--engine');
  const value = i >= 0 ? argv[i + 1] : 'both';
  if (value === 'sqlite' || value === 'postgres') return [value];
  if (value === 'both') return ['sqlite', 'postgres'];
  throw new Error(`--engine must be sqlite, postgres or both (got ${value})`);
}

export const PG_SERVER = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';

function psql(database: string, sql: string): void {
  execFileSync('psql', [`${PG_SERVER}/${database}`, '-v', 'ON_ERROR_STOP=1', '-qAtc', sql], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** A fresh DATA_DIR and DATABASE_URL; for PostgreSQL a dropped-and-recreated database. */
export function freshStorage(
  engine: EngineName,
  name: string,
): { dataDir: string; databaseUrl: string; cleanup(): void } {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `portico-bench-${name}-`));
  if (engine === 'sqlite') {
    return {
      dataDir,
      databaseUrl: `sqlite:${path.join(dataDir, 'portico.sqlite')}`,
      cleanup: () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const db = `portico_bench_${name.replace(/\W/g, '_')}`;
  psql('postgres', `drop database if exists ${db} with (force)`);
  psql('postgres', `create database ${db}`);
  return {
    dataDir,
    databaseUrl: `${PG_SERVER}/${db}`,
    cleanup: () => {
      rmSync(dataDir, { recursive: true, force: true });
      try {
        psql('postgres', `drop database if exists ${db} with (force)`);
      } catch {
        /* best effort */
      }
    },
  };
}

export { freePort } from '../../test/support/processes.ts';

export type Child = ChildProcess & { output: () => string };

/** A child `node <args>`; stdout/stderr kept (last 20 kB) for error messages. */
export function startNode(args: string[], env: Record<string, string> = {}, opts: { ipc?: boolean } = {}): Child {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: opts.ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => {
    output = (output + d.toString()).slice(-20_000);
  });
  child.stderr!.on('data', (d: Buffer) => {
    output = (output + d.toString()).slice(-20_000);
  });
  return Object.assign(child, { output: () => output });
}

/** `node src/main/cli.ts <args>` with LOG_LEVEL=warn unless overridden. */
export function startPortico(args: string[], env: Record<string, string>, nodeFlags: string[] = []): Child {
  return startNode([...nodeFlags, CLI, ...args], { LOG_LEVEL: 'warn', ...env });
}

/**
 * Runs a CLI command to completion and returns its stdout. Logged warnings would share stdout
 * with the output the benches parse (`demo --json` after a start-up warning), so only errors log.
 */
export function runPortico(args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = startPortico(args, { LOG_LEVEL: 'error', ...env });
    let stdout = '';
    child.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.once('exit', (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`portico ${args.join(' ')} exited ${code}: ${child.output()}`)),
    );
  });
}

export async function waitForHttp(url: string, child: Child, timeoutMs = 120_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null)
      throw new Error(`process exited (${child.exitCode}) before ${url} came up: ${child.output()}`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} did not come up: ${child.output()}`);
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves when the process is gone. */
export async function stop(child: ChildProcess | null | undefined, graceMs = 10_000): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await gone;
  clearTimeout(timer);
}

/** Reads one line `READY <port>` from a bench helper child. */
export function readyPort(child: Child, timeoutMs = 15_000): Promise<number> {
  return new Promise((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => reject(new Error(`helper did not start: ${child.output()}`)), timeoutMs);
    const onData = (d: Buffer) => {
      buf += d.toString();
      const m = /READY (\d+)/.exec(buf);
      if (m) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        resolve(Number(m[1]));
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`helper exited ${code}: ${child.output()}`));
    });
  });
}

// ---------------------------------------------------------------------------
// autocannon, always in its own process

export interface LoadSettings {
  connections: number;
  durationS: number;
  pipelining: number;
  warmupS: number;
}

export const DEFAULT_LOAD: LoadSettings = { connections: 32, durationS: 10, pipelining: 1, warmupS: 3 };

export interface LoadResult {
  reqPerSec: number; // autocannon requests.average (mean of the per-second samples)
  /** CPU used during the measured run, in cores: the target(s) named in `watch`, autocannon, and the whole machine. */
  cpu: CpuUse;
  total: number;
  /** Wall time of the run in seconds (autocannon's `duration`). */
  seconds: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
}

interface AutocannonJson {
  requests: { average: number; total: number };
  duration: number;
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  '1xx': number;
  '2xx': number;
  '3xx': number;
  '4xx': number;
  '5xx': number;
}

function autocannonOnce(
  url: string,
  o: {
    method: string;
    headers: Record<string, string>;
    body?: string;
    connections: number;
    durationS: number;
    pipelining: number;
    amount?: number;
    watch?: Record<string, number>;
  },
): Promise<LoadResult> {
  const args = [
    AUTOCANNON,
    '--json',
    '--no-progress',
    '-c',
    String(o.connections),
    '-p',
    String(o.pipelining),
    '-m',
    o.method,
  ];
  if (o.amount !== undefined) args.push('-a', String(o.amount));
  else args.push('-d', String(o.durationS));
  for (const [k, v] of Object.entries(o.headers)) args.push('-H', `${k}=${v}`);
  if (o.body !== undefined) args.push('-b', o.body);
  args.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const sampler = cpuSampler({ ...o.watch, autocannon: child.pid! });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.once('exit', (code) => {
      const cpu = sampler.stop();
      if (code !== 0) return reject(new Error(`autocannon exited ${code}: ${stderr.slice(-2000)}`));
      try {
        const r = JSON.parse(stdout.slice(stdout.indexOf('{'))) as AutocannonJson;
        resolve({
          reqPerSec: r.requests.average,
          cpu,
          total: r.requests.total,
          seconds: r.duration,
          p50: r.latency.p50,
          p99: r.latency.p99,
          non2xx: r.non2xx,
          errors: r.errors,
          timeouts: r.timeouts,
          statusCodes: { '1xx': r['1xx'], '2xx': r['2xx'], '3xx': r['3xx'], '4xx': r['4xx'], '5xx': r['5xx'] },
        });
      } catch (error) {
        reject(
          new Error(
            `autocannon output unreadable: ${(error as Error).message}: ${stdout.slice(0, 500)} ${stderr.slice(-500)}`,
          ),
        );
      }
    });
  });
}

/** A warm-up run (discarded), then the measured run with the same settings. */
export async function loadTest(
  url: string,
  request: { method: string; headers: Record<string, string>; body?: string },
  settings: LoadSettings = DEFAULT_LOAD,
  watch: Record<string, number> = {},
): Promise<LoadResult> {
  if (settings.warmupS > 0) await autocannonOnce(url, { ...request, ...settings, durationS: settings.warmupS });
  return autocannonOnce(url, { ...request, ...settings, watch });
}

/** A fixed number of requests (setup traffic), as fast as the target takes them. */
export function fireAmount(
  url: string,
  request: { method: string; headers: Record<string, string>; body?: string },
  amount: number,
  connections: number,
  watch: Record<string, number> = {},
): Promise<LoadResult> {
  return autocannonOnce(url, { ...request, connections, pipelining: 1, durationS: 0, amount, watch });
}

// ---------------------------------------------------------------------------
// CPU accounting (Linux /proc): the machine is shared with whatever else runs, so every
// measurement says how busy it was.

const TICK_MS = 10; // CLK_TCK = 100

/** CPU time (user + system) a process has used so far, in ms; null once it is gone. */
export function procCpuMs(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS; // utime + stime
  } catch {
    return null;
  }
}

function machineCpuMs(): { busy: number; total: number } {
  try {
    const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
    const n = values.map(Number);
    const total = n.slice(0, 8).reduce((a, b) => a + b, 0);
    return { busy: (total - n[3]! - n[4]!) * TICK_MS, total: total * TICK_MS };
  } catch {
    return { busy: Number.NaN, total: Number.NaN };
  }
}

/** Cores used: per watched process, and by the whole machine (`machine`, out of `cores`). */
export type CpuUse = Record<string, number>;

export function cpuSampler(watch: Record<string, number>): { stop(): CpuUse } {
  const started = performance.now();
  const machine0 = machineCpuMs();
  const first = new Map<string, number>();
  const last = new Map<string, number>();
  const sample = () => {
    for (const [name, pid] of Object.entries(watch)) {
      const ms = procCpuMs(pid);
      if (ms === null) continue;
      if (!first.has(name)) first.set(name, ms);
      last.set(name, ms);
    }
  };
  sample();
  const timer = setInterval(sample, 200);
  timer.unref();
  return {
    stop(): CpuUse {
      sample();
      clearInterval(timer);
      const wall = performance.now() - started;
      const machine1 = machineCpuMs();
      const use: CpuUse = {};
      for (const name of Object.keys(watch)) {
        const a = first.get(name);
        const b = last.get(name);
        if (a !== undefined && b !== undefined) use[name] = round((b - a) / wall, 2);
      }
      use.machine = round(
        ((machine1.busy - machine0.busy) / (machine1.total - machine0.total)) * os.availableParallelism(),
        2,
      );
      return use;
    },
  };
}

// ---------------------------------------------------------------------------
// numbers and the README

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

export const round = (n: number, digits = 2): number => Math.round(n * 10 ** digits) / 10 ** digits;

export function machine(): { node: string; cores: number; cpu: string; kernel: string; date: string } {
  return {
    node: process.version,
    cores: os.availableParallelism(),
    cpu: (os.cpus()[0]?.model ?? 'unknown').trim(),
    kernel: os.release(),
    date: new Date().toISOString().slice(0, 10),
  };
}

export function postgresVersion(): string {
  try {
    return execFileSync('psql', [`${PG_SERVER}/postgres`, '-qAtc', 'show server_version'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
      .toString()
      .trim()
      .split(' ')[0]!;
  } catch {
    return 'unknown';
  }
}

/** Replaces the `## <heading>` section of bench/README.md (up to the next `## `), or appends it. */
export function writeReadmeSection(heading: string, section: string): void {
  const file = fileURLToPath(new URL('../README.md', import.meta.url));
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n\n';
  const escaped = heading.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const start = current.search(new RegExp(`^## ${escaped}[ \\t]*$`, 'm'));
  let next: string;
  if (start === -1) {
    next = `${current.replace(/\n*$/, '\n\n')}${section}`;
  } else {
    const rest = current.slice(start + 1);
    const endRel = rest.search(/^## /m);
    const end = endRel === -1 ? current.length : start + 1 + endRel;
    next = `${current.slice(0, start)}${section}${end < current.length ? '\n' : ''}${current.slice(end)}`;
  }
  writeFileSync(file, next.replace(/\n{3,}/g, '\n\n').replace(/\n*$/, '\n'));
}

/** Kills the run if it overstays, so a stuck child never leaves the machine busy. */
export function watchdog(ms: number, name: string, cleanup: () => void): NodeJS.Timeout {
  const timer = setTimeout(() => {
    console.error(`${name}: aborted after ${ms / 1000} s`);
    cleanup();
    process.exit(2);
  }, ms);
  timer.unref();
  return timer;
}
