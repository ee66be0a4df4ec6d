/**
 * Group commit: work submitted in the same turn of the event loop (and while earlier batches are
 * still committing) is written by one `flush`, so N concurrent requests pay for one transaction
 * and one durable commit instead of N. Each caller still gets its own outcome: when a batch
 * fails, its items are flushed again one by one, so one bad item fails alone and the others
 * commit. A caller's promise settles only after its item's batch committed (or failed).
 */
export interface GroupCommit<T, R> {
  submit(item: T): Promise<R>;
  /** Resolves when nothing is queued or being flushed. */
  drain(): Promise<void>;
}

interface Pending<T, R> {
  item: T;
  resolve: (value: R) => void;
  reject: (reason: unknown) => void;
}

export function createGroupCommit<T, R>(
  flush: (items: T[]) => Promise<R[]>,
  options: { maxBatch: number; maxInFlight: number },
): GroupCommit<T, R> {
  let queue: Pending<T, R>[] = [];
  let inFlight = 0;
  let scheduled = false;
  const idle: Array<() => void> = [];

  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    // setImmediate, not a microtask: it runs after the poll phase, so every request read from
    // the sockets in this turn has been parsed and has queued its item.
    setImmediate(run);
  }

  function run(): void {
    scheduled = false;
    while (queue.length > 0 && inFlight < options.maxInFlight) {
      const batch = queue.length <= options.maxBatch ? queue : queue.slice(0, options.maxBatch);
      queue = batch === queue ? [] : queue.slice(options.maxBatch);
      inFlight++;
      void write(batch).finally(() => {
        inFlight--;
        if (queue.length > 0) schedule();
        else if (inFlight === 0) for (const done of idle.splice(0)) done();
      });
    }
  }

  async function write(batch: Pending<T, R>[]): Promise<void> {
    try {
      const results = await flush(batch.map((p) => p.item));
      batch.forEach((p, i) => {
        p.resolve(results[i]!);
      });
    } catch (error) {
      if (batch.length === 1) return batch[0]!.reject(error);
      for (const p of batch) await write([p]);
    }
  }

  return {
    submit(item) {
      return new Promise<R>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        schedule();
      });
    },
    drain() {
      if (queue.length === 0 && inFlight === 0) return Promise.resolve();
      return new Promise((resolve) => idle.push(resolve));
    },
  };
}
