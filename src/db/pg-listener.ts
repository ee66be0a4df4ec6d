import type pg from 'pg';
import type { Logger } from '../lib/logger.ts';

export interface PgListener {
  stop(): Promise<void>;
}

/**
 * LISTEN on one channel over a connection of its own, reconnecting when it drops. `onLost` and
 * `onListening` bracket the time notifications may have been missed, so a cache that relies on
 * them can stop trusting itself meanwhile.
 */
export function listenPg(
  pool: pg.Pool,
  channel: string,
  handlers: { onNotify: (payload: string) => void; onListening?: () => void; onLost?: () => void },
  logger: Logger,
): PgListener {
  let client: pg.PoolClient | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | null = null;

  const again = (ms: number) => { if (!stopped) retry = setTimeout(() => void connect(), ms).unref(); };

  async function connect(): Promise<void> {
    try {
      const c = await pool.connect();
      c.on('notification', (message) => { if (message.channel === channel) handlers.onNotify(message.payload ?? ''); });
      c.on('error', () => {
        if (client !== c) return;
        client = null;
        handlers.onLost?.();
        c.release(true);
        again(1_000);
      });
      await c.query(`LISTEN ${channel}`);
      if (stopped) return c.release(true);
      client = c;
      handlers.onListening?.();
    } catch (error) {
      logger.warn({ err: error, channel }, 'LISTEN failed; retrying');
      again(5_000);
    }
  }
  void connect();

  return {
    async stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
      handlers.onLost?.();
      // Destroyed, not returned to the pool: a connection that listened is nobody else's.
      client?.release(true);
      client = null;
    },
  };
}
