import type { KeyKind, KeyMode } from './credential.ts';

/**
 * Verified API keys, remembered so that a request does not pay a database round trip to
 * authenticate (on PostgreSQL that read costs more Node CPU than the rest of a contact-form
 * request). Only what the database holds is kept — the stored hash, never a presented secret —
 * so each request still proves its secret. Correctness rests on invalidation: a revocation
 * removes the entry here and, through NOTIFY, in every other instance; while that channel is
 * not listening the cache is off, since a revocation could be missed.
 */
export interface CachedKey {
  companyId: string;
  locationId: string;
  apiKeyId: string;
  secretHash: string;
  kind: KeyKind;
  mode: KeyMode;
  allowedOrigins: readonly string[];
}

export interface CredentialCache {
  get(id: string, nowMs: number): CachedKey | undefined;
  /** Changes with every invalidation; read it before reading the key from the database. */
  version(): number;
  /**
   * Keeps a key read from the database, unless an invalidation happened since `seenVersion`
   * (the read may have started before a revocation committed and returned the old row).
   */
  set(id: string, value: CachedKey, nowMs: number, seenVersion: number): void;
  forget(id: string): void;
  /** Turned on once invalidations can arrive; turning it off also empties it. */
  setTrusted(trusted: boolean): void;
}

export function createCredentialCache(options: { ttlMs: number; maxEntries: number }): CredentialCache {
  const entries = new Map<string, { value: CachedKey; expiresAt: number }>();
  let trusted = false;
  let version = 0;
  return {
    get(id, nowMs) {
      if (!trusted) return undefined;
      const entry = entries.get(id);
      if (!entry) return undefined;
      if (entry.expiresAt > nowMs) return entry.value;
      entries.delete(id);
      return undefined;
    },
    version: () => version,
    set(id, value, nowMs, seenVersion) {
      if (!trusted || seenVersion !== version) return;
      // Oldest first out: Map keeps insertion order.
      if (entries.size >= options.maxEntries) entries.delete(entries.keys().next().value!);
      entries.set(id, { value, expiresAt: nowMs + options.ttlMs });
    },
    forget(id) {
      version++;
      entries.delete(id);
    },
    setTrusted(value) {
      version++;
      trusted = value;
      entries.clear();
    },
  };
}
