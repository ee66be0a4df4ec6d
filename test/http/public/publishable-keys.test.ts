// test-engines: both
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, createTenant, bearer, type TestApp } from '../../support/test-app.ts';
import { assertProblem, reachOut, validReachOut, type Res } from '../../support/http-helpers.ts';
import type { DemoCompany } from '../../../src/modules/demo/demo-company.ts';

const SHOP = 'https://shop.example.com';
const OTHER = 'https://evil.example.com';

async function newKey(t: TestApp, demo: DemoCompany, body: Record<string, unknown>): Promise<Res> {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/admin/api-keys',
    headers: bearer(demo.adminToken),
    payload: { locationId: demo.locations[0]!.id, name: 'Website', ...body },
  });
}

const preflight = (t: TestApp, url: string, origin: string, method = 'POST') =>
  t.app.inject({
    method: 'OPTIONS',
    url,
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers': 'authorization, content-type',
    },
  });

function assertNoCors(res: Res): void {
  for (const header of Object.keys(res.headers))
    assert.ok(!header.startsWith('access-control-'), `${header} must not be sent`);
}

describe('publishable keys and CORS', () => {
  let t: TestApp;
  let demo: DemoCompany;
  let pub: string;
  before(async () => {
    t = await createTestApp();
    demo = await createTenant(t.c);
    const res = await newKey(t, demo, { kind: 'publishable', allowedOrigins: [`${SHOP}/`] });
    assert.equal(res.statusCode, 201, res.body);
    pub = res.json().data.key;
  });
  after(() => t.close());

  test('the admin API issues each kind and mode with its prefix, and lists them with their origins', async () => {
    const prefixes: Array<[Record<string, unknown>, RegExp]> = [
      [{}, /^ptc_key_/],
      [{ mode: 'test' }, /^ptc_test_key_/],
      [{ kind: 'publishable', allowedOrigins: [SHOP] }, /^ptc_pub_key_/],
      [{ kind: 'publishable', mode: 'test', allowedOrigins: ['https://test.example.com'] }, /^ptc_pub_test_key_/],
    ];
    for (const [body, prefix] of prefixes) {
      const res = await newKey(t, demo, body);
      assert.equal(res.statusCode, 201, res.body);
      assert.match(res.json().data.key, prefix);
    }
    assert.match(pub, /^ptc_pub_key_/);
    const list = await t.app.inject({ method: 'GET', url: '/api/v1/admin/api-keys', headers: bearer(demo.adminToken) });
    const mine = list
      .json()
      .data.find((k: { key?: string; kind: string; allowedOrigins: string[] }) => k.allowedOrigins.includes(SHOP));
    assert.equal(mine.kind, 'publishable');
    assert.equal(mine.mode, 'live');
    assert.deepEqual(mine.allowedOrigins, [SHOP], 'stored as the browser sends it (no trailing slash)');
    assert.ok(
      list.json().data.every((k: Record<string, unknown>) => k.key === undefined),
      'never the key itself',
    );
  });

  test('a publishable key needs exact origins; a secret key takes none', async () => {
    for (const [body, message] of [
      [{ kind: 'publishable' }, /at least one/],
      [{ kind: 'publishable', allowedOrigins: ['https://shop.example.com/contact'] }, /no path/],
      [{ kind: 'publishable', allowedOrigins: ['https://*.example.com'] }, /wildcard/],
      [{ allowedOrigins: [SHOP] }, /Only publishable/],
    ] as const) {
      const problem = assertProblem(await newKey(t, demo, body), 400, 'validation_failed');
      assert.match(problem.details.allowedOrigins.join(' '), message);
    }
  });

  test('a publishable key may submit an inquiry and read the catalog; every other public route is a 403', async () => {
    const created = await reachOut(t.app, pub, validReachOut(), { origin: SHOP });
    assert.equal(created.statusCode, 201, created.body);
    assert.equal(created.headers['access-control-allow-origin'], SHOP);
    assert.match(String(created.headers.vary), /Origin/);
    const products = await t.app.inject({
      method: 'GET',
      url: '/api/v1/public/products',
      headers: { ...bearer(pub), origin: SHOP },
    });
    assert.equal(products.statusCode, 200);
    assert.equal(products.headers['access-control-allow-origin'], SHOP);
    assert.equal(
      (await t.app.inject({ method: 'GET', url: '/api/v1/public/categories', headers: bearer(pub) })).statusCode,
      200,
    );

    const quote = await t.app.inject({
      method: 'POST',
      url: '/api/v1/public/quotes',
      headers: { ...bearer(pub), origin: SHOP },
      payload: { format: 'json', customer: { name: 'X' }, lines: [] },
    });
    const problem = assertProblem(quote, 403, 'forbidden');
    assert.match(problem.detail, /publishable key/);
    assertNoCors(quote);
    for (const [method, url] of [
      ['POST', '/api/v1/public/orders'],
      ['GET', '/api/v1/public/quotes/qte_00000000000000000000'],
      ['GET', '/api/v1/public/orders/ord_00000000000000000000'],
    ] as const)
      assertProblem(
        await t.app.inject({ method, url, headers: bearer(pub), payload: method === 'POST' ? {} : undefined }),
        403,
        'forbidden',
      );
    assertProblem(
      await t.app.inject({ method: 'GET', url: '/api/v1/admin/inquiries', headers: bearer(pub) }),
      403,
      'forbidden',
    );
  });

  test('a page on another origin is refused with no CORS headers; the preflight answers only allowed origins', async () => {
    const refused = await reachOut(t.app, pub, validReachOut(), { origin: OTHER });
    assert.match(assertProblem(refused, 403, 'forbidden').detail, /evil\.example\.com/);
    assertNoCors(refused);
    // Caches keep answers apart by Origin: the refusal, and an answer to a caller that sent none.
    assert.match(String(refused.headers.vary), /Origin/);
    const noOrigin = await t.app.inject({ method: 'GET', url: '/api/v1/public/products', headers: bearer(pub) });
    assert.equal(noOrigin.statusCode, 200);
    assert.match(String(noOrigin.headers.vary), /Origin/);

    const allowed = await preflight(t, '/api/v1/public/reach-out', SHOP);
    assert.equal(allowed.statusCode, 204);
    assert.equal(allowed.headers['access-control-allow-origin'], SHOP);
    assert.equal(allowed.headers['access-control-allow-methods'], 'POST');
    assert.match(String(allowed.headers['access-control-allow-headers']), /authorization/);
    assert.match(String(allowed.headers.vary), /Origin/);
    const catalog = await preflight(t, '/api/v1/public/products/prd_x', SHOP, 'GET');
    assert.equal(catalog.headers['access-control-allow-methods'], 'GET');

    const other = await preflight(t, '/api/v1/public/reach-out', OTHER);
    assert.equal(other.statusCode, 204);
    assertNoCors(other);
    assert.equal(
      (await preflight(t, '/api/v1/public/quotes', SHOP)).statusCode,
      404,
      'no preflight where browsers may not go',
    );
    assert.equal((await preflight(t, '/api/v1/public/orders', SHOP)).statusCode, 404);
  });

  test('secret keys never answer CORS, and a prefix must say what the key is', async () => {
    const secret = demo.locations[0]!.apiKey;
    const res = await reachOut(t.app, secret, validReachOut(), { origin: SHOP });
    assert.equal(res.statusCode, 201);
    assertNoCors(res);
    const asSecret = pub.replace(/^ptc_pub_/, 'ptc_');
    assertProblem(await reachOut(t.app, asSecret, validReachOut()), 401, 'unauthenticated');
    assertProblem(await reachOut(t.app, secret.replace(/^ptc_/, 'ptc_test_'), validReachOut()), 401, 'unauthenticated');
  });

  test('http://localhost:* answers any local port only on a key that lists it, and a revoked key answers nothing', async () => {
    const local = 'http://localhost:5173';
    assertNoCors(await preflight(t, '/api/v1/public/reach-out', local));
    const dev = await newKey(t, demo, { kind: 'publishable', allowedOrigins: ['http://localhost:*'] });
    const devKey = dev.json().data.key as string;
    assert.equal((await preflight(t, '/api/v1/public/reach-out', local)).headers['access-control-allow-origin'], local);
    assert.equal((await reachOut(t.app, devKey, validReachOut(), { origin: local })).statusCode, 201);
    assertProblem(
      await reachOut(t.app, devKey, validReachOut(), { origin: 'http://127.0.0.1:5173' }),
      403,
      'forbidden',
    );
    assertProblem(await reachOut(t.app, pub, validReachOut(), { origin: local }), 403, 'forbidden');

    const revoke = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/admin/api-keys/${dev.json().data.id}`,
      headers: bearer(demo.adminToken),
    });
    assert.equal(revoke.statusCode, 204);
    assertNoCors(await preflight(t, '/api/v1/public/reach-out', local));
  });
});
