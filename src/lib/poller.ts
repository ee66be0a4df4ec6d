/**
 * Runs `tick` whenever woken and at least every `idleMs`, never two at once. `tick` returns
 * true when it may have left work behind (a full batch), so the loop goes on without waiting.
 * Used by the webhook dispatcher and the e-mail sender: a wake-up right after commit gives
 * millisecond latency, the timer picks up retries and other processes' work.
 */
export interface Poller {
  start(): void;
  wake(): void;
  /** Stops the loop and waits for a running tick to finish. */
  stop(): Promise<void>;
}

export function createPoller(opts: {
  tick: () => Promise<boolean>;
  idleMs: number;
  onError: (error: unknown) => void;
}): Poller {
  let running = false;
  let stopped = true;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
  let current: Promise<void> = Promise.resolve();

  let immediate: NodeJS.Immediate | null = null;
  const schedule = (delay: number) => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = null;
    if (delay === 0) {
      // setTimeout(0) waits at least a millisecond; a wake-up after commit should not.
      immediate ??= setImmediate(() => {
        immediate = null;
        run();
      });
      return;
    }
    timer = setTimeout(run, delay);
    timer.unref(); // the idle timer alone must not keep a process alive
  };

  function run(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    again = false;
    current = (async () => {
      let more = false;
      try {
        more = await opts.tick();
      } catch (error) {
        opts.onError(error);
      } finally {
        running = false;
      }
      schedule(more || again ? 0 : opts.idleMs);
    })();
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      schedule(0);
    },
    wake() {
      if (stopped) return;
      if (running) again = true;
      else schedule(0);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      if (immediate) clearImmediate(immediate);
      timer = null;
      immediate = null;
      await current;
    },
  };
}
