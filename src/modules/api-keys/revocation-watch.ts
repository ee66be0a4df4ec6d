import type pg from 'pg';
import type { Logger } from '../../lib/logger.ts';
import { listenPg, type PgListener } from '../../db/pg-listener.ts';
import { CREDENTIALS_CHANNEL } from './api-keys.repository.ts';
import { createCredentialCache, type CredentialCache } from './credential-cache.ts';

/**
 * The PostgreSQL key cache with its invalidation: revoked key ids arrive by NOTIFY, and the
 * cache is trusted only while the LISTEN connection is up. Listening starts with the first
 * authentication, so one-shot CLI commands never open the connection.
 */
export function createKeyCacheWithRevocations(pool: pg.Pool, logger: Logger) {
  const keys: CredentialCache = createCredentialCache({ ttlMs: 60_000, maxEntries: 10_000 });
  let listener: PgListener | null = null;
  return {
    keys,
    watchRevocations(): void {
      listener ??= listenPg(pool, CREDENTIALS_CHANNEL, {
        onNotify: (id) => keys.forget(id),
        onListening: () => keys.setTrusted(true),
        onLost: () => keys.setTrusted(false),
      }, logger);
    },
    async stop(): Promise<void> {
      await listener?.stop();
    },
  };
}
