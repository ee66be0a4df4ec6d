// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCredentialCache } from './credential-cache.ts';

const key = {
  companyId: 'cmp_1',
  locationId: 'loc_1',
  apiKeyId: 'key_1',
  secretHash: 'h',
  kind: 'secret',
  mode: 'live',
  allowedOrigins: [],
} as const;

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

test("SQLite: a key revoked through another process's cache is no longer served from this one after a millisecond", async () => {
  const { createSqliteKeyCache } = await import('./revocation-watch.ts');
  const fs = await import('node:fs');
  const os = await import('node:os');
  const path = await import('node:path');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-keycache-'));
  try {
    const db = path.join(dir, 'portico.sqlite');
    const here = createSqliteKeyCache(db);
    const there = createSqliteKeyCache(db);
    assert.equal(here.get('key_1', 0), undefined);
    here.set('key_1', key, 0, here.version());
    here.set('key_2', { ...key, apiKeyId: 'key_2' }, 0, here.version());
    assert.deepEqual(here.get('key_1', 1), key, 'cached');
    there.revoked('key_1');
    const nextMillisecond = () => new Promise((resolve) => setTimeout(resolve, 2)); // the file is checked once a millisecond
    await nextMillisecond();
    assert.equal(here.get('key_1', 2), undefined, "the other process's revocation is seen within a millisecond");
    assert.equal(here.get('key_2', 2), undefined, 'the whole cache is dropped; other keys are simply read again');
    here.set('key_2', { ...key, apiKeyId: 'key_2' }, 2, here.version());
    assert.equal(here.get('key_2', 3)?.apiKeyId, 'key_2');
    fs.rmSync(`${db}-revocations`);
    await nextMillisecond();
    assert.equal(here.get('key_2', 4), undefined, 'without the file nothing is trusted');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
