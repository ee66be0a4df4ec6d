// test-engines: both
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { bearer, createTenant, createTestApp } from '../support/test-app.ts';

test('/healthz is liveness; /readyz reports each check and turns 503 with Retry-After when the webhook queue lags or a migration is missing', async (t) => {
  let now = Date.parse('2026-11-25T08:00:00Z');
  const app = await createTestApp({ READY_MAX_QUEUE_LAG_SECONDS: '60' }, { clock: { now: () => new Date(now) } });
  t.after(() => app.close());
  const ready = () => app.app.inject({ method: 'GET', url: '/readyz' });

  assert.equal((await app.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
  const fine = await ready();
  assert.equal(fine.statusCode, 200, fine.body);
  assert.deepEqual(fine.json(), {
    status: 'ready',
    checks: { database: 'ok', migrations: 'ok', webhookQueue: 'ok', emailOutbox: 'ok' },
  });

  // A delivery due now, and no sender running: two minutes on, the queue is behind its bound.
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
  assert.equal((await ready()).statusCode, 200, 'within the bound');
  now += 120_000;
  const lagging = await ready();
  assert.equal(lagging.statusCode, 503);
  assert.equal(lagging.headers['retry-after'], '5');
  assert.match(lagging.json().detail, /webhookQueue 120 s behind \(limit 60 s\)/);
  assert.equal((await app.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200, 'still alive');

  // A database that lacks a migration this code expects (a deploy that skipped `migrate`).
  await sql`delete from webhook_deliveries`.execute(app.c.database.db);
  assert.equal((await ready()).statusCode, 200);
  await sql`delete from kysely_migration where name = '0008-inquiry-handled'`.execute(app.c.database.db);
  const behind = await ready();
  assert.equal(behind.statusCode, 503);
  assert.match(behind.json().detail, /migrations pending: 0008-inquiry-handled/);
});
