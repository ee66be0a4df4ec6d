import { Worker } from 'node:worker_threads';
import type { Logger } from '../../lib/logger.ts';
import type { InquiryRow } from './inquiries.repository.ts';

export interface InquiryWriterThread {
  /** Commits the batch on the writer thread; resolves with the number of e-mails queued. */
  write(rows: InquiryRow[], withEmail: boolean): Promise<number>;
  /** True once the thread has stopped unexpectedly. */
  failed(): boolean;
  /** Starts the thread now (it loads its modules in ~¼ s) instead of with the first write. */
  warmUp(): void;
  close(): Promise<void>;
}

/**
 * node:sqlite is synchronous: a write on the event loop stops every other request while SQLite
 * inserts and appends to its WAL — most of a contact form's cost. On a writer thread with its
 * own connection, the event loop only hands over a batch and serves other requests meanwhile.
 * If the thread dies, its pending writes fail (the group commit retries them) and callers write
 * on their own thread from then on.
 */
export function startInquiryWriterThread(databaseUrl: string, logger: Logger): InquiryWriterThread {
  const pending = new Map<number, { resolve: (n: number) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  let dead: Error | null = null;
  let worker: Worker | null = null;
  let closing = false;

  const fail = (error: Error) => {
    if (!dead && !closing) logger.error({ err: error }, 'inquiry writer thread stopped; writing inquiries on the main thread from now on');
    dead ??= error;
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
    worker?.unref();
  };
  // The thread keeps the process alive only while it has work: a write or close in progress.
  const busy = () => { if (pending.size > 0 || closing) worker?.ref(); else worker?.unref(); };

  // Started with the first write: CLI commands that never write an inquiry never pay for it.
  function thread(): Worker {
    if (worker) return worker;
    worker = new Worker(new URL('./inquiry-writer.worker.ts', import.meta.url), { workerData: { databaseUrl } });
    worker.on('message', (message: { id: number; queuedEmails?: number; error?: string }) => {
      const waiter = pending.get(message.id);
      pending.delete(message.id);
      if (message.error !== undefined) waiter?.reject(new Error(message.error));
      else waiter?.resolve(message.queuedEmails ?? 0);
      busy();
    });
    worker.on('error', fail);
    worker.on('exit', () => fail(new Error('the inquiry writer thread stopped')));
    worker.unref(); // idle until given work
    return worker;
  }

  return {
    write(rows, withEmail) {
      if (dead) return Promise.reject(dead);
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        thread().postMessage({ id, rows, withEmail });
        busy();
      });
    },
    failed: () => dead !== null,
    warmUp: () => void thread(),
    async close() {
      if (!worker || dead) return;
      closing = true;
      busy();
      const exited = new Promise((resolve) => worker!.once('exit', resolve));
      worker.postMessage('close');
      await exited;
    },
  };
}
