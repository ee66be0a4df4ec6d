// test-engines: sqlite
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { bearer, createTenant, createTestApp, type TestApp } from '../support/test-app.ts';
import type { DemoCompany } from '../../src/modules/demo/demo-company.ts';
import { validReachOut } from '../support/http-helpers.ts';

const TOKEN = 'm'.repeat(40);

/** The value of the one sample of `name` carrying every label given (in any order), or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}

describe('/metrics', () => {
  let t: TestApp;
  let d: DemoCompany;
  before(async () => {
    t = await createTestApp({ METRICS_TOKEN: TOKEN });
    d = await createTenant(t.c);
  });
  after(() => t.close());

  const metrics = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer(TOKEN) });
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    return res.body;
  };

  test('only with the token', async () => {
    assert.equal((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode, 401);
    const wrong = await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer(`${TOKEN}x`) });
    assert.equal(wrong.statusCode, 401);
    assert.equal(wrong.headers['www-authenticate'], 'Bearer realm="metrics"');
    const off = await createTestApp();
    try {
      assert.equal((await off.app.inject({ method: 'GET', url: '/metrics' })).statusCode, 404, 'off unless configured');
    } finally {
      await off.close();
    }
  });

  test('after known traffic: requests by route and status, latency, the webhook queue per endpoint, print and outbox', async () => {
    const key = d.locations[0]!.apiKey;
    // Nothing sends in this app (no workers): every quote's delivery stays queued on this endpoint.
    const endpoint = await t.c.endpoints.create(d.companyId, {
      kind: 'http',
      url: 'http://127.0.0.1:9/metrics-test',
      events: ['quote.created'],
    });
    const product = d.products[0]!;
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/public/quotes',
        headers: { ...bearer(key), 'content-type': 'application/json' },
        payload: {
          format: 'json',
          customer: { name: 'Metrics' },
          lines: [{ productId: product.id, unitId: product.units[0]!.id, quantity: 1 }],
        },
      });
      assert.equal(res.statusCode, 201, res.body);
    }
    for (let i = 0; i < 2; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/public/reach-out',
        headers: { ...bearer(key), 'content-type': 'application/json' },
        payload: validReachOut(),
      });
      assert.equal(res.statusCode, 201, res.body);
    }
    for (const id of ['prd_nope1', 'prd_nope2', 'prd_nope3', 'prd_nope4'])
      assert.equal(
        (await t.app.inject({ method: 'GET', url: `/api/v1/public/products/${id}`, headers: bearer(key) })).statusCode,
        404,
      );
    await t.app.inject({ method: 'GET', url: '/no/such/route' });

    const text = await metrics();
    const count = (method: string, route: string, status: string) =>
      sample(text, 'portico_http_requests_total', { method, route, status });
    assert.equal(count('POST', '/api/v1/public/quotes', '201'), 3);
    assert.equal(count('POST', '/api/v1/public/reach-out', '201'), 2);
    assert.equal(count('GET', '/api/v1/public/products/:id', '404'), 4, 'by route pattern, not by URL');
    assert.equal(count('GET', 'unmatched', '404'), 1);
    assert.equal(
      sample(text, 'portico_http_request_duration_seconds_count', {
        method: 'POST',
        route: '/api/v1/public/quotes',
        status_class: '2xx',
      }),
      3,
    );
    assert.equal(sample(text, 'portico_webhook_queue_pending', { endpoint: endpoint.id }), 3);
    assert.equal(sample(text, 'portico_webhook_queue_retrying', { endpoint: endpoint.id }), 0);
    assert.equal(sample(text, 'portico_webhook_deliveries_failed', { endpoint: endpoint.id }), 0);
    assert.ok(sample(text, 'portico_webhook_queue_lag_seconds', { endpoint: endpoint.id })! >= 0);
    assert.equal(sample(text, 'portico_print_queue', { state: 'running' }), 0);
    assert.equal(sample(text, 'portico_email_outbox_pending'), 0);
    assert.ok(sample(text, 'portico_process_resident_memory_bytes')! > 0, 'process metrics too');
    if (t.c.database.stats()) assert.ok(sample(text, 'portico_db_pool_connections', { state: 'total' })! >= 1);
  });
});
