import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCredentialCache } from './credential-cache.ts';

const key = { companyId: 'cmp_1', locationId: 'loc_1', apiKeyId: 'key_1', secretHash: 'h' };

test('nothing is cached until invalidations can arrive, and losing them empties the cache', () => {
  const cache = createCredentialCache({ ttlMs: 1_000, maxEntries: 10 });
  cache.set('key_1', key, 0, cache.version());
  assert.equal(cache.get('key_1', 0), undefined, 'untrusted: not kept');
  cache.setTrusted(true);
  cache.set('key_1', key, 0, cache.version());
  assert.deepEqual(cache.get('key_1', 999), key);
  assert.equal(cache.get('key_1', 1_000), undefined, 'expired');
  cache.set('key_1', key, 0, cache.version());
  cache.setTrusted(false);
  assert.equal(cache.get('key_1', 0), undefined);
});

test('a read that overlapped a revocation is not cached', () => {
  const cache = createCredentialCache({ ttlMs: 60_000, maxEntries: 10 });
  cache.setTrusted(true);
  const seen = cache.version(); // the database read starts
  cache.forget('key_1'); // the revocation's NOTIFY arrives meanwhile
  cache.set('key_1', key, 0, seen); // the read returns the row from before the revocation
  assert.equal(cache.get('key_1', 0), undefined);
  const seenAfterReconnect = cache.version();
  cache.setTrusted(false);
  cache.setTrusted(true);
  cache.set('key_1', key, 0, seenAfterReconnect);
  assert.equal(cache.get('key_1', 0), undefined, 'a reconnect in between counts too');
});

test('the oldest entry makes room when full', () => {
  const cache = createCredentialCache({ ttlMs: 60_000, maxEntries: 2 });
  cache.setTrusted(true);
  for (const id of ['a', 'b', 'c']) cache.set(id, { ...key, apiKeyId: id }, 0, cache.version());
  assert.equal(cache.get('a', 0), undefined);
  assert.equal(cache.get('c', 0)?.apiKeyId, 'c');
});
