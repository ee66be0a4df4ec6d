// test-engines: both
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { bearer, createTenant, createTestApp } from '../support/test-app.ts';

const METRICS_TOKEN = 'm'.repeat(40);

test('/healthz is liveness; /readyz is whether this instance can serve: a lagging shared queue does not make it unready, a missing migration does; details only to the metrics token', async (t) => {
  let now = Date.parse('2026-11-25T08:00:00Z');
  const app = await createTestApp({ METRICS_TOKEN }, { clock: { now: () => new Date(now) } });
  t.after(() => app.close());
  const ready = () => app.app.inject({ method: 'GET', url: '/readyz' });
  const readyForOperator = () =>
    app.app.inject({ method: 'GET', url: '/readyz', headers: { authorization: `bearer ${METRICS_TOKEN}` } });

  assert.equal((await app.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
  const fine = await ready();
  assert.equal(fine.statusCode, 200, fine.body);
  assert.deepEqual(fine.json(), { status: 'ready' }, 'an anonymous probe learns nothing more');
  assert.deepEqual((await readyForOperator()).json(), {
    status: 'ready',
    checks: { database: 'ok', migrations: 'ok' },
  });

  // A delivery due now, and no sender running: two minutes on, the shared queue lags; every
  // instance shares it, so none is taken out of service for it (a metric and an alert instead).
  const d = await createTenant(app.c);
  await app.c.endpoints.create(d.companyId, { kind: 'http', url: 'http://127.0.0.1:9/lag', events: ['quote.created'] });
  const product = d.products[0]!;
  const created = await app.app.inject({
    method: 'POST',
    url: '/api/v1/public/quotes',
    headers: { ...bearer(d.locations[0]!.apiKey), 'content-type': 'application/json' },
    payload: {
      format: 'json',
      customer: { name: 'Lag' },
      lines: [{ productId: product.id, unitId: product.units[0]!.id, quantity: 1 }],
    },
  });
  assert.equal(created.statusCode, 201, created.body);
  now += 3_600_000;
  assert.equal((await ready()).statusCode, 200, 'an hour behind, still ready');
  const metrics = await app.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `BEARER ${METRICS_TOKEN}` },
  });
  assert.equal(metrics.statusCode, 200, 'the scheme in any case');
  assert.match(metrics.body, /portico_webhook_queue_lag_seconds\{[^}]*\} 3600/);
  assert.match(metrics.body, /portico_email_outbox_pending\{[^}]*lane="customer"[^}]*\} 0/);

  // A database that lacks a migration this code expects (a deploy that skipped `migrate`).
  await sql`delete from kysely_migration where name = '0008-inquiry-handled'`.execute(app.c.database.db);
  const behind = await ready();
  assert.equal(behind.statusCode, 503);
  assert.equal(behind.headers['retry-after'], '5');
  assert.doesNotMatch(behind.body, /migration|0008/, 'an anonymous probe is not told which check failed');
  const toOperator = await readyForOperator();
  assert.equal(toOperator.statusCode, 503);
  assert.match(toOperator.json().detail, /migrations pending: 0008-inquiry-handled/);
});
