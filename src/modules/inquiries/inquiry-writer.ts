import { Worker } from 'node:worker_threads';
import type { InquiryRow } from './inquiries.repository.ts';

export interface InquiryWriterThread {
  /** Commits the batch on the writer thread; resolves with the number of e-mails queued. */
  write(rows: InquiryRow[], withEmail: boolean): Promise<number>;
  /** True once the thread has stopped unexpectedly. */
  failed(): boolean;
  close(): Promise<void>;
}

/**
 * node:sqlite is synchronous: a write on the event loop stops every other request while SQLite
 * inserts and appends to its WAL — most of a contact form's cost. On a writer thread with its
 * own connection, the event loop only hands over a batch and serves other requests meanwhile.
 * If the thread dies, its pending writes fail (the group commit retries them) and callers write
 * on their own thread from then on.
 */
export function startInquiryWriterThread(databaseUrl: string): InquiryWriterThread {
  const pending = new Map<number, { resolve: (n: number) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  let dead: Error | null = null;
  let worker: Worker | null = null;

  const fail = (error: Error) => {
    dead ??= error;
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
  };

  // Started with the first write: CLI commands that never write an inquiry never pay for it.
  function thread(): Worker {
    if (worker) return worker;
    worker = new Worker(new URL('./inquiry-writer.worker.ts', import.meta.url), { workerData: { databaseUrl } });
    worker.on('message', (message: { id: number; queuedEmails?: number; error?: string }) => {
      const waiter = pending.get(message.id);
      pending.delete(message.id);
      if (message.error !== undefined) waiter?.reject(new Error(message.error));
      else waiter?.resolve(message.queuedEmails ?? 0);
    });
    worker.on('error', fail);
    worker.on('exit', () => fail(new Error('the inquiry writer thread stopped')));
    // Not a reason to keep the process alive; close() ends it in order.
    worker.unref();
    return worker;
  }

  return {
    write(rows, withEmail) {
      if (dead) return Promise.reject(dead);
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        thread().postMessage({ id, rows, withEmail });
      });
    },
    failed: () => dead !== null,
    async close() {
      if (!worker || dead) return;
      const exited = new Promise((resolve) => worker!.once('exit', resolve));
      worker.postMessage('close');
      await exited;
    },
  };
}
