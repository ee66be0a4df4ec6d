// test-engines: postgres
// (On SQLite, instances learn of a revocation from a file beside the database instead.)
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, createTenant, bearer, type TestApp } from '../support/test-app.ts';
import { loadConfig } from '../../src/config/config.ts';
import { createContainer } from '../../src/container.ts';
import { parseCredential } from '../../src/modules/api-keys/credential.ts';

const CATEGORIES = '/api/v1/public/categories';

describe('API keys revoked on another instance (PostgreSQL NOTIFY)', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => {
    await t.close();
  });

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  test('PostgreSQL caches verified keys; a key revoked by another instance is refused here as soon as its NOTIFY arrives', async () => {
    const demo = await createTenant(t.c);
    const key = demo.locations[0]!.apiKey;
    const { recordId } = parseCredential('apiKey', key)!;
    const other = await createContainer(
      loadConfig({ DATABASE_URL: t.c.config.databaseUrl, DATA_DIR: t.dir, LOG_LEVEL: 'silent' }),
      { migrate: false },
    );
    try {
      // The first request starts listening for revocations; once listening, keys are cached.
      assert.equal((await get(CATEGORIES, bearer(key))).statusCode, 200);
      const cached = async () => {
        await t.c.database.db
          .updateTable('api_keys')
          .set({ revoked_at: '2026-01-01T00:00:00.000Z' })
          .where('id', '=', recordId)
          .execute();
        const served = (await get(CATEGORIES, bearer(key))).statusCode === 200;
        await t.c.database.db.updateTable('api_keys').set({ revoked_at: null }).where('id', '=', recordId).execute();
        return served;
      };
      const deadline = Date.now() + 5_000;
      while (!(await cached())) {
        assert.ok(Date.now() < deadline, 'the key gets cached once the instance listens');
        await get(CATEGORIES, bearer(key));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // Cached here, revoked there: only the NOTIFY can tell this instance.
      await other.apiKeys.revokeApiKey(demo.companyId, recordId);
      const until = Date.now() + 2_000;
      let status = 200;
      while (status === 200 && Date.now() < until) {
        status = (await get(CATEGORIES, bearer(key))).statusCode;
        if (status === 200) await new Promise((resolve) => setTimeout(resolve, 5));
      }
      assert.equal(status, 401, 'refused within moments of the revocation elsewhere');
      assert.equal((await get(CATEGORIES, bearer(demo.locations[1]!.apiKey))).statusCode, 200, 'other keys still work');
    } finally {
      await other.close();
    }
  });
});
