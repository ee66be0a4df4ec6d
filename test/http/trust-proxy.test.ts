// test-engines: sqlite
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config/config.ts';
import { createTestApp, createTenant, bearer, type TestApp } from '../support/test-app.ts';

const SHOP = 'https://shop.example.com';
const PROXY = '10.0.0.1';
const CLIENT = '203.0.113.7';

describe('TRUST_PROXY takes Fastify trustProxy forms, never the left-most X-Forwarded-For', () => {
  test('values: false, true (one hop), a hop count, a list of addresses and CIDRs; anything else stops the start', () => {
    const read = (value: string) => loadConfig({ TRUST_PROXY: value }).trustProxy;
    assert.equal(read('false'), false);
    assert.equal(read('true'), 1);
    assert.equal(read('2'), 2);
    assert.deepEqual(read('10.0.0.1, 10.1.0.0/16,fd00::/8'), ['10.0.0.1', '10.1.0.0/16', 'fd00::/8']);
    for (const bad of ['10.0.0.300', '10.0.0.0/33', 'proxy.example', '11'])
      assert.throws(() => read(bad), /TRUST_PROXY/, bad);
  });

  for (const trust of ['true', '10.0.0.0/8'])
    test(`TRUST_PROXY=${trust}: a spoofed left-most X-Forwarded-For behind one trusted hop is ignored by the publishable per-address limit and the sign-in limit`, async () => {
      const t = await createTestApp({
        TRUST_PROXY: trust,
        RATE_LIMIT_PER_IP_PER_MINUTE: '3',
        RATE_LIMIT_PER_MINUTE: '1000',
        HUB_SIGN_IN_ATTEMPTS: '1',
      });
      try {
        const demo = await createTenant(t.c);
        const key = await publishable(t, demo.adminToken, demo.locations[0]!.id);
        // The client writes X-Forwarded-For itself; the proxy appends the address it saw.
        const spoofed = (i: number) => `198.51.100.${i}, ${CLIENT}`;
        const read = (i: number) =>
          t.app.inject({
            method: 'GET',
            url: '/api/v1/public/categories',
            headers: { ...bearer(key), 'x-forwarded-for': spoofed(i) },
            remoteAddress: PROXY,
          });
        for (let i = 0; i < 3; i++) assert.equal((await read(i)).statusCode, 200);
        assert.equal((await read(3)).statusCode, 429, 'a new left-most address does not make a new visitor');

        // Sign-in: ten times HUB_SIGN_IN_ATTEMPTS failures per address, each under a new e-mail
        // and a new spoofed address; the eleventh is held back, so the address was the proxy's view.
        for (let i = 0; i < 10; i++) assert.equal((await signIn(t, `nobody${i}@example.com`, spoofed(i))).status, 401);
        const held = await signIn(t, 'nobody-else@example.com', spoofed(10));
        assert.equal(held.status, 401);
        assert.ok(held.ms >= 900, `the eleventh failure from one address is held back (${Math.round(held.ms)} ms)`);
      } finally {
        await t.close();
      }
    });
});

async function publishable(t: TestApp, adminToken: string, locationId: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/admin/api-keys',
    headers: bearer(adminToken),
    payload: { locationId, name: 'Web', kind: 'publishable', allowedOrigins: [SHOP] },
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().data.key;
}

async function signIn(t: TestApp, email: string, forwardedFor: string) {
  const page = await t.app.inject({ method: 'GET', url: '/hub/sign-in', remoteAddress: PROXY });
  const token = /name="_csrf" value="([^"]+)"/.exec(page.body)![1]!;
  const cookie = String(page.headers['set-cookie']).match(/portico_csrf=[^;]+/)![0];
  const started = performance.now();
  const res = await t.app.inject({
    method: 'POST',
    url: '/hub/sign-in',
    remoteAddress: PROXY,
    headers: {
      cookie,
      origin: 'http://localhost:80',
      'x-forwarded-for': forwardedFor,
      'content-type': 'application/x-www-form-urlencoded',
    },
    payload: new URLSearchParams({ _csrf: token, email, password: 'wrong password' }).toString(),
  });
  return { status: res.statusCode, ms: performance.now() - started };
}
