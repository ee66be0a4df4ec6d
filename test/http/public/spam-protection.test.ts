// test-engines: both
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { solveChallenge } from 'altcha-lib/v1';
import { createTestApp, createTenant, bearer, type TestApp } from '../../support/test-app.ts';
import { assertProblem, reachOut, validReachOut } from '../../support/http-helpers.ts';
import type { DemoCompany } from '../../../src/modules/demo/demo-company.ts';

const SHOP = 'https://shop.example.com';

async function publishable(t: TestApp, demo: DemoCompany): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/admin/api-keys',
    headers: bearer(demo.adminToken),
    payload: { locationId: demo.locations[0]!.id, name: 'Web', kind: 'publishable', allowedOrigins: [SHOP] },
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().data.key;
}

/** What a browser does: fetch a challenge, find the number, encode the payload. */
async function solved(t: TestApp, key: string): Promise<string> {
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/v1/public/spam-challenge',
    headers: { ...bearer(key), origin: SHOP },
  });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.headers['access-control-allow-origin'], SHOP);
  const challenge = res.json();
  const solution = await solveChallenge(challenge.challenge, challenge.salt, challenge.algorithm, challenge.maxnumber)
    .promise;
  assert.ok(solution);
  return Buffer.from(JSON.stringify({ ...challenge, number: solution.number })).toString('base64');
}

const unread = async (t: TestApp, demo: DemoCompany) =>
  (
    await t.app.inject({
      method: 'GET',
      url: '/api/v1/admin/notifications?unread=true',
      headers: bearer(demo.adminToken),
    })
  ).json().data.length as number;

describe('spam protection on inquiries from web pages', () => {
  test('a filled honeypot gets a 201 and nothing is stored or told; a solved proof of work is an inquiry; none or a replay lands in the spam folder until released', async () => {
    const t = await createTestApp({ PROOF_OF_WORK_MAX_NUMBER: '2000' });
    try {
      const demo = await createTenant(t.c);
      const key = await publishable(t, demo);
      const inbox = async () => (await t.c.inquiries.list(demo.companyId, { limit: 50 })).map((i) => i.subject);
      const spam = async () =>
        (await t.c.inquiries.list(demo.companyId, { limit: 50 }, { folder: 'spam' })).map((i) => i.subject);
      const told = await unread(t, demo);

      const trapped = await reachOut(t.app, key, validReachOut({ subject: 'Bot', website: 'https://spam.example' }), {
        origin: SHOP,
      });
      assert.equal(trapped.statusCode, 201);
      assert.match(trapped.json().data.id, /^inq_/);
      assert.deepEqual(await inbox(), []);
      assert.deepEqual(await spam(), []);
      assert.equal(
        (
          await t.app.inject({
            method: 'GET',
            url: `/api/v1/admin/inquiries/${trapped.json().data.id}`,
            headers: bearer(demo.adminToken),
          })
        ).statusCode,
        404,
      );

      const altcha = await solved(t, key);
      const ok = await reachOut(t.app, key, validReachOut({ subject: 'Person', altcha }), { origin: SHOP });
      assert.equal(ok.statusCode, 201, ok.body);
      assert.deepEqual(await inbox(), ['Person']);
      assert.equal(await unread(t, demo), told + 1);

      const replay = await reachOut(t.app, key, validReachOut({ subject: 'Replayed', altcha }), { origin: SHOP });
      assert.equal(replay.statusCode, 201);
      const none = await reachOut(t.app, key, validReachOut({ subject: 'No proof' }), { origin: SHOP });
      assert.equal(none.statusCode, 201);
      const forged = await reachOut(
        t.app,
        key,
        validReachOut({ subject: 'Forged', altcha: Buffer.from('{"number":1,"signature":"x"}').toString('base64') }),
        { origin: SHOP },
      );
      assert.equal(forged.statusCode, 201);
      assert.deepEqual((await spam()).sort(), ['Forged', 'No proof', 'Replayed']);
      assert.deepEqual(await inbox(), ['Person']);
      assert.equal(await unread(t, demo), told + 1, 'spam tells nobody');

      const folder = await t.app.inject({
        method: 'GET',
        url: '/api/v1/admin/inquiries?folder=spam',
        headers: bearer(demo.adminToken),
      });
      assert.equal(folder.json().data.length, 3);
      const released = await t.app.inject({
        method: 'POST',
        url: `/api/v1/admin/inquiries/${none.json().data.id}/release`,
        headers: bearer(demo.adminToken),
      });
      assert.equal(released.statusCode, 200, released.body);
      assert.deepEqual((await inbox()).sort(), ['No proof', 'Person']);
      assert.equal(await unread(t, demo), told + 2, 'a released inquiry is told then');

      // A secret key (a server) needs no proof of work; the honeypot still applies.
      const server = demo.locations[0]!.apiKey;
      assert.equal((await reachOut(t.app, server, validReachOut({ subject: 'From a server' }))).statusCode, 201);
      assert.equal(
        (await reachOut(t.app, server, validReachOut({ subject: 'Server bot', website: 'x' }))).statusCode,
        201,
      );
      assert.ok((await inbox()).includes('From a server'));
      assert.ok(!(await inbox()).includes('Server bot'));
    } finally {
      await t.close();
    }
  });

  test("a challenge solved for one company's key is no proof for another company's form", async () => {
    const t = await createTestApp({ PROOF_OF_WORK_MAX_NUMBER: '2000' });
    try {
      const one = await createTenant(t.c);
      const other = await createTenant(t.c);
      const oneKey = await publishable(t, one);
      const otherKey = await publishable(t, other);
      const altcha = await solved(t, oneKey);
      const res = await reachOut(t.app, otherKey, validReachOut({ subject: 'Borrowed proof', altcha }), {
        origin: SHOP,
      });
      assert.equal(res.statusCode, 201);
      const held = await t.c.inquiries.list(other.companyId, { limit: 10 }, { folder: 'spam' });
      assert.deepEqual(
        held.map((i) => [i.subject, i.spamReason]),
        [['Borrowed proof', 'proof_of_work']],
      );
      // The same solution is still good for the company it was made for.
      const own = await reachOut(t.app, oneKey, validReachOut({ subject: 'Own proof', altcha }), { origin: SHOP });
      assert.equal(own.statusCode, 201);
      assert.deepEqual(
        (await t.c.inquiries.list(one.companyId, { limit: 10 })).map((i) => i.subject),
        ['Own proof'],
      );
    } finally {
      await t.close();
    }
  });

  for (const trustProxy of [false, true])
    test(`per-address limits beside the per-key one, ${trustProxy ? 'behind TRUST_PROXY: the address from X-Forwarded-For' : 'without TRUST_PROXY: the connection address, X-Forwarded-For ignored'}`, async () => {
      const t = await createTestApp({
        RATE_LIMIT_PER_IP_PER_MINUTE: '3',
        RATE_LIMIT_PER_MINUTE: '100',
        TRUST_PROXY: String(trustProxy),
      });
      try {
        const demo = await createTenant(t.c);
        const key = await publishable(t, demo);
        const from = (remoteAddress: string, forwardedFor: string) =>
          t.app.inject({
            method: 'GET',
            url: '/api/v1/public/categories',
            headers: { ...bearer(key), 'x-forwarded-for': forwardedFor },
            remoteAddress,
          });
        // Every visitor through one proxy (10.0.0.1), each with their own address behind it.
        for (let i = 0; i < 3; i++) assert.equal((await from('10.0.0.1', '203.0.113.7')).statusCode, 200);
        const fourth = await from('10.0.0.1', '203.0.113.7');
        const problem = assertProblem(fourth, 429, 'rate_limited');
        assert.match(problem.detail, /one address/);
        assert.ok(Number(fourth.headers['retry-after']) >= 1);
        const neighbour = await from('10.0.0.1', '203.0.113.8');
        assert.equal(neighbour.statusCode, trustProxy ? 200 : 429, 'another visitor behind the same proxy');
        assert.equal((await from('10.0.0.2', '203.0.113.9')).statusCode, 200, 'another connection address');
        // Secret keys (servers) are limited per key only.
        for (let i = 0; i < 5; i++)
          assert.equal(
            (
              await t.app.inject({
                method: 'GET',
                url: '/api/v1/public/categories',
                headers: bearer(demo.locations[0]!.apiKey),
                remoteAddress: '10.0.0.1',
              })
            ).statusCode,
            200,
          );
      } finally {
        await t.close();
      }
    });
});

test('with a hosted captcha configured, its token is verified at the configured URL instead of the proof of work', async () => {
  const seen: URLSearchParams[] = [];
  const verifier = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      seen.push(form);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: form.get('response') === 'good-token' && form.get('secret') === 'sekrit' }));
    });
  });
  await new Promise<void>((resolve) => verifier.listen(0, '127.0.0.1', resolve));
  const verifyUrl = `http://127.0.0.1:${(verifier.address() as AddressInfo).port}/siteverify`;
  const t = await createTestApp({ CAPTCHA_VERIFY_URL: verifyUrl, CAPTCHA_SECRET: 'sekrit' });
  try {
    const demo = await createTenant(t.c);
    const key = await publishable(t, demo);
    const inbox = async () => (await t.c.inquiries.list(demo.companyId, { limit: 50 })).map((i) => i.subject);
    const spam = async () =>
      (await t.c.inquiries.list(demo.companyId, { limit: 50 }, { folder: 'spam' })).map((i) => i.subject);
    assert.equal(
      (await reachOut(t.app, key, validReachOut({ subject: 'Human', captchaToken: 'good-token' }), { origin: SHOP }))
        .statusCode,
      201,
    );
    assert.equal(
      (await reachOut(t.app, key, validReachOut({ subject: 'Bot', captchaToken: 'bad' }), { origin: SHOP })).statusCode,
      201,
    );
    assert.deepEqual(await inbox(), ['Human']);
    assert.deepEqual(await spam(), ['Bot']);
    assert.equal(seen.length, 2);
    assert.equal(seen[0]!.get('remoteip'), '127.0.0.1');
  } finally {
    await t.close();
    verifier.close();
  }
});

test('a solved proof of work is spent for every process: replayed to a second instance, or after a restart, it lands in the spam folder', async () => {
  const first = await createTestApp({ PROOF_OF_WORK_MAX_NUMBER: '2000' });
  // Another process over the same database and secrets: nothing of the first one's memory.
  const second = await createTestApp({
    PROOF_OF_WORK_MAX_NUMBER: '2000',
    DATABASE_URL: first.c.config.databaseUrl,
    DATA_DIR: first.dir,
  });
  try {
    const demo = await createTenant(first.c);
    const key = await publishable(first, demo);
    const altcha = await solved(first, key);
    const ok = await reachOut(first.app, key, validReachOut({ subject: 'Person', altcha }), { origin: SHOP });
    assert.equal(ok.statusCode, 201, ok.body);
    const elsewhere = await reachOut(second.app, key, validReachOut({ subject: 'Replayed elsewhere', altcha }), {
      origin: SHOP,
    });
    assert.equal(elsewhere.statusCode, 201, elsewhere.body);
    // A fresh solution passes on the second instance: the refusal above was the replay, not the instance.
    const fresh = await solved(second, key);
    const again = await reachOut(second.app, key, validReachOut({ subject: 'Second person', altcha: fresh }), {
      origin: SHOP,
    });
    assert.equal(again.statusCode, 201, again.body);
    const listed = async (folder: string) =>
      (
        await first.app.inject({
          method: 'GET',
          url: `/api/v1/admin/inquiries${folder}`,
          headers: bearer(demo.adminToken),
        })
      )
        .json()
        .data.map((i: { subject: string }) => i.subject)
        .sort();
    // The same solution twice at once (one batch of spends): exactly one passes.
    const twin = await solved(first, key);
    const both = await Promise.all(
      ['Twin A', 'Twin B'].map((subject) =>
        reachOut(first.app, key, validReachOut({ subject, altcha: twin }), { origin: SHOP }),
      ),
    );
    assert.deepEqual(
      both.map((r) => r.statusCode),
      [201, 201],
    );
    const spam = await listed('?folder=spam');
    assert.equal(spam.filter((s: string) => s.startsWith('Twin')).length, 1, spam.join(', '));
    assert.deepEqual(
      spam.filter((s: string) => !s.startsWith('Twin')),
      ['Replayed elsewhere'],
    );
    const inbox = await listed('');
    assert.equal(inbox.filter((s: string) => s.startsWith('Twin')).length, 1, inbox.join(', '));
    assert.deepEqual(
      inbox.filter((s: string) => !s.startsWith('Twin')),
      ['Person', 'Second person'],
    );
  } finally {
    await second.close();
    await first.close();
  }
});
