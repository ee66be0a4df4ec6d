import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './processes.ts';

const run = promisify(execFile);

/**
 * A PostgreSQL cluster and a Redis server of the test's own, for tests that stop, restart or cut
 * them: the shared servers on 5432 and 6379 serve every other test at the same time and are
 * never touched. Both listen on a free loopback port and live in a temporary directory.
 */
export interface PrivatePostgres {
  /** postgres://… of the database `portico` in the cluster. */
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
  start(): Promise<void>;
  restart(): Promise<void>;
  /** Runs one statement as the superuser on the `postgres` database (not through the app's pool). */
  admin(text: string): Promise<void>;
  destroy(): Promise<void>;
}

/** The directory holding initdb and pg_ctl, or null when PostgreSQL's server binaries are absent. */
export function postgresBinaries(): string | null {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : null;
}

// PostgreSQL refuses to run as root: as root (CI) the cluster runs as the `postgres` OS user.
const asRoot = process.getuid?.() === 0;
function pgCommand(bin: string, args: string[]): [string, string[]] {
  return asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBinaries();
  if (!bin) throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-pg-'));
  if (asRoot) await run('chown', ['postgres', dir]);
  const data = path.join(dir, 'data');
  const port = await freePort();
  const exec = (tool: string, args: string[]) => {
    const [file, argv] = pgCommand(path.join(bin, tool), args);
    return run(file, argv, { timeout: 60_000 });
  };
  await exec('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  // fsync off: the cluster is thrown away; the restarts under test are clean or fast shutdowns.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`;
  const ctl = (...args: string[]) => exec('pg_ctl', ['-D', data, '-l', path.join(dir, 'log'), '-w', ...args]);
  const start = async () => void (await ctl('-o', options, 'start'));
  await start();
  const base = `postgres://postgres@127.0.0.1:${port}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: `${base}/postgres` });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  await admin('create database portico');
  let up = true;
  return {
    url: `${base}/portico`,
    port,
    admin,
    async stop() {
      await ctl('-m', 'fast', 'stop');
      up = false;
    },
    async start() {
      await start();
      up = true;
    },
    async restart() {
      await ctl('-m', 'fast', '-o', options, 'restart');
      up = true;
    },
    async destroy() {
      if (up) await ctl('-m', 'immediate', 'stop').catch(() => {});
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface PrivateRedis {
  readonly url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

export function redisBinary(): string | null {
  for (const candidate of ['/usr/bin/redis-server', '/usr/local/bin/redis-server'])
    if (fs.existsSync(candidate)) return candidate;
  return null;
}

/** A throwaway redis-server (no persistence) on a free port; stopped and started by its own pid. */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const bin = redisBinary();
  if (!bin) throw new Error('redis-server not found');
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    const c = spawn(bin, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    child = c;
    await new Promise<void>((resolve, reject) => {
      let seen = '';
      c.stdout!.on('data', (d: Buffer) => {
        seen += d.toString();
        if (seen.includes('Ready to accept connections')) resolve();
      });
      c.once('exit', (code) => reject(new Error(`redis-server exited with ${code}`)));
    });
  };
  const stop = async () => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null) return;
    const gone = new Promise((resolve) => c.once('exit', resolve));
    c.kill('SIGKILL');
    await gone;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, start, stop, destroy: stop };
}
