/**
 * Document prints on worker threads (piscina), so that a print (milliseconds for a small
 * quotation, seconds with large datasheets) never holds the event loop, and with bounds:
 *
 * - at most `threads` prints run at once, and a datasheet is read only when its print starts,
 *   so memory is bounded by the running prints, not by the callers waiting;
 * - at most `threads + queueMax` places exist (waiting, printing, or holding a PDF not yet sent);
 *   past that a place is refused with `unavailable` (503) and a Retry-After estimated from the
 *   recent print times;
 * - a place is reserved (`reserve()`) before the caller commits anything, so a refusal never
 *   follows a stored quotation whose caller was told it failed;
 * - print threads run at a lower CPU priority than the API (nice), so health checks and other
 *   routes stay fast while every core prints; each thread's heap is capped.
 */
import { performance } from 'node:perf_hooks';
import { Piscina } from 'piscina';
import { AppError } from '../../lib/errors.ts';
import { said } from '../i18n/index.ts';
import { ownedBytes } from './owned-bytes.ts';
import type { PrintDocument } from './print-document.ts';
import type { PrintedDocument, PrintJob } from './print-job.ts';

export interface PrintPoolOptions {
  /** Prints running at once, one per worker thread. */
  threads: number;
  /** Prints that may wait for a thread. */
  queueMax: number;
}

/** A datasheet to append, read only once its print has a thread (null: skip it). */
export interface DatasheetSource {
  name: string;
  read(): Promise<Uint8Array | null>;
}

export interface PrintRequest {
  document: PrintDocument;
  datasheets: readonly DatasheetSource[];
}

/**
 * A reserved place in the pool: prints once. The place is held until released, so that it
 * also covers the finished PDF until it has been sent: memory stays bounded by the places.
 */
export interface PrintSlot {
  print(request: PrintRequest): Promise<PrintedDocument>;
  /** Gives the place back: at once, or when a running print ends (safe to call in any state, more than once). */
  release(): void;
}

export interface PrintPool {
  /** Starts the threads now (fonts are parsed at start); otherwise the first print starts them. */
  start(): void;
  /** A place for one print; throws `unavailable` (with retryAfterSeconds) when the queue is full. */
  reserve(): PrintSlot;
  /** Places taken (waiting, printing or holding a PDF not yet sent), prints running and waiting: for /metrics. */
  stats(): { admitted: number; running: number; waiting: number };
  /** Waits for running prints, then stops the threads. */
  close(): Promise<void>;
}

const WORKER = new URL('./print-worker.ts', import.meta.url).href;
/** Linux nice increment of the print threads (the event loop stays at 0). */
const PRINT_THREAD_NICE = 10;
/**
 * Heap cap of one print thread: a 500-line quotation needs a few dozen MiB; datasheet bytes live
 * outside the heap (pdf-lib keeps their streams as views of the input). A thread past it ends,
 * its print fails, and piscina starts a new thread.
 */
const PRINT_THREAD_HEAP_MB = 512;
/**
 * Young generation of one print thread. Left to V8, a thread printing back to back (a month
 * archive) grew it from 32 to 128 MiB, each thread, for garbage that dies within one print; at
 * 32 MiB the archive's print thread stayed at ~95 MiB of heap over 10 000 invoices, against ~190
 * (issue 37, item 10), at no measurable cost per print.
 */
const PRINT_THREAD_YOUNG_MB = 32;
const RETRY_AFTER_MAX_SECONDS = 60;

const shuttingDown = () => new AppError('unavailable', said('error.print.shuttingDown'), undefined, 1);

export function createPrintPool(options: PrintPoolOptions): PrintPool {
  let piscina: Piscina | null = null;
  let closing = false;
  /** Reserved, waiting and running prints. */
  let admitted = 0;
  let running = 0;
  const waiting: Array<() => void> = [];
  // Running mean of recent print times, for Retry-After; a small quotation takes a few ms.
  let meanMs = 100;

  /** Started by a server: every thread at once. On first use (tests, one-off commands): as needed. */
  function threads(all = false): Piscina {
    if (closing) throw shuttingDown();
    piscina ??= new Piscina({
      filename: WORKER,
      minThreads: all ? options.threads : 1,
      maxThreads: options.threads,
      idleTimeout: Number.MAX_SAFE_INTEGER,
      concurrentTasksPerWorker: 1,
      niceIncrement: PRINT_THREAD_NICE,
      resourceLimits: { maxOldGenerationSizeMb: PRINT_THREAD_HEAP_MB, maxYoungGenerationSizeMb: PRINT_THREAD_YOUNG_MB },
    });
    return piscina;
  }

  async function turn(): Promise<void> {
    if (running < options.threads) {
      running++;
      return;
    }
    await new Promise<void>((resolve) => waiting.push(resolve));
  }

  function nextTurn(): void {
    const next = waiting.shift();
    if (next)
      next(); // the thread passes straight to the next print
    else running--;
  }

  function retryAfterSeconds(): number {
    const seconds = Math.ceil(((admitted / options.threads) * meanMs) / 1000);
    return Math.min(RETRY_AFTER_MAX_SECONDS, Math.max(1, seconds));
  }

  async function run(request: PrintRequest): Promise<PrintedDocument> {
    await turn();
    try {
      const datasheets: PrintJob['datasheets'] = [];
      for (const source of request.datasheets) {
        const bytes = await source.read();
        if (bytes) datasheets.push({ name: source.name, bytes: ownedBytes(bytes) });
      }
      const started = performance.now();
      const printed = (await threads().run({ document: request.document, datasheets } satisfies PrintJob, {
        transferList: datasheets.map((sheet) => sheet.bytes.buffer as ArrayBuffer),
      })) as PrintedDocument;
      meanMs = meanMs * 0.8 + (performance.now() - started) * 0.2;
      return printed;
    } finally {
      nextTurn();
    }
  }

  return {
    start() {
      threads(true);
    },

    reserve() {
      if (closing) throw shuttingDown();
      if (admitted >= options.threads + options.queueMax) {
        throw new AppError('unavailable', said('error.print.busy'), undefined, retryAfterSeconds());
      }
      admitted++;
      let state: 'reserved' | 'printing' | 'printed' | 'done' = 'reserved';
      let releaseWhenPrinted = false;
      const giveBack = () => {
        state = 'done';
        admitted--;
      };
      return {
        async print(request) {
          if (state !== 'reserved') throw new Error('a print slot prints once');
          state = 'printing';
          try {
            return await run(request);
          } finally {
            if (releaseWhenPrinted) giveBack();
            else state = 'printed';
          }
        },
        release() {
          if (state === 'printing') releaseWhenPrinted = true;
          else if (state !== 'done') giveBack();
        },
      };
    },

    stats() {
      return { admitted, running, waiting: waiting.length };
    },

    async close() {
      closing = true;
      await piscina?.close();
      piscina = null;
    },
  };
}
