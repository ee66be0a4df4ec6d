// test-engines: both
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, createTenant, bearer } from '../../support/test-app.ts';
import { startWebhookReceiver } from '../../support/webhook-receiver.ts';
import { createQuote } from '../../support/webhook-helpers.ts';
import { AppError } from '../../../src/lib/errors.ts';

// Every character a header can carry, spaces inside: accepted, and delivered as it is.
const EVERY_PRINTABLE = `!"#$%&'()*+,-./0123456789:;<=>?@ABC XYZ[\\]^_\`abc{|}~`;

test('a webhook secret a header cannot carry is refused with a 400 naming `secret`, on create and on rotate', async (t) => {
  const receiver = await startWebhookReceiver();
  const app = await createTestApp({}, { startWorkers: true });
  t.after(async () => {
    await app.close();
    await receiver.close();
  });
  const demo = await createTenant(app.c);
  const url = `${receiver.url}/hooks`;
  const post = (secret: unknown) =>
    app.app.inject({
      method: 'POST',
      url: '/api/v1/admin/webhooks',
      headers: bearer(demo.adminToken),
      payload: { kind: 'http', url, secret },
    });

  for (const secret of [
    'šifra-za-webhook-2026',
    'ключ-секрет-1234567890',
    'tab\tinside-the-secret',
    ' leading-space-secret',
    'trailing-space-secret ',
    'only-15-chars-x',
    'x'.repeat(201),
  ]) {
    const res = await post(secret);
    assert.equal(res.statusCode, 400, `${JSON.stringify(secret)}: ${res.body}`);
    assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
    assert.deepEqual(Object.keys(res.json().details), ['secret'], JSON.stringify(secret));
  }
  assert.equal((await app.c.endpoints.list(demo.companyId)).length, 0, 'nothing was stored');

  const created = await post(EVERY_PRINTABLE);
  assert.equal(created.statusCode, 201, created.body);
  const id = created.json().data.id as string;
  const patch = (secret: unknown) =>
    app.app.inject({
      method: 'PATCH',
      url: `/api/v1/admin/webhooks/${id}`,
      headers: bearer(demo.adminToken),
      payload: { secret },
    });
  const rotated = await patch('geheimnis-für-den-webhook');
  assert.equal(rotated.statusCode, 400, rotated.body);
  assert.deepEqual(Object.keys(rotated.json().details), ['secret']);
  assert.equal((await patch('x'.repeat(200))).statusCode, 200, 'the longest allowed');

  // The service holds the rule too, for callers that are not this route (the hub's pages).
  await assert.rejects(
    app.c.endpoints.update(demo.companyId, id, { secret: 'lozinka-čćžšđ-1234' }),
    (err: AppError) => err.code === 'validation_failed' && 'secret' in (err.details ?? {}),
  );
  await assert.rejects(
    app.c.endpoints.create(demo.companyId, { kind: 'http', url, secret: 'short' }),
    (err: AppError) => 'secret' in (err.details ?? {}),
  );

  assert.equal((await patch(EVERY_PRINTABLE)).statusCode, 200);
  await createQuote(app, demo);
  const [req] = await receiver.waitFor(1, 10_000);
  assert.equal(req!.headers['x-service-webhook-secret'], EVERY_PRINTABLE, 'an accepted secret is delivered intact');
});
