import type pg from 'pg';

export interface PgListener {
  stop(): Promise<void>;
}

// A half-open TCP connection raises no error, and its notifications just stop: a ping that
// does not answer in time counts as a lost connection.
const PING_EVERY_MS = 15_000;
const PING_TIMEOUT_MS = 5_000;

/**
 * LISTEN on one channel over a connection of its own, reconnecting when it drops. `onLost` and
 * `onListening` bracket the time notifications may have been missed, so a cache that relies on
 * them can stop trusting itself meanwhile.
 */
export function listenPg(
  pool: pg.Pool,
  channel: string,
  handlers: { onNotify: (payload: string) => void; onListening?: () => void; onLost?: () => void },
  logger: { warn(details: object, message: string): void },
): PgListener {
  let client: pg.PoolClient | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | null = null;
  let ping: NodeJS.Timeout | null = null;

  const again = (ms: number) => {
    if (!stopped) retry = setTimeout(() => void connect(), ms).unref();
  };

  function lose(c: pg.PoolClient, why: unknown): void {
    if (client !== c) return;
    client = null;
    if (ping) clearInterval(ping);
    handlers.onLost?.();
    logger.warn({ err: why, channel }, 'LISTEN connection lost; reconnecting');
    // Destroyed, not returned to the pool: a connection that listened is nobody else's.
    c.release(true);
    again(1_000);
  }

  async function connect(): Promise<void> {
    let c: pg.PoolClient | null = null;
    try {
      c = await pool.connect();
      const mine = c;
      mine.on('notification', (message) => {
        if (message.channel === channel) handlers.onNotify(message.payload ?? '');
      });
      mine.on('error', (error) => lose(mine, error));
      await mine.query(`LISTEN ${channel}`);
      if (stopped) return mine.release(true);
      client = mine;
      handlers.onListening?.();
      ping = setInterval(() => {
        const timer = setTimeout(() => lose(mine, new Error('ping timed out')), PING_TIMEOUT_MS);
        mine.query('select 1').then(
          () => clearTimeout(timer),
          (error: unknown) => {
            clearTimeout(timer);
            lose(mine, error);
          },
        );
      }, PING_EVERY_MS).unref();
    } catch (error) {
      if (c && client !== c) c.release(true);
      logger.warn({ err: error, channel }, 'LISTEN failed; retrying');
      again(5_000);
    }
  }
  void connect();

  return {
    async stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
      if (ping) clearInterval(ping);
      handlers.onLost?.();
      client?.release(true);
      client = null;
    },
  };
}
