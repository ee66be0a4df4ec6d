import { Worker } from 'node:worker_threads';
import type { Logger } from '../lib/logger.ts';

export interface Checkpointer {
  stop(): Promise<void>;
}

/** How often the thread checkpoints while the WAL is being written. */
const CHECKPOINT_INTERVAL_MS = 20;

/**
 * WAL checkpoints on a thread of their own. A checkpoint copies the WAL's pages back into the
 * database file and fsyncs both files. Left to SQLite, it runs inside whichever commit takes
 * the WAL past 1000 pages, so the event loop waits for two fsyncs: milliseconds each on a
 * virtualised disk, about 8 µs per contact form under load (measured; see bench/README.md).
 * This thread checkpoints (PASSIVE: never blocking readers or the writer) every 20 ms while
 * the WAL is being written (a few hundred pages at a time under load), so the committing
 * connection's own automatic checkpoint finds almost nothing left to copy. That one is still
 * needed, and still runs: only a checkpoint with no commit in between completes the WAL, which
 * lets the next writer start it over instead of growing it. Correctness never depends on this
 * thread; if it stops, SQLite checkpoints on commit as before.
 */
export function startSqliteCheckpointer(file: string, logger: Logger): Checkpointer {
  const worker = new Worker(new URL('./sqlite-checkpointer.worker.ts', import.meta.url), {
    workerData: { file, intervalMs: CHECKPOINT_INTERVAL_MS },
  });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.on('error', (error) =>
    logger.warn({ err: error }, 'background WAL checkpoints stopped; SQLite checkpoints on commit instead'),
  );
  worker.unref(); // never what keeps a process alive
  return {
    async stop() {
      worker.ref(); // wait for it: an unref'd thread would let the process exit mid-shutdown
      worker.postMessage('stop');
      await exited;
    },
  };
}
