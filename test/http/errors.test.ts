// test-engines: both
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, createTenant, bearer, type TestApp } from '../support/test-app.ts';
import { LEAK, assertProblem, validReachOut } from '../support/http-helpers.ts';

const REACH_OUT = '/api/v1/public/reach-out';
const JSON_TYPE = { 'content-type': 'application/json' };

describe('errors, limits, request ids, health and docs', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => {
    await t.close();
  });

  const post = (url: string, token: string, payload: string | Buffer, headers: Record<string, string> = JSON_TYPE) =>
    t.app.inject({ method: 'POST', url, headers: { ...bearer(token), ...headers }, payload });

  test('malformed JSON 400, text/plain 415, over 1 MiB 413 — as problem+json, on both APIs', async () => {
    const demo = await createTenant(t.c);
    const key = demo.locations[0]!.apiKey;

    for (const bad of ['{"topic": "x",', '{topic: 1}', "{'a':1}", '{"a":1}}', 'nul']) {
      assertProblem(await post(REACH_OUT, key, bad), 400, 'malformed_json');
    }
    assertProblem(await post(REACH_OUT, key, ''), 400, 'malformed_json');
    assertProblem(await post('/api/v1/admin/api-keys', demo.adminToken, '{"name":'), 400, 'malformed_json');

    const asText = await post(REACH_OUT, key, JSON.stringify(validReachOut()), { 'content-type': 'text/plain' });
    assertProblem(asText, 415, 'unsupported_media_type');
    assertProblem(
      await post(REACH_OUT, key, 'topic=a&subject=b', { 'content-type': 'application/x-www-form-urlencoded' }),
      415,
      'unsupported_media_type',
    );
    assertProblem(
      await post('/api/v1/admin/api-keys', demo.adminToken, '{}', { 'content-type': 'text/plain' }),
      415,
      'unsupported_media_type',
    );

    const huge = JSON.stringify(validReachOut({ message: 'x'.repeat(Math.round(1.1 * 1024 * 1024)) }));
    assertProblem(await post(REACH_OUT, key, huge), 413, 'payload_too_large');
    const hugeQuote = JSON.stringify({ format: 'json', customer: { name: 'y'.repeat(1_200_000) }, lines: [] });
    assertProblem(await post('/api/v1/public/quotes', key, hugeQuote), 413, 'payload_too_large');

    const inquiries = await t.c.database.db
      .selectFrom('inquiries')
      .select('id')
      .where('company_id', '=', demo.companyId)
      .execute();
    assert.equal(inquiries.length, 0, 'none of these wrote an inquiry');
  });

  test('unknown routes and wrong methods are 404 problems', async () => {
    const demo = await createTenant(t.c);
    for (const [method, url, headers] of [
      ['GET', '/nope', {}],
      ['GET', '/api/v1/public/nope', bearer(demo.locations[0]!.apiKey)],
      ['GET', '/api/v2/public/reach-out', bearer(demo.locations[0]!.apiKey)],
      ['GET', '/api/v1/admin/nope', bearer(demo.adminToken)],
    ] as const) {
      const body = assertProblem(await t.app.inject({ method, url, headers }), 404, 'not_found');
      assert.ok(body.detail.length > 0);
    }
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH'] as const) {
      const res = await t.app.inject({ method, url: REACH_OUT, headers: bearer(demo.locations[0]!.apiKey) });
      assert.ok(res.statusCode === 404 || res.statusCode === 405, `${method} reach-out: ${res.statusCode}`);
      assertProblem(res, res.statusCode);
    }
  });

  test('garbage bodies get a 4xx, never a 5xx, and no stack trace or SQL', async () => {
    const demo = await createTenant(t.c);
    const key = demo.locations[0]!.apiKey;
    const nested = (depth: number) => `{"topic":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const bodies = [
      '[]',
      '[{"topic":"x"}]',
      'null',
      '42',
      '"a string"',
      'true',
      '{}',
      nested(50),
      nested(5_000),
      deepObject(5_000),
      '{"topic":"t","subject":"\\ud800","message":"m","email":"a@b.example","phone":"123"}',
      JSON.stringify(validReachOut({ email: `${'a'.repeat(300)}@example.com`, phone: 'x'.repeat(10_000) })),
      JSON.stringify({ ...validReachOut(), __proto__: { admin: true }, constructor: { prototype: { x: 1 } } }),
      '{"__proto__":{"polluted":true},"topic":"t","subject":"s","message":"m","email":"a@b.example","phone":"123"}',
    ];
    for (const body of bodies) {
      for (const url of [REACH_OUT, '/api/v1/public/quotes', '/api/v1/public/orders']) {
        const res = await post(url, key, body);
        assert.ok(res.statusCode < 500, `${url} ${body.slice(0, 60)} → ${res.statusCode}: ${res.body.slice(0, 300)}`);
        if (res.statusCode >= 400) assertProblem(res, res.statusCode);
        assert.doesNotMatch(res.body, LEAK);
      }
    }
    assert.equal(({} as Record<string, unknown>).polluted, undefined, 'no prototype pollution');
    // Half an emoji (a lone surrogate) is stored as U+FFFD on both databases, in the inquiry and
    // in its notifications, as any text parameter would be.
    const broken = await post(
      REACH_OUT,
      key,
      '{"topic":"t","subject":"a\\ud83db","message":"m","email":"a@b.example","phone":"123"}',
    );
    assert.equal(broken.statusCode, 201, broken.body);
    const brokenId = (broken.json() as { data: { id: string } }).data.id;
    assert.equal((await t.c.inquiries.get(demo.companyId, brokenId)).subject, 'a\uFFFDb');
    const titles = await t.c.database.db
      .selectFrom('notifications')
      .select('title')
      .where('company_id', '=', demo.companyId)
      .where('subject_id', '=', brokenId)
      .execute();
    assert.deepEqual(
      titles.map((n) => n.title),
      ['New inquiry: a\uFFFDb', 'New inquiry: a\uFFFDb'],
    );
    for (const url of [
      '/api/v1/public/products/%27%20or%201=1--',
      '/api/v1/public/quotes/%27;drop%20table%20quotations;--',
      '/api/v1/public/products?limit=abc',
      '/api/v1/public/products?cursor=%7B%7D',
      '/api/v1/public/products?limit=1000',
    ]) {
      const res = await t.app.inject({ method: 'GET', url, headers: bearer(key) });
      assert.ok(res.statusCode === 400 || res.statusCode === 404, `${url} → ${res.statusCode}: ${res.body}`);
      assertProblem(res, res.statusCode);
    }
  });

  // PostgreSQL cannot take NUL in text: bodies, query strings, path parameters and cursors are
  // all refused before SQL (src/http/no-nul.ts, src/lib/cursor.ts).
  test('a NUL character anywhere in a request is never a 500', async () => {
    const demo = await createTenant(t.c);
    const key = demo.locations[0]!.apiKey;
    const product = demo.products[0]!;
    const reach = await post(
      REACH_OUT,
      key,
      '{"topic":"a\\u0000b","subject":"s","message":"m","email":"a@b.example","phone":"123"}',
    );
    assert.deepEqual(Object.keys(assertProblem(reach, 400, 'validation_failed').details), ['topic']);
    const quote = await post(
      '/api/v1/public/quotes',
      key,
      JSON.stringify({
        format: 'json',
        customer: { name: 'X\u0000' },
        lines: [{ productId: product.id, unitId: product.units[0]!.id, quantity: 1 }],
      }),
    );
    assertProblem(quote, 400, 'validation_failed');

    const cursor = Buffer.from(JSON.stringify(['2026-01-01T00:00:00.000Z\u0000', 'x\u0000'])).toString('base64url');
    const failures: string[] = [];
    for (const [method, url, token] of [
      ['GET', '/api/v1/public/products/prd_%00', key],
      ['GET', '/api/v1/public/quotes/%00', key],
      ['GET', '/api/v1/public/products?q=a%00', key],
      ['GET', '/api/v1/public/products?categoryId=%00', key],
      ['GET', `/api/v1/public/products?cursor=${cursor}`, key],
      ['GET', '/api/v1/admin/inquiries/inq_%00', demo.adminToken],
      ['GET', `/api/v1/admin/inquiries?cursor=${cursor}`, demo.adminToken],
      ['DELETE', '/api/v1/admin/api-keys/%00', demo.adminToken],
      ['POST', '/api/v1/admin/notifications/%00/read', demo.adminToken],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: bearer(token) });
      // An id with a NUL cannot exist (404, or 400); a search or cursor with one may also match nothing (200).
      const allowed = url.includes('?') ? [200, 400] : [400, 404];
      if (!allowed.includes(res.statusCode)) failures.push(`${method} ${url.slice(0, 50)} → ${res.statusCode}`);
      else if (res.statusCode !== 200) assertProblem(res, res.statusCode);
    }
    assert.deepEqual(failures, []);
  });

  test('X-Request-Id: a sane caller id is echoed, otherwise one is generated', async () => {
    const demo = await createTenant(t.c);
    const given = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'shop-42.abc:7' } });
    assert.equal(given.headers['x-request-id'], 'shop-42.abc:7');
    const problem = assertProblem(
      await t.app.inject({ method: 'GET', url: '/api/v1/public/categories', headers: { 'x-request-id': 'trace-1' } }),
      401,
    );
    assert.equal(problem.requestId, 'trace-1');

    const seen = new Set<string>();
    for (const insane of [undefined, 'has spaces in it', 'x'.repeat(200), '<script>', 'a\u00e9b']) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/v1/public/categories',
        headers: { ...bearer(demo.locations[0]!.apiKey), ...(insane === undefined ? {} : { 'x-request-id': insane }) },
      });
      assert.equal(res.statusCode, 200);
      const id = String(res.headers['x-request-id']);
      assert.ok(id.length >= 8 && id !== insane, `generated id for ${insane}`);
      assert.match(id, /^[\w.:-]{1,128}$/);
      seen.add(id);
    }
    assert.equal(seen.size, 5, 'every generated id is new');
  });

  test('health probes answer 200', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/healthz' });
    assert.equal(health.statusCode, 200);
    assert.deepEqual(health.json(), { status: 'ok' });
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(ready.statusCode, 200);
    assert.equal(ready.json().status, 'ready');
  });

  test('OpenAPI 3.1 document and the docs UI', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/public/openapi.json' });
    assert.equal(res.statusCode, 200, res.body.slice(0, 300));
    assert.match(String(res.headers['content-type']), /json/);
    const doc = res.json();
    assert.match(doc.openapi, /^3\.1/);
    assert.equal(typeof doc.info?.title, 'string');
    assert.ok(doc.paths['/api/v1/public/reach-out']?.post, 'reach-out is documented');
    assert.ok(doc.paths['/api/v1/public/quotes']?.post, 'quotes are documented');
    const reachOut = doc.paths['/api/v1/public/reach-out'].post;
    assert.ok(reachOut.responses['201'] && reachOut.responses['400'] && reachOut.responses['401']);
    const bodySchema = reachOut.requestBody?.content?.['application/json']?.schema;
    assert.deepEqual([...bodySchema.required].sort(), ['email', 'message', 'phone', 'subject', 'topic']);
    assert.equal(bodySchema.properties.topic.maxLength, 200);
    assert.ok(doc.components?.securitySchemes?.apiKey);

    let docs = await t.app.inject({ method: 'GET', url: '/docs' });
    for (let hops = 0; docs.statusCode >= 300 && docs.statusCode < 400 && hops < 3; hops++) {
      const location = String(docs.headers.location);
      docs = await t.app.inject({ method: 'GET', url: new URL(location, 'http://localhost/docs').pathname });
    }
    assert.equal(docs.statusCode, 200);
    assert.match(String(docs.headers['content-type']), /^text\/html/);
    assert.match(docs.body, /<html/i);
  });
});
