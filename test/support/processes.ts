import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

const CLI = path.resolve(import.meta.dirname, '../../src/main/cli.ts');

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// Children still running when a test file ends (a failed assertion, a timeout) must not outlive
// it: their pipes are unref'd so they cannot keep the test process alive, and they are killed
// when it exits. Otherwise one failed start hangs the whole suite until CI's time runs out.
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Runs `portico <args>` as a real child process; its stderr is kept for failure messages. */
export function startPortico(args: string[], env: Record<string, string>): ChildProcess & { output: () => string } {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  child.unref();
  (child.stdout as unknown as { unref(): void }).unref();
  (child.stderr as unknown as { unref(): void }).unref();
  let output = '';
  child.stdout!.on('data', (d: Buffer) => {
    output = (output + d.toString()).slice(-20_000);
  });
  child.stderr!.on('data', (d: Buffer) => {
    output = (output + d.toString()).slice(-20_000);
  });
  return Object.assign(child, { output: () => output });
}

/**
 * Waits for a started server to answer 2xx. The bound only stops a hang: a server's start on a
 * loaded 2-core machine (loading the code, migrating) took over 20 s in CI, so it is generous.
 */
export async function waitForHttp(url: string, timeoutMs = 120_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} did not come up`);
}

export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  child.ref(); // waited for now: keep the test process alive until it has gone
  return new Promise((resolve) => child.once('exit', () => resolve()));
}
