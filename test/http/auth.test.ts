// test-engines: both
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, createTenant, bearer, type TestApp } from '../support/test-app.ts';
import { ISO_MS_UTC, assertProblem, tokenForRole, type Res } from '../support/http-helpers.ts';
import { parseCredential } from '../../src/modules/api-keys/credential.ts';

const CATEGORIES = '/api/v1/public/categories';

function assertUnauthenticated(res: Res, label: string): void {
  assertProblem(res, 401, 'unauthenticated');
  assert.match(String(res.headers['www-authenticate']), /^Bearer\b/, `${label}: WWW-Authenticate`);
}

describe('authentication and authorisation', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => {
    await t.close();
  });

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  test('public API: missing, non-Bearer, malformed, unknown, wrong-secret keys and admin tokens are all 401 with WWW-Authenticate', async () => {
    const demo = await createTenant(t.c);
    const key = demo.locations[0]!.apiKey;
    const parsed = parseCredential('apiKey', key)!;
    const otherSecret = parsed.secret.replace(/^./, (ch) => (ch === 'A' ? 'B' : 'A'));

    const ok = await get(CATEGORIES, bearer(key));
    assert.equal(ok.statusCode, 200, ok.body);
    assert.ok(Array.isArray(ok.json().data) && ok.json().data.length > 0);

    const cases: Array<[string, Record<string, string>]> = [
      ['missing Authorization', {}],
      ['Basic scheme', { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` }],
      ['key without scheme', { authorization: key }],
      ['Bearer with no key', { authorization: 'Bearer ' }],
      ['malformed key', bearer('ptc_not-a-key')],
      ['well-formed unknown key', bearer(`ptc_key_${'a'.repeat(20)}_${'b'.repeat(32)}`)],
      ['known id, wrong secret', bearer(`ptc_${parsed.recordId}_${otherSecret}`)],
      ['admin token', bearer(demo.adminToken)],
    ];
    for (const [label, headers] of cases) {
      assertUnauthenticated(await get(CATEGORIES, headers), label);
      const post = await t.app.inject({ method: 'POST', url: '/api/v1/public/reach-out', headers, payload: {} });
      assertUnauthenticated(post, `${label} (reach-out)`);
    }
  });

  test("a revoked key is refused at once; the other location's key keeps working", async () => {
    const demo = await createTenant(t.c);
    const [first, second] = demo.locations;
    assert.equal((await get(CATEGORIES, bearer(first!.apiKey))).statusCode, 200);

    const list = await get('/api/v1/admin/api-keys', bearer(demo.adminToken));
    const row = list.json().data.find((k: { locationId: string }) => k.locationId === first!.id);
    assert.ok(row, "the first location's key is listed");
    assert.equal(row.revokedAt, null);

    const revoke = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/admin/api-keys/${row.id}`,
      headers: bearer(demo.adminToken),
    });
    assert.equal(revoke.statusCode, 204, revoke.body);
    assertUnauthenticated(await get(CATEGORIES, bearer(first!.apiKey)), 'revoked key');
    assert.equal((await get(CATEGORIES, bearer(second!.apiKey))).statusCode, 200);

    const after = (await get('/api/v1/admin/api-keys', bearer(demo.adminToken)))
      .json()
      .data.find((k: { id: string }) => k.id === row.id);
    assert.match(after.revokedAt, ISO_MS_UTC);
    const again = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/admin/api-keys/${row.id}`,
      headers: bearer(demo.adminToken),
    });
    assertProblem(again, 404, 'not_found');
  });

  test('admin API: no token 401, location key 403, bad token 401; roles decide the rest', async () => {
    const demo = await createTenant(t.c);
    const support = await tokenForRole(t.c, demo, 'support');
    const staff = await tokenForRole(t.c, demo, 'staff');

    const none = await get('/api/v1/admin/inquiries');
    assertUnauthenticated(none, 'no admin token');
    assertProblem(await get('/api/v1/admin/inquiries', bearer(demo.locations[0]!.apiKey)), 403, 'forbidden');
    assertUnauthenticated(
      await get('/api/v1/admin/inquiries', bearer(`pta_atk_${'a'.repeat(20)}_${'b'.repeat(32)}`)),
      'unknown admin token',
    );
    assertUnauthenticated(await get('/api/v1/admin/inquiries', bearer('pta_garbage')), 'malformed admin token');

    assert.equal((await get('/api/v1/admin/inquiries', bearer(demo.adminToken))).statusCode, 200);
    assert.equal((await get('/api/v1/admin/inquiries', bearer(support))).statusCode, 200);
    // Counter staff see and answer web inquiries too (issue 34); what they may not reach follows.
    assert.equal((await get('/api/v1/admin/inquiries', bearer(staff))).statusCode, 200);

    for (const url of [
      '/api/v1/admin/api-keys',
      '/api/v1/admin/catalog-scope',
      '/api/v1/admin/settings',
      '/api/v1/admin/webhooks',
    ]) {
      assert.equal((await get(url, bearer(demo.adminToken))).statusCode, 200, url);
      assertProblem(await get(url, bearer(support)), 403, 'forbidden');
      assertProblem(await get(url, bearer(staff)), 403, 'forbidden');
    }
    const create = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/api-keys',
      headers: bearer(support),
      payload: { locationId: demo.locations[0]!.id, name: 'sneaky' },
    });
    assertProblem(create, 403, 'forbidden');
    const keys = (await get('/api/v1/admin/api-keys', bearer(demo.adminToken))).json().data;
    assert.equal(keys.length, 2, 'the support user created no key');
  });

  test('a new API key is shown once, never listed with its secret, works at once and records its last use', async () => {
    const demo = await createTenant(t.c);
    const location = demo.locations[1]!;
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/api-keys',
      headers: bearer(demo.adminToken),
      payload: { locationId: location.id, name: 'Shop front' },
    });
    assert.equal(created.statusCode, 201, created.body);
    const data = created.json().data;
    assert.deepEqual(Object.keys(data).sort(), [
      'allowedOrigins',
      'createdAt',
      'id',
      'key',
      'kind',
      'lastUsedAt',
      'locationId',
      'mode',
      'name',
      'revokedAt',
    ]);
    assert.match(data.key, /^ptc_key_/);
    assert.deepEqual(
      [data.kind, data.mode, data.allowedOrigins],
      ['secret', 'live', []],
      'the defaults: a live secret key',
    );
    assert.equal(parseCredential('apiKey', data.key)?.recordId, data.id);
    assert.equal(data.locationId, location.id);
    assert.equal(data.lastUsedAt, null);

    const listRes = await get('/api/v1/admin/api-keys', bearer(demo.adminToken));
    assert.equal(listRes.statusCode, 200);
    const list = listRes.json().data as Array<Record<string, unknown>>;
    assert.equal(list.length, 3);
    const hashes = await t.c.database.db
      .selectFrom('api_keys')
      .select('secret_hash')
      .where('company_id', '=', demo.companyId)
      .execute();
    const secrets = [data.key, ...demo.locations.map((l) => l.apiKey)].map((k) => parseCredential('apiKey', k)!.secret);
    for (const needle of [...secrets, ...hashes.map((h) => h.secret_hash)]) {
      assert.ok(!listRes.body.includes(needle), 'the list never holds a secret or its hash');
    }
    for (const item of list) {
      assert.deepEqual(Object.keys(item).sort(), [
        'allowedOrigins',
        'createdAt',
        'id',
        'kind',
        'lastUsedAt',
        'locationId',
        'mode',
        'name',
        'revokedAt',
      ]);
    }
    assert.equal(list.find((k) => k.id === data.id)?.lastUsedAt, null);

    const use = await get(CATEGORIES, bearer(data.key));
    assert.equal(use.statusCode, 200, use.body);
    const reachOut = await t.app.inject({
      method: 'POST',
      url: '/api/v1/public/reach-out',
      headers: bearer(data.key),
      payload: { topic: 't', subject: 's', message: 'm', email: 'a@example.com', phone: '+385 1 234' },
    });
    assert.equal(reachOut.statusCode, 201, reachOut.body);
    const inquiry = await get(`/api/v1/admin/inquiries/${reachOut.json().data.id}`, bearer(demo.adminToken));
    assert.equal(inquiry.json().data.locationId, location.id, 'the new key acts for its own location');

    const afterUse = (await get('/api/v1/admin/api-keys', bearer(demo.adminToken)))
      .json()
      .data.find((k: { id: string }) => k.id === data.id);
    assert.match(afterUse.lastUsedAt, ISO_MS_UTC);
    assert.ok(Date.parse(afterUse.lastUsedAt) >= Date.parse(data.createdAt));
    assert.ok(!JSON.stringify(afterUse).includes(parseCredential('apiKey', data.key)!.secret));
  });

  test("an API key cannot be issued for another company's location", async () => {
    const a = await createTenant(t.c);
    const b = await createTenant(t.c);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/api-keys',
      headers: bearer(b.adminToken),
      payload: { locationId: a.locations[0]!.id, name: 'x' },
    });
    const problem = assertProblem(res, 400, 'validation_failed');
    assert.ok(problem.details.locationId);
    const revoke = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/admin/api-keys/${parseCredential('apiKey', a.locations[0]!.apiKey)!.recordId}`,
      headers: bearer(b.adminToken),
    });
    assertProblem(revoke, 404, 'not_found');
    assert.equal((await get(CATEGORIES, bearer(a.locations[0]!.apiKey))).statusCode, 200, "A's key still works");
  });
});
