// test-engines: both
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bearer, createTenant, createTestApp } from '../../support/test-app.ts';
import { addHttpEndpoint } from '../../support/webhook-helpers.ts';
import { adminCall } from '../../support/sales-helpers.ts';
import { line } from '../../support/quote-helpers.ts';

/**
 * An endpoint's delivery log keeps live and test events apart, as every list does: the admin API
 * lists live deliveries unless asked for `mode=test`, each item says `livemode` and its event;
 * the hub's endpoint page follows its "test data" switch.
 */
test("an endpoint's deliveries are of live or of test events, never mixed: admin API and hub", async () => {
  const t = await createTestApp();
  try {
    const demo = await createTenant(t.c, { passwords: true });
    // Nothing dispatches (no workers): the deliveries stay queued, which is all a log needs.
    const endpoint = await addHttpEndpoint(t, demo, { url: 'https://hooks.example.com/portico' });
    const made = await adminCall(t.app, demo.adminToken, 'POST', '/api-keys', {
      locationId: demo.locations[0]!.id,
      name: 'Developer',
      mode: 'test',
    });
    assert.equal(made.statusCode, 201, made.body);
    const quote = { format: 'json', customer: { name: 'Kupac' }, lines: [line(demo, 0, 1)] };
    const create = (key: string) =>
      t.app.inject({ method: 'POST', url: '/api/v1/public/quotes', headers: bearer(key), payload: quote });
    assert.equal((await create(demo.locations[0]!.apiKey)).statusCode, 201);
    assert.equal((await create(made.json().data.key)).statusCode, 201);
    assert.equal((await create(made.json().data.key)).statusCode, 201);

    const list = async (query: string) => {
      const res = await adminCall(t.app, demo.adminToken, 'GET', `/webhooks/${endpoint.id}/deliveries${query}`);
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data as Array<{ eventId: string; event: string; livemode: boolean }>;
    };
    const live = await list('');
    const test = await list('?mode=test');
    assert.deepEqual(
      live.map((d) => [d.event, d.livemode]),
      [['quote.created', true]],
    );
    assert.deepEqual(
      test.map((d) => [d.event, d.livemode]),
      [
        ['quote.created', false],
        ['quote.created', false],
      ],
    );
    assert.deepEqual(await list('?mode=live'), live);
    const bad = await adminCall(t.app, demo.adminToken, 'GET', `/webhooks/${endpoint.id}/deliveries?mode=both`);
    assert.equal(bad.statusCode, 400, bad.body);

    // The hub's endpoint page: live events, or test events behind the switch.
    const admin = demo.users.find((u) => u.role === 'admin')!;
    const { token } = await t.c.accounts.signIn(admin.email, admin.password!);
    const page = async (query: string) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/hub/developer/webhooks/${endpoint.id}${query}`,
        headers: { cookie: `portico_session=${token}` },
      });
      assert.equal(res.statusCode, 200);
      return res.body;
    };
    const livePage = await page('');
    assert.ok(livePage.includes(live[0]!.eventId));
    for (const d of test) assert.ok(!livePage.includes(d.eventId), 'no test event on the live log');
    assert.match(livePage, /<input type="checkbox" id="data" name="data" value="test">/);
    const testPage = await page('?data=test');
    for (const d of test) assert.ok(testPage.includes(d.eventId));
    assert.ok(!testPage.includes(live[0]!.eventId), 'no live event on the test log');
    assert.match(testPage, /id="data" name="data" value="test" checked/);
  } finally {
    await t.close();
  }
});
