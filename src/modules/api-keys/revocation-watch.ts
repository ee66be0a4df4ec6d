import fs from 'node:fs';
import type pg from 'pg';
import type { Logger } from '../../lib/logger.ts';
import { listenPg, type PgListener } from '../../db/pg-listener.ts';
import { CREDENTIALS_CHANNEL } from './api-keys.repository.ts';
import { createCredentialCache, type CachedKey, type CredentialCache } from './credential-cache.ts';

/** Verified keys in memory, and how this process learns that another one revoked a key. */
export interface KeyCache {
  get(id: string, nowMs: number): CachedKey | undefined;
  version(): number;
  set(id: string, value: CachedKey, nowMs: number, seenVersion: number): void;
  /** This process revoked the key (committed): evict it here and let the other processes know. */
  revoked(id: string): void;
  stop(): Promise<void>;
}

const TTL_MS = 60_000;
const MAX_KEYS = 10_000;

/**
 * PostgreSQL: revoked key ids arrive by NOTIFY (sent by the revoking statement itself), and the
 * cache is trusted only while the LISTEN connection is up. Listening starts with the first
 * authentication, so one-shot CLI commands never open the connection.
 */
export function createPgKeyCache(pool: pg.Pool, logger: Logger): KeyCache {
  const keys = createCredentialCache({ ttlMs: TTL_MS, maxEntries: MAX_KEYS });
  let listener: PgListener | null = null;
  return {
    get(id, nowMs) {
      listener ??= listenPg(
        pool,
        CREDENTIALS_CHANNEL,
        {
          onNotify: (revokedId) => keys.forget(revokedId),
          onListening: () => keys.setTrusted(true),
          onLost: () => keys.setTrusted(false),
        },
        logger,
      );
      return keys.get(id, nowMs);
    },
    version: () => keys.version(),
    set: (id, value, nowMs, seenVersion) => keys.set(id, value, nowMs, seenVersion),
    revoked: (id) => keys.forget(id),
    stop: async () => {
      await listener?.stop();
    },
  };
}

/**
 * SQLite: processes sharing a database file share its directory, so a revocation appends the
 * key id to a file beside the database, and lookups compare that file's size with the one the
 * cache was built under. The file is stat'ed at most once a millisecond (a stat costs several
 * microseconds on some file systems, more than the rest of the lookup), so a revocation by
 * another process takes effect within a millisecond; on PostgreSQL it takes as long as the
 * NOTIFY needs to arrive. A cached key saves a query per request (and its page reads, which
 * a commit by another process, such as `portico worker`, invalidates). A revocation made with
 * plain SQL, not through Portico, is not seen until the TTL.
 */
export function createSqliteKeyCache(databaseFile: string): KeyCache {
  const file = `${databaseFile}-revocations`;
  fs.closeSync(fs.openSync(file, 'a'));
  const keys: CredentialCache = createCredentialCache({ ttlMs: TTL_MS, maxEntries: MAX_KEYS });
  let seenSize = -1;
  let checkedAt = -1;
  const current = (): number => {
    try {
      return fs.statSync(file).size;
    } catch {
      return -1; // removed: trust nothing until it is back
    }
  };
  return {
    get(id, nowMs) {
      // Wall-clock milliseconds, not the injected clock: a frozen test clock must not freeze this.
      const ms = Date.now();
      if (ms !== checkedAt || seenSize < 0) {
        checkedAt = ms;
        const size = current();
        if (size !== seenSize || size < 0) {
          keys.setTrusted(size >= 0); // empties the cache and bumps its version
          seenSize = size;
        }
      }
      return keys.get(id, nowMs);
    },
    version: () => keys.version(),
    set: (id, value, nowMs, seenVersion) => keys.set(id, value, nowMs, seenVersion),
    revoked(id) {
      keys.forget(id);
      fs.appendFileSync(file, `${id}\n`);
    },
    stop: async () => {},
  };
}
