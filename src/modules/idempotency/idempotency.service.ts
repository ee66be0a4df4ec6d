import { createHash } from 'node:crypto';
import { said } from '../i18n/index.ts';
import { AppError } from '../../lib/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Store } from '../../db/store.ts';
import type { IdempotencyRepository } from './idempotency.repository.ts';

const RETENTION_MS = 24 * 3_600_000;
// A request that crashed mid-way leaves its key "in flight"; after this the key is free again.
const LEASE_MS = 60_000;

/**
 * `new`: the caller holds the key; `claim` identifies this holding (its lease end), so that a
 * request whose lease ran out and was taken over cannot complete or release the new holder's key.
 */
export type IdempotencyOutcome =
  | { kind: 'new'; claim: string }
  | { kind: 'replay'; resourceId: string; status: number };

/**
 * Fingerprint of what was asked: the same key with another body is a client bug (422). Keys are
 * sorted first, so a client that serialises the same object in another order is not refused.
 */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${path}\n${canonicalJson(body ?? null)}`)
    .digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * Stripe-style Idempotency-Key: `begin` claims the key, `createUnderKey` has the creating unit
 * of work complete it so the record and its key commit together, a failure `release`s the key.
 * A replay answers with the stored resource, rendered again.
 */
export function createIdempotencyService(deps: { store: Store<{ idempotency: IdempotencyRepository }>; clock: Clock }) {
  const { store, clock } = deps;

  return {
    async begin(companyId: string, key: string, fingerprint: string): Promise<IdempotencyOutcome> {
      for (let round = 0; round < 3; round++) {
        const now = clock.now();
        const fresh = {
          request_hash: fingerprint,
          state: 'in_flight',
          locked_until: new Date(now.getTime() + LEASE_MS).toISOString(),
          response_status: null,
          response_body: null,
          resource_id: null,
          created_at: now.toISOString(),
          expires_at: new Date(now.getTime() + RETENTION_MS).toISOString(),
        };
        if (await store.repos.idempotency.tryInsert({ company_id: companyId, key, ...fresh }))
          return { kind: 'new', claim: fresh.locked_until };
        const existing = await store.repos.idempotency.find(companyId, key);
        if (!existing) continue; // released between our insert and read: try again
        const expired = existing.expires_at <= now.toISOString();
        if (!expired && existing.request_hash !== fingerprint) {
          throw new AppError('idempotency_key_reused', said('error.idempotency.reused'));
        }
        if (!expired && existing.state === 'done' && existing.resource_id) {
          return { kind: 'replay', resourceId: existing.resource_id, status: existing.response_status ?? 201 };
        }
        const abandoned = existing.state === 'in_flight' && existing.locked_until <= now.toISOString();
        if (!expired && !abandoned) {
          throw new AppError('idempotency_key_in_use', said('error.idempotency.inProgress'));
        }
        if (await store.repos.idempotency.takeOver(companyId, key, existing.locked_until, fresh))
          return { kind: 'new', claim: fresh.locked_until };
      }
      throw new AppError('idempotency_key_in_use', said('error.idempotency.inProgress'));
    },

    /**
     * Runs `create` as the holder of the key: whichever unit of work creates the resource also
     * completes the key with that resource's id, so the two commit together or not at all. If our
     * lease ran out and another request took the key over, completing throws, rolling the
     * creation back: that request creates the resource, and a retry of ours gets its result.
     */
    async createUnderKey<T>(companyId: string, key: string, claim: string, create: () => Promise<T>): Promise<T> {
      let completed = false;
      const created = await store.withCommitHook(async (repos, resourceId) => {
        if (!(await repos.idempotency.complete(companyId, key, claim, resourceId, 201))) {
          throw new AppError('idempotency_key_in_use', said('error.idempotency.tookOver'));
        }
        completed = true;
      }, create);
      // A create whose unit of work does not say what it `creates` would leave the key in flight,
      // and a retry after the lease would create the resource twice: fail loudly instead.
      if (!completed)
        throw new Error(
          'The create committed without completing its Idempotency-Key: its unit of work names nothing it creates.',
        );
      return created;
    },

    async release(companyId: string, key: string, claim: string): Promise<void> {
      await store.repos.idempotency.release(companyId, key, claim);
    },

    async purgeExpired(): Promise<void> {
      await store.repos.idempotency.deleteExpired(clock.now().toISOString());
    },
  };
}
export type IdempotencyService = ReturnType<typeof createIdempotencyService>;
